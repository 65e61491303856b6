// @loupe/metrics: pure, I/O-free evaluation metrics for the seven task types, shared by the
// server, the workers and the `loupe` CLI.
export * from './asr.js';
export * from './catalogue.js';
export * from './classification.js';
export * from './coco.js';
export * from './compare/index.js';
export * from './object-matching.js';
export * from './regression.js';
export * from './report/index.js';
export * from './rle.js';
export * from './semantic-segmentation.js';
export { sortFloat64 } from './sort.js';

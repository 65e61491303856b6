// PCA and nearest-neighbour search for embeddings (exported from @loupe/analysis).

export { pca, symmetricEigen } from './pca.js';
export type { PcaMethod, PcaOptions, PcaResult } from './pca.js';
export { allNearestNeighbours, createExactIndex, exactSearch } from './neighbours/exact.js';
export type {
  AllNeighbours,
  DistanceMetric,
  ExactIndex,
  Neighbours,
  VectorSetOptions,
} from './neighbours/exact.js';
export { createAnnIndex, loadAnnIndex } from './neighbours/ann.js';
export type { AnnIndex, AnnIndexOptions } from './neighbours/ann.js';

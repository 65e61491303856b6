// @loupe/analysis: pure compute for Loupe. Media metadata and default features for the
// MetadataAndFeaturesComputation job; typed arrays in and out, no I/O.

export { analyzeAudio, analyzeImage } from './media.js';
export type { AudioAnalysis, ImageAnalysis } from './media.js';
export { assertRawImage, luma, LUMA_WEIGHTS, resizeArea } from './raster.js';
export type { RawImage } from './raster.js';
export { aspectRatio, imageStatistics } from './image-statistics.js';
export type { ImageStatistics } from './image-statistics.js';
export { hammingDistance, perceptualHash } from './perceptual-hash.js';
export { IMAGE_DESCRIPTOR_DIMENSION, imageDescriptor } from './image-descriptor.js';
export { decodeWav, encodeWav } from './wav.js';
export {
  AUDIO_MAX_CHANNELS,
  AUDIO_MAX_SAMPLE_RATE,
  AUDIO_MAX_SAMPLES,
  AUDIO_MAX_SECONDS,
  checkAudioLimits,
} from './audio-limits.js';
export type { DecodedAudio } from './wav.js';
export { createRealFft, hannWindow, nextPowerOfTwo } from './fft.js';
export type { RealFft } from './fft.js';
export {
  MEL_BANDS,
  mixToMono,
  ROLLOFF_SHARE,
  STFT_FRAME_SECONDS,
  STFT_HOP_SECONDS,
} from './stft.js';
export {
  audioStatistics,
  CLIP_LEVEL,
  MIN_DBFS,
  SILENCE_FRAME_SECONDS,
  SILENCE_THRESHOLD_DBFS,
  spectralCentroid,
  toDbfs,
} from './audio-statistics.js';
export type { AudioStatistics } from './audio-statistics.js';
export {
  AUDIO_DESCRIPTOR_DIMENSION,
  audioDescriptor,
  MFCC_COEFFICIENTS,
} from './audio-descriptor.js';
export { boxStatistics, countObjectsByLabel } from './objects.js';
export type { BoxStatistics, ObjectCounts } from './objects.js';
export { createRandom } from './random.js';
export type { Random } from './random.js';
export { DEFAULT_SYNTHETIC_LABELS, syntheticImage, syntheticTone } from './synthetic.js';
export type {
  SyntheticImage,
  SyntheticImageOptions,
  SyntheticObject,
  SyntheticToneOptions,
} from './synthetic.js';
export { DEMO_SHAPES, DEMO_SOUNDS, DEMO_TASKS, DEMO_WORDS, demoDataset } from './demo.js';
export type { DemoDataset, DemoObject, DemoPrediction, DemoSample, DemoTask } from './demo.js';
export * from './query/index.js';
export { SPECTROGRAM_RANGE_DB, spectrogramImage } from './spectrogram.js';
export * from './embeddings/index-ann.js';
export * from './embeddings/index-layout.js';
export * from './checks/index.js';
export { GrowingArray, type GrowableArray } from './growing.js';

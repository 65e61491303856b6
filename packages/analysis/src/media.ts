// One-call analysis of a decoded image or clip for the MetadataAndFeaturesComputation job,
// sharing intermediate planes between the statistics, hash and descriptor.

import { audioDescriptor } from './audio-descriptor.js';
import { audioStatistics, type AudioStatistics } from './audio-statistics.js';
import { imageDescriptor } from './image-descriptor.js';
import { imageStatisticsFromLuma, type ImageStatistics } from './image-statistics.js';
import { perceptualHashFromLuma } from './perceptual-hash.js';
import { assertRawImage, luma, type RawImage } from './raster.js';

export interface ImageAnalysis {
  statistics: ImageStatistics;
  /** 16-hex-digit pHash (perceptualHash). */
  phash: string;
  /** IMAGE_DESCRIPTOR_DIMENSION-long unit vector (imageDescriptor). */
  descriptor: Float32Array;
}

/** imageStatistics, perceptualHash and imageDescriptor of one image, computing luma once. */
export function analyzeImage(image: RawImage): ImageAnalysis {
  assertRawImage(image);
  const y = luma(image);
  return {
    statistics: imageStatisticsFromLuma(image, y),
    phash: perceptualHashFromLuma(y, image.width, image.height),
    descriptor: imageDescriptor(image),
  };
}

export interface AudioAnalysis {
  statistics: AudioStatistics;
  /** AUDIO_DESCRIPTOR_DIMENSION-long unit vector (audioDescriptor). */
  descriptor: Float32Array;
}

/** audioStatistics and audioDescriptor of one clip. */
export function analyzeAudio(channels: readonly Float32Array[], sampleRate: number): AudioAnalysis {
  return {
    statistics: audioStatistics(channels, sampleRate),
    descriptor: audioDescriptor(channels, sampleRate),
  };
}

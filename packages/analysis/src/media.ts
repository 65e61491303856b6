// One-call analysis of a decoded image or clip for the MetadataAndFeaturesComputation job,
// sharing the resampled thumbnail and the clip's spectra between the statistics, hash and descriptor.

import { audioDescriptorFromFrames } from './audio-descriptor.js';
import { audioStatisticsFromFrames, type AudioStatistics } from './audio-statistics.js';
import { imageDescriptorFromThumbnail } from './image-descriptor.js';
import { imageStatistics, type ImageStatistics } from './image-statistics.js';
import { perceptualHashFromThumbnail } from './perceptual-hash.js';
import { assertRawImage, thumbnail, type RawImage } from './raster.js';
import { assertAudio, mixToMono, spectralFrames } from './stft.js';

export interface ImageAnalysis {
  statistics: ImageStatistics;
  /** 16-hex-digit pHash (perceptualHash). */
  phash: string;
  /** IMAGE_DESCRIPTOR_DIMENSION-long unit vector (imageDescriptor). */
  descriptor: Float32Array;
}

/** imageStatistics, perceptualHash and imageDescriptor of one image, resampling it once. */
export function analyzeImage(image: RawImage): ImageAnalysis {
  assertRawImage(image);
  const small = thumbnail(image);
  return {
    statistics: imageStatistics(image),
    phash: perceptualHashFromThumbnail(small),
    descriptor: imageDescriptorFromThumbnail(small),
  };
}

export interface AudioAnalysis {
  statistics: AudioStatistics;
  /** AUDIO_DESCRIPTOR_DIMENSION-long unit vector (audioDescriptor). */
  descriptor: Float32Array;
}

/** audioStatistics and audioDescriptor of one clip, transforming it once. */
export function analyzeAudio(channels: readonly Float32Array[], sampleRate: number): AudioAnalysis {
  assertAudio(channels, sampleRate);
  const frames = spectralFrames(mixToMono(channels), sampleRate);
  return {
    statistics: audioStatisticsFromFrames(channels, frames),
    descriptor: audioDescriptorFromFrames(frames),
  };
}

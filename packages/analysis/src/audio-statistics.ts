// Per-clip audio statistics for the dataset metadata: duration, loudness, peak, clipping, silence
// and spectral centroid, from decoded float samples.

import { assertAudio, mixToMono, spectralFrames, type SpectralFrames } from './stft.js';

/** Decibel values are floored here so silence gives a finite, storable number. */
export const MIN_DBFS = -120;
/** Frame length of the silence measure. */
export const SILENCE_FRAME_SECONDS = 0.02;
/** A frame whose RMS is below this level counts as silent (≈ 0.01 linear). */
export const SILENCE_THRESHOLD_DBFS = -40;
/** A sample at or above this magnitude (full scale = 1) counts as clipped. */
export const CLIP_LEVEL = 0.999;

export interface AudioStatistics {
  /** Seconds: samples per channel / sample rate. */
  duration: number;
  sample_rate: number;
  channels: number;
  /** Root mean square over every sample of every channel (full scale = 1). */
  rms: number;
  /** 20·log10(rms), floored at MIN_DBFS; relative to a full-scale square wave, so a full-scale sine is −3.01. */
  rms_dbfs: number;
  /** Largest |sample| over all channels. */
  peak: number;
  /** 20·log10(peak), floored at MIN_DBFS. */
  peak_dbfs: number;
  /** Fraction of samples over all channels with |x| ≥ CLIP_LEVEL; 0 for an empty clip. */
  clipped_fraction: number;
  /**
   * Fraction of consecutive 20 ms frames (the last may be shorter) whose RMS over all channels
   * is below −40 dBFS. 1 for an empty clip.
   */
  silence_fraction: number;
  /**
   * Mean over STFT frames (mono mix, Hann, 25 ms / 10 ms) of Σ f·|X(f)| / Σ |X(f)|, in Hz.
   * Silent frames (RMS < −40 dBFS) are skipped unless every frame is silent, then frames with any
   * energy count; 0 when there is none.
   */
  spectral_centroid: number;
}

/** 20·log10(x) floored at MIN_DBFS. */
export function toDbfs(linear: number): number {
  return linear > 0 ? Math.max(MIN_DBFS, 20 * Math.log10(linear)) : MIN_DBFS;
}

/** Statistics of one clip given as one Float32Array per channel (see AudioStatistics). */
export function audioStatistics(
  channels: readonly Float32Array[],
  sampleRate: number,
): AudioStatistics {
  assertAudio(channels, sampleRate);
  return audioStatisticsFromFrames(channels, spectralFrames(mixToMono(channels), sampleRate));
}

/** audioStatistics with the clip's spectral frames already computed (shared with the descriptor). */
export function audioStatisticsFromFrames(
  channels: readonly Float32Array[],
  frames: SpectralFrames,
): AudioStatistics {
  const { sampleRate } = frames;
  const n = channels[0]!.length;
  let sumSq = 0;
  let peak = 0;
  let clipped = 0;
  for (const channel of channels) {
    for (let i = 0; i < n; i++) {
      const v = channel[i]!;
      sumSq += v * v;
      const a = v < 0 ? -v : v;
      if (a > peak) peak = a;
      if (a >= CLIP_LEVEL) clipped++;
    }
  }
  const rms = n > 0 ? Math.sqrt(sumSq / (n * channels.length)) : 0;
  return {
    duration: n / sampleRate,
    sample_rate: sampleRate,
    channels: channels.length,
    rms,
    rms_dbfs: toDbfs(rms),
    peak,
    peak_dbfs: toDbfs(peak),
    clipped_fraction: n > 0 ? clipped / (n * channels.length) : 0,
    silence_fraction: silenceFraction(channels, sampleRate),
    spectral_centroid: meanCentroid(frames),
  };
}

function silenceFraction(channels: readonly Float32Array[], sampleRate: number): number {
  const n = channels[0]!.length;
  if (n === 0) return 1;
  const frame = Math.max(1, Math.round(sampleRate * SILENCE_FRAME_SECONDS));
  const threshold = 10 ** (SILENCE_THRESHOLD_DBFS / 20);
  let silent = 0;
  let frames = 0;
  for (let start = 0; start < n; start += frame) {
    const end = Math.min(n, start + frame);
    let sumSq = 0;
    for (const channel of channels) {
      for (let i = start; i < end; i++) sumSq += channel[i]! * channel[i]!;
    }
    if (Math.sqrt(sumSq / ((end - start) * channels.length)) < threshold) silent++;
    frames++;
  }
  return silent / frames;
}

/** Mean spectral centroid in Hz of a mono signal (see AudioStatistics.spectral_centroid). */
export function spectralCentroid(mono: Float32Array, sampleRate: number): number {
  assertAudio([mono], sampleRate);
  return meanCentroid(spectralFrames(mono, sampleRate));
}

function meanCentroid({ count, centroid, rms }: SpectralFrames): number {
  const threshold = 10 ** (SILENCE_THRESHOLD_DBFS / 20);
  let loudSum = 0;
  let loudCount = 0;
  let anySum = 0;
  let anyCount = 0;
  for (let f = 0; f < count; f++) {
    const c = centroid[f]!;
    if (Number.isNaN(c)) continue;
    anySum += c;
    anyCount++;
    if (rms[f]! >= threshold) {
      loudSum += c;
      loudCount++;
    }
  }
  if (loudCount > 0) return loudSum / loudCount;
  return anyCount > 0 ? anySum / anyCount : 0;
}

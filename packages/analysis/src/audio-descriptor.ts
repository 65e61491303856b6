// Model-free audio descriptor: MFCC and spectral-shape statistics as a fixed-length unit vector,
// standing in for learned embeddings when a dataset comes without features.

import { assertAudio, MEL_BANDS, mixToMono, spectralFrames, type SpectralFrames } from './stft.js';

/** MFCCs 1..20 are kept; c0 (overall log energy) is dropped so loudness does not count. */
export const MFCC_COEFFICIENTS = 20;
/** Log-mel energies are floored 80 dB below the clip's loudest band (librosa's top_db). */
const DYNAMIC_RANGE = 1e-8;
const ABSOLUTE_FLOOR = 1e-10;

/** Length of audioDescriptor's vector: 20 MFCC means + 20 MFCC stds + 4 spectral = 44. */
export const AUDIO_DESCRIPTOR_DIMENSION = 2 * MFCC_COEFFICIENTS + 4;

// Orthonormal DCT-II rows 1..20 over the 40 log-mel bands.
const DCT = Array.from({ length: MFCC_COEFFICIENTS }, (_, i) => {
  const k = i + 1;
  return Float64Array.from(
    { length: MEL_BANDS },
    (_, m) => Math.sqrt(2 / MEL_BANDS) * Math.cos((Math.PI * k * (m + 0.5)) / MEL_BANDS),
  );
});

/**
 * Unit-length descriptor of a clip, compared with cosine similarity (= dot product).
 * Mono mix; STFT with Hann window, 25 ms frames, 10 ms hop; power spectrum through 40 HTK mel
 * triangles (0 Hz–Nyquist); natural log with a floor 80 dB below the clip's loudest band;
 * orthonormal DCT-II; MFCCs 1..20. Vector = [mean and population std over frames of each MFCC,
 * scaled together to unit length] followed by [mean and std of spectral centroid and of 85 %
 * rolloff, each divided by the Nyquist frequency, so in 0–1], then the whole is scaled to unit
 * length. Silence (all zeros) gives the fixed vector with every entry 1/√44.
 */
export function audioDescriptor(
  channels: readonly Float32Array[],
  sampleRate: number,
): Float32Array {
  assertAudio(channels, sampleRate);
  return audioDescriptorFromFrames(spectralFrames(mixToMono(channels), sampleRate));
}

/** audioDescriptor with the clip's spectral frames already computed (shared with the statistics). */
export function audioDescriptorFromFrames(spectral: SpectralFrames): Float32Array {
  const { mel, count: frames } = spectral;
  const nyquist = spectral.sampleRate / 2;
  const centroids: number[] = [];
  const rolloffs: number[] = [];
  for (let f = 0; f < frames; f++) {
    if (Number.isNaN(spectral.centroid[f])) continue;
    centroids.push(spectral.centroid[f]! / nyquist);
    rolloffs.push(spectral.rolloff[f]! / nyquist);
  }
  let loudest = 0;
  for (let i = 0; i < frames * MEL_BANDS; i++) if (mel[i]! > loudest) loudest = mel[i]!;
  const floor = Math.max(ABSOLUTE_FLOOR, loudest * DYNAMIC_RANGE);

  const sum = new Float64Array(MFCC_COEFFICIENTS);
  const sumSq = new Float64Array(MFCC_COEFFICIENTS);
  const logMel = new Float64Array(MEL_BANDS);
  for (let f = 0; f < frames; f++) {
    for (let m = 0; m < MEL_BANDS; m++)
      logMel[m] = Math.log(Math.max(floor, mel[f * MEL_BANDS + m]!));
    for (let c = 0; c < MFCC_COEFFICIENTS; c++) {
      const row = DCT[c]!;
      let value = 0;
      for (let m = 0; m < MEL_BANDS; m++) value += row[m]! * logMel[m]!;
      sum[c]! += value;
      sumSq[c]! += value * value;
    }
  }

  const out = new Float64Array(AUDIO_DESCRIPTOR_DIMENSION);
  for (let c = 0; c < MFCC_COEFFICIENTS; c++) {
    const mean = sum[c]! / frames;
    out[c] = mean;
    out[MFCC_COEFFICIENTS + c] = Math.sqrt(Math.max(0, sumSq[c]! / frames - mean * mean));
  }
  scaleToUnit(out, 0, 2 * MFCC_COEFFICIENTS);
  const [centroidMean, centroidStd] = meanAndStd(centroids);
  const [rolloffMean, rolloffStd] = meanAndStd(rolloffs);
  out.set([centroidMean, centroidStd, rolloffMean, rolloffStd], 2 * MFCC_COEFFICIENTS);
  if (!scaleToUnit(out, 0, out.length)) out.fill(1 / Math.sqrt(out.length));
  return Float32Array.from(out);
}

function meanAndStd(values: readonly number[]): [number, number] {
  if (values.length === 0) return [0, 0];
  let sum = 0;
  let sumSq = 0;
  for (const v of values) {
    sum += v;
    sumSq += v * v;
  }
  const mean = sum / values.length;
  return [mean, Math.sqrt(Math.max(0, sumSq / values.length - mean * mean))];
}

/** Scales v[from, to) to unit L2 length in place; false (unchanged) when it is all zeros. */
function scaleToUnit(v: Float64Array, from: number, to: number): boolean {
  let sumSq = 0;
  for (let i = from; i < to; i++) sumSq += v[i]! * v[i]!;
  // Below this the values are float rounding of a constant spectrum, not a shape.
  if (!(sumSq > 1e-20)) {
    for (let i = from; i < to; i++) v[i] = 0;
    return false;
  }
  const scale = 1 / Math.sqrt(sumSq);
  for (let i = from; i < to; i++) v[i]! *= scale;
  return true;
}

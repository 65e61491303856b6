// Short-time spectra of a mono signal (Hann window, 25 ms frames, 10 ms hop) and the per-frame
// measures that the audio statistics and the audio descriptor share, so a clip is transformed once.

import { AUDIO_MAX_SAMPLE_RATE, checkAudioLimits } from './audio-limits.js';
import { createRealFft, hannWindow, nextPowerOfTwo } from './fft.js';

/** STFT frame length and hop, the usual speech/audio-tagging choice. */
export const STFT_FRAME_SECONDS = 0.025;
export const STFT_HOP_SECONDS = 0.01;
/**
 * Longest frame and hop, those of the highest accepted rate: the transform's size stays bounded
 * whatever rate a caller passes (a header's 4 GHz would otherwise ask for a 2^27-point FFT).
 */
const MAX_FRAME_LENGTH = Math.round(AUDIO_MAX_SAMPLE_RATE * STFT_FRAME_SECONDS);
const MAX_HOP = Math.round(AUDIO_MAX_SAMPLE_RATE * STFT_HOP_SECONDS);

export interface SpectrumFrame {
  /** |X[k]|² for k = 0..fftSize/2, bin k at k·sampleRate/fftSize Hz. */
  power: Float64Array;
  /** RMS of the frame's samples before windowing (zero padding excluded). */
  rms: number;
}

export interface StftLayout {
  frameLength: number;
  hop: number;
  fftSize: number;
  frames: number;
}

/** Frame layout: a clip shorter than one frame is one zero-padded frame; the last frame is padded. */
export function stftLayout(length: number, sampleRate: number): StftLayout {
  const frameLength = Math.min(
    MAX_FRAME_LENGTH,
    Math.max(1, Math.round(sampleRate * STFT_FRAME_SECONDS)),
  );
  const hop = Math.min(MAX_HOP, Math.max(1, Math.round(sampleRate * STFT_HOP_SECONDS)));
  const frames = length <= frameLength ? 1 : 1 + Math.ceil((length - frameLength) / hop);
  return { frameLength, hop, fftSize: nextPowerOfTwo(frameLength), frames };
}

/**
 * Calls `visit` for each frame, or only for the frames `wanted` accepts (the others are not
 * transformed); `frame.power` is reused between calls.
 */
export function forEachSpectrum(
  mono: Float32Array,
  sampleRate: number,
  visit: (frame: SpectrumFrame, index: number) => void,
  wanted?: (index: number) => boolean,
): StftLayout {
  const layout = stftLayout(mono.length, sampleRate);
  const { frameLength, hop, fftSize, frames } = layout;
  const fft = createRealFft(fftSize);
  const window = hannWindow(frameLength);
  const buffer = new Float64Array(frameLength);
  const re = new Float64Array(fftSize / 2 + 1);
  const im = new Float64Array(fftSize / 2 + 1);
  const power = new Float64Array(fftSize / 2 + 1);
  const frame: SpectrumFrame = { power, rms: 0 };
  for (let f = 0; f < frames; f++) {
    if (wanted && !wanted(f)) continue;
    const start = f * hop;
    const available = Math.max(0, Math.min(frameLength, mono.length - start));
    let sumSq = 0;
    for (let i = 0; i < frameLength; i++) {
      const v = i < available ? mono[start + i]! : 0;
      sumSq += v * v;
      buffer[i] = v * window[i]!;
    }
    fft.transform(buffer, re, im);
    for (let k = 0; k < power.length; k++) power[k] = re[k]! * re[k]! + im[k]! * im[k]!;
    frame.rms = available > 0 ? Math.sqrt(sumSq / available) : 0;
    visit(frame, f);
  }
  return layout;
}

/** Mean of the channels, sample by sample. */
export function mixToMono(channels: readonly Float32Array[]): Float32Array {
  if (channels.length === 1) return channels[0]!;
  const n = channels[0]!.length;
  const mono = new Float32Array(n);
  for (const channel of channels) {
    for (let i = 0; i < n; i++) mono[i]! += channel[i]!;
  }
  const scale = 1 / channels.length;
  for (let i = 0; i < n; i++) mono[i]! *= scale;
  return mono;
}

/**
 * Throws an Error naming the problem for an empty channel list, unequal lengths, or a rate,
 * channel count or length outside the limits of audio-limits.ts.
 */
export function assertAudio(channels: readonly Float32Array[], sampleRate: number): void {
  if (channels.length < 1) throw new Error('Audio needs at least one channel');
  const n = channels[0]!.length;
  if (channels.some((c) => c.length !== n))
    throw new Error('Audio channels must have equal lengths');
  checkAudioLimits(sampleRate, channels.length, n);
}

/** Mel bands of the filterbank behind the MFCCs. */
export const MEL_BANDS = 40;
/** Spectral rolloff: the frequency below which this share of a frame's power lies. */
export const ROLLOFF_SHARE = 0.85;

const hzToMel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const melToHz = (mel: number) => 700 * (10 ** (mel / 2595) - 1);

/** HTK-style triangular mel filters (peak 1) from 0 Hz to Nyquist, as weights per FFT bin. */
function melFilterbank(sampleRate: number, fftSize: number) {
  const bins = fftSize / 2 + 1;
  const maxMel = hzToMel(sampleRate / 2);
  const edges = Array.from({ length: MEL_BANDS + 2 }, (_, i) =>
    melToHz((i * maxMel) / (MEL_BANDS + 1)),
  );
  return Array.from({ length: MEL_BANDS }, (_, m) => {
    const [lo, mid, hi] = [edges[m]!, edges[m + 1]!, edges[m + 2]!];
    const first = Math.max(0, Math.ceil((lo * fftSize) / sampleRate));
    const last = Math.min(bins - 1, Math.floor((hi * fftSize) / sampleRate));
    const weights = new Float64Array(Math.max(0, last - first + 1));
    for (let k = first; k <= last; k++) {
      const f = (k * sampleRate) / fftSize;
      weights[k - first] = Math.max(0, f <= mid ? (f - lo) / (mid - lo) : (hi - f) / (hi - mid));
    }
    return { first, weights };
  });
}

/** Per-frame measures of a clip's STFT. */
export interface SpectralFrames {
  count: number;
  sampleRate: number;
  /** RMS of each frame's samples (see SpectrumFrame.rms). */
  rms: Float64Array;
  /** Σ f·|X(f)| / Σ |X(f)| in Hz; NaN for a frame without energy. */
  centroid: Float64Array;
  /** Lowest bin frequency (Hz) below and at which ROLLOFF_SHARE of the power lies; NaN without energy. */
  rolloff: Float64Array;
  /** Power through each of the MEL_BANDS mel filters, frame-major (count × MEL_BANDS). */
  mel: Float64Array;
}

/** The shared per-frame measures of a mono clip. */
export function spectralFrames(mono: Float32Array, sampleRate: number): SpectralFrames {
  const { frames: count, fftSize } = stftLayout(mono.length, sampleRate);
  const filters = melFilterbank(sampleRate, fftSize);
  const binHz = sampleRate / fftSize;
  const out: SpectralFrames = {
    count,
    sampleRate,
    rms: new Float64Array(count),
    centroid: new Float64Array(count),
    rolloff: new Float64Array(count),
    mel: new Float64Array(count * MEL_BANDS),
  };
  forEachSpectrum(mono, sampleRate, ({ power, rms }, f) => {
    out.rms[f] = rms;
    let total = 0;
    let magnitudeSum = 0;
    let weighted = 0;
    for (let k = 0; k < power.length; k++) {
      const magnitude = Math.sqrt(power[k]!);
      total += power[k]!;
      magnitudeSum += magnitude;
      weighted += k * magnitude;
    }
    if (total > 0) {
      out.centroid[f] = (weighted / magnitudeSum) * binHz;
      let cumulative = power[0]!;
      let k = 0;
      while (k < power.length - 1 && cumulative < ROLLOFF_SHARE * total) cumulative += power[++k]!;
      out.rolloff[f] = k * binHz;
    } else {
      out.centroid[f] = Number.NaN;
      out.rolloff[f] = Number.NaN;
    }
    for (let m = 0; m < MEL_BANDS; m++) {
      const { first, weights } = filters[m]!;
      let energy = 0;
      for (let j = 0; j < weights.length; j++) energy += weights[j]! * power[first + j]!;
      out.mel[f * MEL_BANDS + m] = energy;
    }
  });
  return out;
}

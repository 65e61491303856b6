// Short-time spectra of a mono signal (Hann window, 25 ms frames, 10 ms hop), shared by the audio
// statistics and the audio descriptor.

import { createRealFft, hannWindow, nextPowerOfTwo } from './fft.js';

/** STFT frame length and hop, the usual speech/audio-tagging choice. */
export const STFT_FRAME_SECONDS = 0.025;
export const STFT_HOP_SECONDS = 0.01;

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
  const frameLength = Math.max(1, Math.round(sampleRate * STFT_FRAME_SECONDS));
  const hop = Math.max(1, Math.round(sampleRate * STFT_HOP_SECONDS));
  const frames = length <= frameLength ? 1 : 1 + Math.ceil((length - frameLength) / hop);
  return { frameLength, hop, fftSize: nextPowerOfTwo(frameLength), frames };
}

/** Calls `visit` for each frame; `frame.power` is reused between calls. */
export function forEachSpectrum(
  mono: Float32Array,
  sampleRate: number,
  visit: (frame: SpectrumFrame, index: number) => void,
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

/** Throws an Error naming the problem for an empty channel list, unequal lengths or a bad rate. */
export function assertAudio(channels: readonly Float32Array[], sampleRate: number): void {
  if (channels.length < 1) throw new Error('Audio needs at least one channel');
  if (!(sampleRate > 0) || !Number.isFinite(sampleRate)) {
    throw new Error(`Audio sample rate must be positive, got ${sampleRate}`);
  }
  const n = channels[0]!.length;
  if (channels.some((c) => c.length !== n))
    throw new Error('Audio channels must have equal lengths');
}

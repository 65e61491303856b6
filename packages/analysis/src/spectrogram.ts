// A spectrogram picture of a clip, for previews of audio items (grid cards, filmstrip, dataset
// cards): log-frequency rows, decibel colour on a perceptually even dark-to-bright ramp.
import { assertAudio, forEachSpectrum, mixToMono, stftLayout } from './stft.js';
import type { RawImage } from './raster.js';

/** Decibels below the clip's loudest bin that map to black. */
export const SPECTROGRAM_RANGE_DB = 80;
const LOWEST_HZ = 40;

// Anchor colours of a dark-blue → violet → orange → pale-yellow ramp (in the spirit of "magma").
const RAMP: [number, number, number][] = [
  [0, 0, 4],
  [40, 11, 84],
  [101, 21, 110],
  [159, 42, 99],
  [212, 72, 66],
  [245, 125, 21],
  [250, 193, 39],
  [252, 253, 191],
];

function ramp(t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, t)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(x));
  const f = x - i;
  const a = RAMP[i]!;
  const b = RAMP[i + 1]!;
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

/**
 * An RGB image `width`×`height`: x is time (frames resampled to the width), y is frequency on a
 * log scale from 40 Hz (bottom) to Nyquist (top); colour is power in dB relative to the maximum.
 */
export function spectrogramImage(
  channels: readonly Float32Array[],
  sampleRate: number,
  width = 512,
  height = 256,
): RawImage {
  assertAudio(channels, sampleRate);
  const mono = mixToMono(channels);
  const { frames, fftSize } = stftLayout(mono.length, sampleRate);
  // Column x shows frame ⌊x·frames/width⌋: only those frames are transformed, and no spectrum is
  // kept, so an hour-long clip costs `width` transforms and no more memory than a short one.
  const frameOfColumn = Int32Array.from({ length: width }, (_, x) =>
    Math.min(frames - 1, Math.floor((x * frames) / width)),
  );
  const nyquist = sampleRate / 2;
  const low = Math.min(LOWEST_HZ, nyquist / 2);
  // Row r covers the frequency band around low·(nyquist/low)^(r/height), bottom row lowest.
  const binOfRow = new Float64Array(height + 1);
  for (let r = 0; r <= height; r++)
    binOfRow[r] = (low * Math.pow(nyquist / low, r / height) * fftSize) / sampleRate;
  const db = new Float32Array(width * height);
  const column = new Float64Array(height);
  let max = -Infinity;
  let x = 0;
  forEachSpectrum(
    mono,
    sampleRate,
    ({ power }, f) => {
      for (let r = 0; r < height; r++) {
        const from = Math.floor(binOfRow[r]!);
        const to = Math.max(from + 1, Math.ceil(binOfRow[r + 1]!));
        let peak = 0;
        for (let k = from; k < to && k < power.length; k++) peak = Math.max(peak, power[k]!);
        column[r] = 10 * Math.log10(peak + 1e-20);
        if (column[r]! > max) max = column[r]!;
      }
      for (; x < width && frameOfColumn[x] === f; x++)
        for (let r = 0; r < height; r++) db[(height - 1 - r) * width + x] = column[r]!;
    },
    (f) => x < width && frameOfColumn[x] === f,
  );
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < db.length; i++) {
    const [r, g, b] = ramp(1 - (max - db[i]!) / SPECTROGRAM_RANGE_DB);
    data[i * 3] = r;
    data[i * 3 + 1] = g;
    data[i * 3 + 2] = b;
  }
  return { data, width, height, channels: 3 };
}

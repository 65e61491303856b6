import { describe, expect, it } from 'vitest';
import { analyzeAudio, analyzeImage } from '../media.js';
import type { RawImage } from '../raster.js';
import { syntheticImage, syntheticTone } from '../synthetic.js';
import {
  AUDIO_QUALITY_DEFAULTS as AUDIO,
  IMAGE_QUALITY_DEFAULTS as IMAGE,
  aboveThreshold,
  atOrAboveThreshold,
  belowThreshold,
  durationOutOfRange,
  durationUpperFence,
  grayscaleAmongColour,
  oddAspectRatio,
  oddSize,
  tooQuiet,
  trueValues,
} from './quality.js';

/** Mean over a (2r + 1)² window, edges clamped, per channel. */
function boxBlur(image: RawImage, r: number): RawImage {
  const { width: w, height: h, channels } = image;
  const out = new Uint8Array(image.data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (let dy = -r; dy <= r; dy++) {
          for (let dx = -r; dx <= r; dx++) {
            const yy = Math.min(h - 1, Math.max(0, y + dy));
            const xx = Math.min(w - 1, Math.max(0, x + dx));
            sum += image.data[(yy * w + xx) * channels + c]!;
          }
        }
        out[(y * w + x) * channels + c] = Math.round(sum / (2 * r + 1) ** 2);
      }
    }
  }
  return { ...image, data: out };
}

function scaled(image: RawImage, factor: number, offset = 0): RawImage {
  return { ...image, data: image.data.map((v) => Math.min(255, Math.round(v * factor + offset))) };
}

function grey(image: RawImage): RawImage {
  const data = new Uint8Array(image.data.length);
  for (let p = 0; p < data.length; p += 3) {
    const v = Math.round(
      0.299 * image.data[p]! + 0.587 * image.data[p + 1]! + 0.114 * image.data[p + 2]!,
    );
    data[p] = data[p + 1] = data[p + 2] = v;
  }
  return { ...image, data };
}

const verdictsOf = (v: Int8Array) => Array.from(v);

describe('image quality on measured synthetic images', () => {
  const images = [1, 2, 3, 4].map((seed) => syntheticImage(seed, 160, 120, { noise: 6 }));
  const measure = (list: RawImage[]) => list.map((image) => analyzeImage(image).statistics);

  it('flags darkened and brightened images only', () => {
    const stats = measure([
      images[0]!,
      scaled(images[1]!, 0.15),
      scaled(images[2]!, 0.3, 235),
      images[3]!,
    ]);
    const brightness = Float64Array.from(stats, (s) => s.brightness);
    expect(verdictsOf(belowThreshold(brightness, IMAGE.darkBrightness))).toEqual([0, 1, 0, 0]);
    expect(verdictsOf(aboveThreshold(brightness, IMAGE.brightBrightness))).toEqual([0, 0, 1, 0]);
  });

  it('flags 3 × 3 and 5 × 5 box-blurred images as blurry, not the sharp ones', () => {
    const stats = measure([images[0]!, boxBlur(images[1]!, 1), images[2]!, boxBlur(images[3]!, 2)]);
    const sharpness = Float64Array.from(stats, (s) => s.sharpness);
    expect(verdictsOf(belowThreshold(sharpness, IMAGE.blurrySharpness))).toEqual([0, 1, 0, 1]);
  });

  it('flags a flat image as low-information', () => {
    const flat = scaled(images[0]!, 0.02, 120);
    const contrast = Float64Array.from(measure([flat, images[1]!]), (s) => s.contrast);
    expect(verdictsOf(belowThreshold(contrast, IMAGE.lowContrast))).toEqual([1, 0]);
  });

  it('flags a grey image among colour images, and none in a grey dataset', () => {
    const colour = measure([...images, grey(images[0]!)]).map((s) => s.colorfulness);
    expect(verdictsOf(grayscaleAmongColour(Float64Array.from(colour)))).toEqual([0, 0, 0, 0, 1]);
    const allGrey = measure(images.map(grey)).map((s) => s.colorfulness);
    expect(verdictsOf(grayscaleAmongColour(Float64Array.from(allGrey)))).toEqual([0, 0, 0, 0]);
  });
});

describe('image quality on metadata values', () => {
  it('flags aspect ratios far from the median or beyond 1:4', () => {
    // Median log ratio ln(4/3); spread floored at 0.1, so z = 4 allows ×e^0.4 ≈ 1.49 either way.
    const ratios = Float64Array.from([4 / 3, 4 / 3, 4 / 3, 4 / 3, 1.9, 2.1, 0.75, NaN]);
    expect(verdictsOf(oddAspectRatio(ratios))).toEqual([0, 0, 0, 0, 0, 1, 1, -1]);
    // Wide spread: only the absolute bound flags.
    const spreadOut = Float64Array.from([0.5, 1, 2, 3, 0.6, 4.5]);
    expect(verdictsOf(oddAspectRatio(spreadOut))).toEqual([0, 0, 0, 0, 0, 1]);
  });

  it('flags a side under 32 px and pixel counts ×4 off the median (robust spread floored)', () => {
    const width = Float64Array.from([640, 640, 640, 640, 1300, 1200, 300, 640, 20]);
    const height = Float64Array.from([480, 480, 480, 480, 1000, 950, 240, 480, 480]);
    // Median 640 × 480; ×4 is 1 228 800 px: 1300 × 1000 exceeds it, 1200 × 950 does not;
    // 300 × 240 is ×0.23 (more than 4 times smaller); 20 px is below the smallest side.
    expect(verdictsOf(oddSize(width, height))).toEqual([0, 0, 0, 0, 1, 0, 1, 0, 1]);
  });

  it('reads corrupt flags, missing values unchecked', () => {
    expect(verdictsOf(trueValues(Int8Array.from([1, 0, -1])))).toEqual([1, 0, -1]);
    expect(verdictsOf(belowThreshold(Float64Array.from([NaN, 0.01]), 0.12))).toEqual([-1, 1]);
  });
});

describe('audio quality', () => {
  const rate = 16_000;
  const analyze = (clip: Float32Array) => analyzeAudio([clip], rate).statistics;

  it('flags silent and clipped clips measured on synthetic tones', () => {
    const normal = syntheticTone(1, rate, 1);
    const silent = syntheticTone(2, rate, 1, { amplitude: 0, noise: 0.001 });
    const clipped = syntheticTone(3, rate, 1).map((v) => Math.max(-1, Math.min(1, 4 * v)));
    // Clipping on a few peaks only: just above 0.1 % of samples at full scale.
    const grazed = syntheticTone(4, rate, 1, { amplitude: 1, noise: 0 });
    const peak = grazed.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    const touched = grazed.map((v) => Math.max(-1, Math.min(1, (v / peak) * 1.0004)));
    const stats = [normal, silent, clipped, touched].map(analyze);
    const silence = Float64Array.from(stats, (s) => s.silence_fraction);
    const clipping = Float64Array.from(stats, (s) => s.clipped_fraction);
    expect(verdictsOf(atOrAboveThreshold(silence, AUDIO.silentFraction))).toEqual([0, 1, 0, 0]);
    expect(verdictsOf(atOrAboveThreshold(clipping, AUDIO.clippedFraction))).toEqual([0, 0, 1, 1]);
    expect(stats[3]!.clipped_fraction).toBeLessThan(0.01);
  });

  it('flags a quiet clip with a short burst as too quiet, not a silent one', () => {
    // 0.9 s of hiss at −66 dBFS, then a 0.1 s tone: RMS ≈ −46 dBFS, 10 % of frames above −40.
    const quiet = syntheticTone(5, rate, 1, { amplitude: 0, noise: 0.0005 });
    const burst = syntheticTone(6, rate, 0.1, { amplitude: 0.04, noise: 0 });
    quiet.set(burst, quiet.length - burst.length);
    const silent = syntheticTone(7, rate, 1, { amplitude: 0, noise: 0.0005 });
    const stats = [quiet, silent, syntheticTone(8, rate, 1)].map(analyze);
    const rms = Float64Array.from(stats, (s) => s.rms_dbfs);
    const silence = Float64Array.from(stats, (s) => s.silence_fraction);
    expect(stats[0]!.rms_dbfs).toBeLessThan(AUDIO.quietDbfs);
    expect(verdictsOf(tooQuiet(rms, silence))).toEqual([1, 0, 0]);
  });

  it('flags clips shorter than 0.5 s or beyond the upper fence', () => {
    // Quartiles 2 and 3 s (IQR 1): fence 3 + 3 · 1 = 6 s.
    const duration = Float64Array.from([2, 2, 2, 2.5, 3, 3, 3, 0.4, 6.5, NaN]);
    expect(durationUpperFence(duration)).toBeCloseTo(6, 10);
    expect(verdictsOf(durationOutOfRange(duration))).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 1, -1]);
    expect(verdictsOf(durationOutOfRange(duration, 1, 2.5))).toEqual([
      0, 0, 0, 0, 1, 1, 1, 1, 1, -1,
    ]);
    // Equal lengths: the IQR is floored at a tenth of the median (fence 1 + 0.3 s).
    const equal = Float64Array.from([1, 1, 1, 1, 1, 1, 1.4]);
    expect(durationUpperFence(equal)).toBeCloseTo(1.3, 10);
  });
});

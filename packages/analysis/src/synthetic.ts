// Procedural media for demos, benchmarks and tests: images of coloured shapes with their true
// boxes, and class-dependent chords. Deterministic for a given seed.

import { createRandom } from './random.js';

export interface SyntheticObject {
  label: string;
  /** COCO box [x, y, width, height] in pixels, of the whole shape (it may be partly covered). */
  bbox: [number, number, number, number];
  shape: 'rectangle' | 'circle';
}

export interface SyntheticImage {
  /** RGB, interleaved, row-major. */
  data: Uint8Array;
  width: number;
  height: number;
  channels: 3;
  objects: SyntheticObject[];
}

export interface SyntheticImageOptions {
  /** Class names; class i is drawn with its own hue, rectangles for even i, circles for odd i. */
  labels?: readonly string[];
  /** Number of objects, inclusive range. Default 1–4. */
  minObjects?: number;
  maxObjects?: number;
  /** Standard deviation of the background's Gaussian pixel noise (0–255). Default 12. */
  noise?: number;
}

export const DEFAULT_SYNTHETIC_LABELS: readonly string[] = ['square', 'circle'];

/** RGB of class `index` of `count`: hues evenly spread around the wheel, saturation 0.85, value 1. */
function classColor(index: number, count: number): [number, number, number] {
  const hue = (index * 360) / Math.max(1, count);
  const f = (n: number) => {
    const k = (n + hue / 60) % 6;
    return Math.round(255 * (1 - 0.85 * Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return [f(5), f(3), f(1)];
}

/**
 * An RGB image of `minObjects`–`maxObjects` shapes on a noisy grey gradient, and their boxes and
 * labels. Shapes are between 1/8 and 1/2 of the shorter side; the label picks colour and shape.
 */
export function syntheticImage(
  seed: number,
  width: number,
  height: number,
  options: SyntheticImageOptions = {},
): SyntheticImage {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 8 || height < 8) {
    throw new Error(`Synthetic images need integer sizes of at least 8×8, got ${width}×${height}`);
  }
  const labels = options.labels ?? DEFAULT_SYNTHETIC_LABELS;
  if (labels.length === 0) throw new Error('Synthetic images need at least one label');
  const random = createRandom(seed);
  const minObjects = options.minObjects ?? 1;
  const maxObjects = Math.max(minObjects, options.maxObjects ?? 4);
  const noise = options.noise ?? 12;
  const data = new Uint8Array(width * height * 3);

  // Background: a random-direction grey gradient, so images differ beyond their shapes.
  const base = 60 + random.next() * 120;
  const gx = (random.next() - 0.5) * 80;
  const gy = (random.next() - 0.5) * 80;
  for (let y = 0, p = 0; y < height; y++) {
    for (let x = 0; x < width; x++, p += 3) {
      const v = base + (gx * x) / width + (gy * y) / height;
      for (let c = 0; c < 3; c++) data[p + c] = clampByte(v + noise * random.normal());
    }
  }

  const objects: SyntheticObject[] = [];
  const count = random.int(minObjects, maxObjects);
  const shorter = Math.min(width, height);
  for (let n = 0; n < count; n++) {
    const classIndex = random.int(0, labels.length - 1);
    const shape = classIndex % 2 === 0 ? 'rectangle' : 'circle';
    const color = classColor(classIndex, labels.length);
    const size = () => Math.max(2, Math.round(shorter * (0.125 + random.next() * 0.375)));
    const w = size();
    const h = shape === 'circle' ? w : size();
    const x0 = random.int(0, width - w);
    const y0 = random.int(0, height - h);
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) {
        if (shape === 'circle') {
          const dx = x + 0.5 - (x0 + w / 2);
          const dy = y + 0.5 - (y0 + h / 2);
          if (dx * dx + dy * dy > (w / 2) * (w / 2)) continue;
        }
        const p = (y * width + x) * 3;
        for (let c = 0; c < 3; c++)
          data[p + c] = clampByte(color[c]! + 0.25 * noise * random.normal());
      }
    }
    objects.push({ label: labels[classIndex]!, bbox: [x0, y0, w, h], shape });
  }
  return { data, width, height, channels: 3, objects };
}

function clampByte(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}

export interface SyntheticToneOptions {
  /** Class index: picks the chord's root, 220 Hz · 2^(classIndex·5/12) (steps of a fourth). */
  classIndex?: number;
  /** Peak amplitude of the chord before noise. Default 0.5. */
  amplitude?: number;
  /** Standard deviation of added white noise, linear full scale. Default 0.01. */
  noise?: number;
}

/**
 * A major triad (root, major third, fifth) whose root depends on the class, with seed-dependent
 * detune (±1 %), phases and noise, and 10 ms fades at both ends so it does not click.
 */
export function syntheticTone(
  seed: number,
  sampleRate: number,
  seconds: number,
  options: SyntheticToneOptions = {},
): Float32Array {
  if (!(sampleRate > 0) || !(seconds >= 0)) {
    throw new Error(`Synthetic tones need sampleRate > 0 and seconds ≥ 0`);
  }
  const random = createRandom(seed);
  const root =
    220 * 2 ** (((options.classIndex ?? 0) * 5) / 12) * (1 + (random.next() - 0.5) * 0.02);
  const partials = [1, 5 / 4, 3 / 2].map((ratio) => ({
    frequency: root * ratio,
    phase: random.next() * 2 * Math.PI,
  }));
  const amplitude = (options.amplitude ?? 0.5) / partials.length;
  const noise = options.noise ?? 0.01;
  const n = Math.round(sampleRate * seconds);
  const fade = Math.max(1, Math.round(sampleRate * 0.01));
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate;
    let v = 0;
    for (const { frequency, phase } of partials) v += Math.sin(2 * Math.PI * frequency * t + phase);
    const envelope = Math.min(1, i / fade, (n - 1 - i) / fade);
    out[i] = amplitude * envelope * v + noise * random.normal();
  }
  return out;
}

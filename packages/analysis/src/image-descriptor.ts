// Model-free image descriptor: a fixed-length unit vector (colour histogram + HOG-like gradient
// histograms) that stands in for learned embeddings when a dataset comes without features.

import {
  assertRawImage,
  THUMBNAIL_SIZE,
  thumbnail,
  type RawImage,
  type Thumbnail,
} from './raster.js';

/** The image is area-resampled to this square first, so the vector ignores resolution. */
const WORK = THUMBNAIL_SIZE;
const HUE_BINS = 8;
const SAT_BINS = 2;
const VAL_BINS = 3;
const GREY_BINS = 4;
/** Pixels below this saturation or value have no reliable hue and count as grey. */
const MIN_SATURATION = 0.2;
const MIN_VALUE = 0.15;
const COLOR_DIMENSION = HUE_BINS * SAT_BINS * VAL_BINS + GREY_BINS;
const GRID = 4;
const ORIENTATION_BINS = 9;
const GRADIENT_DIMENSION = GRID * GRID * ORIENTATION_BINS;
/** Gradients weaker than this (0–255 luma per pixel) are rounding noise, not edges. */
const MIN_GRADIENT = 0.5;

/** Length of imageDescriptor's vector: 52 colour bins + 4×4 cells × 9 orientations = 196. */
export const IMAGE_DESCRIPTOR_DIMENSION = COLOR_DIMENSION + GRADIENT_DIMENSION;

/**
 * Unit-length descriptor of an image, compared with cosine similarity (= dot product).
 * The image is area-resampled to 64×64, then two blocks are concatenated, each weighted 1/√2:
 * - colour: HSV histogram, 8 hues (soft, circular) × 2 saturations × 3 values for coloured pixels
 *   plus 4 value bins for grey pixels (saturation < 0.2 or value < 0.15);
 * - shape: on a 4×4 grid of cells, histograms of unsigned gradient orientation (9 bins over
 *   0–180°, soft) weighted by gradient magnitude (central differences of Rec. 601 luma).
 * Each block is normalised to sum 1 and square-rooted (Hellinger mapping, so the dot product is
 * the Bhattacharyya coefficient). A block with no mass (no edges in a flat image) is dropped and
 * the rest rescaled to unit length.
 */
export function imageDescriptor(image: RawImage): Float32Array {
  assertRawImage(image);
  return imageDescriptorFromThumbnail(thumbnail(image));
}

/** imageDescriptor from the shared 64×64 thumbnail. */
export function imageDescriptorFromThumbnail({ r, g, b, y }: Thumbnail): Float32Array {
  const color = new Float64Array(COLOR_DIMENSION);
  for (let i = 0; i < WORK * WORK; i++) addColor(color, r[i]!, g[i]!, b[i]!);

  const gradient = new Float64Array(GRADIENT_DIMENSION);
  const cell = WORK / GRID;
  for (let row = 1; row < WORK - 1; row++) {
    const cellRow = Math.floor(row / cell);
    for (let col = 1; col < WORK - 1; col++) {
      const i = row * WORK + col;
      const gx = y[i + 1]! - y[i - 1]!;
      const gy = y[i + WORK]! - y[i - WORK]!;
      const magnitude = Math.hypot(gx, gy);
      if (magnitude < MIN_GRADIENT) continue;
      let angle = Math.atan2(gy, gx);
      if (angle < 0) angle += Math.PI;
      const position = (angle / Math.PI) * ORIENTATION_BINS - 0.5;
      const base = (cellRow * GRID + Math.floor(col / cell)) * ORIENTATION_BINS;
      softBin(gradient, base, ORIENTATION_BINS, position, magnitude);
    }
  }

  const out = new Float32Array(IMAGE_DESCRIPTOR_DIMENSION);
  const hasColor = hellinger(color);
  const hasGradient = hellinger(gradient);
  const weight = 1 / Math.sqrt((hasColor ? 1 : 0) + (hasGradient ? 1 : 0) || 1);
  for (let i = 0; i < COLOR_DIMENSION; i++) out[i] = color[i]! * weight;
  for (let i = 0; i < GRADIENT_DIMENSION; i++) out[COLOR_DIMENSION + i] = gradient[i]! * weight;
  return out;
}

function addColor(hist: Float64Array, r: number, g: number, b: number): void {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const value = max / 255;
  const saturation = max > 0 ? (max - min) / max : 0;
  if (saturation < MIN_SATURATION || value < MIN_VALUE) {
    hist[
      HUE_BINS * SAT_BINS * VAL_BINS + Math.min(GREY_BINS - 1, Math.floor(value * GREY_BINS))
    ]! += 1;
    return;
  }
  const chroma = max - min;
  let hue: number; // 0..6
  if (max === r) hue = (g - b) / chroma + (g < b ? 6 : 0);
  else if (max === g) hue = (b - r) / chroma + 2;
  else hue = (r - g) / chroma + 4;
  const s = saturation < 0.55 ? 0 : 1;
  const v = Math.min(VAL_BINS - 1, Math.floor(((value - MIN_VALUE) / (1 - MIN_VALUE)) * VAL_BINS));
  const base = (s * VAL_BINS + v) * HUE_BINS;
  softBin(hist, base, HUE_BINS, (hue / 6) * HUE_BINS - 0.5, 1);
}

/** Splits `weight` between the two circular bins nearest to the fractional bin `position`. */
function softBin(
  hist: Float64Array,
  base: number,
  bins: number,
  position: number,
  weight: number,
): void {
  const lower = Math.floor(position);
  const fraction = position - lower;
  const first = ((lower % bins) + bins) % bins;
  const second = (first + 1) % bins;
  hist[base + first]! += weight * (1 - fraction);
  hist[base + second]! += weight * fraction;
}

/** In place: normalise to sum 1, then square-root. Returns false (leaving zeros) when empty. */
function hellinger(hist: Float64Array): boolean {
  let sum = 0;
  for (let i = 0; i < hist.length; i++) sum += hist[i]!;
  if (!(sum > 0)) {
    hist.fill(0);
    return false;
  }
  for (let i = 0; i < hist.length; i++) hist[i] = Math.sqrt(hist[i]! / sum);
  return true;
}

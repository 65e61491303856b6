// Per-image quality statistics for the dataset metadata: brightness, contrast, sharpness and
// colourfulness, computed from decoded pixels (alpha ignored).

import { assertRawImage, luma, type RawImage } from './raster.js';

export interface ImageStatistics {
  width: number;
  height: number;
  /** width / height. */
  aspectRatio: number;
  /** Mean Rec. 601 luma divided by 255: 0 = black, 1 = white. */
  brightness: number;
  /** RMS contrast: population standard deviation of luma divided by 255 (0 to 0.5). */
  contrast: number;
  /**
   * Variance of the 4-neighbour Laplacian ([0 1 0; 1 −4 1; 0 1 0]) of luma on the 0–255 scale,
   * over interior pixels (OpenCV's `Laplacian(ksize=1).var()`). Low = blurry; the customary
   * "blurry" threshold is about 100. 0 for images narrower or shorter than 3 pixels.
   */
  sharpness: number;
  /**
   * Hasler & Süsstrunk (2003) colourfulness on 0–255 RGB: rg = R − G, yb = (R + G)/2 − B,
   * C = √(σ_rg² + σ_yb²) + 0.3·√(μ_rg² + μ_yb²). 0 for grey images; ≈ 33 "moderately",
   * ≈ 59 "quite", ≥ 82 "highly" colourful in their scale.
   */
  colorfulness: number;
}

/** width / height of an image (or any box); throws when height is not positive. */
export function aspectRatio(width: number, height: number): number {
  if (!(height > 0) || !(width >= 0)) {
    throw new Error(`Aspect ratio needs width ≥ 0 and height > 0, got ${width}×${height}`);
  }
  return width / height;
}

/** Brightness, contrast, sharpness and colourfulness of an image (see ImageStatistics). */
export function imageStatistics(image: RawImage): ImageStatistics {
  assertRawImage(image);
  return imageStatisticsFromLuma(image, luma(image));
}

/** imageStatistics with the luma plane already computed (shared with the hash and descriptor). */
export function imageStatisticsFromLuma(image: RawImage, y: Float32Array): ImageStatistics {
  const { width, height } = image;
  const n = width * height;
  let sum = 0;
  let sumSq = 0;
  for (let i = 0; i < n; i++) {
    const v = y[i]!;
    sum += v;
    sumSq += v * v;
  }
  const mean = sum / n;
  const variance = Math.max(0, sumSq / n - mean * mean);
  return {
    width,
    height,
    aspectRatio: width / height,
    brightness: mean / 255,
    contrast: Math.sqrt(variance) / 255,
    sharpness: laplacianVariance(y, width, height),
    colorfulness: colorfulness(image),
  };
}

function laplacianVariance(y: Float32Array, width: number, height: number): number {
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumSq = 0;
  for (let r = 1; r < height - 1; r++) {
    const row = r * width;
    for (let c = 1; c < width - 1; c++) {
      const i = row + c;
      const lap = y[i - 1]! + y[i + 1]! + y[i - width]! + y[i + width]! - 4 * y[i]!;
      sum += lap;
      sumSq += lap * lap;
    }
  }
  const count = (width - 2) * (height - 2);
  const mean = sum / count;
  return Math.max(0, sumSq / count - mean * mean);
}

function colorfulness(image: RawImage): number {
  const { data, width, height, channels } = image;
  if (channels === 1) return 0;
  const n = width * height;
  let sRg = 0;
  let sRg2 = 0;
  let sYb = 0;
  let sYb2 = 0;
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const r = data[p]!;
    const g = data[p + 1]!;
    const rg = r - g;
    const yb = 0.5 * (r + g) - data[p + 2]!;
    sRg += rg;
    sRg2 += rg * rg;
    sYb += yb;
    sYb2 += yb * yb;
  }
  const mRg = sRg / n;
  const mYb = sYb / n;
  const varRg = Math.max(0, sRg2 / n - mRg * mRg);
  const varYb = Math.max(0, sYb2 / n - mYb * mYb);
  return Math.sqrt(varRg + varYb) + 0.3 * Math.sqrt(mRg * mRg + mYb * mYb);
}

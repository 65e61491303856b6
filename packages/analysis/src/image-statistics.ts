// Per-image quality statistics for the dataset metadata: brightness, contrast, sharpness and
// colourfulness, computed from decoded pixels (alpha ignored).

import { assertRawImage, LUMA_WEIGHTS, type RawImage } from './raster.js';

export interface ImageStatistics {
  width: number;
  height: number;
  /** width / height. */
  aspect_ratio: number;
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
  const { data, width, height, channels } = image;
  const n = width * height;
  // One pass over the pixels: luma of three rows is kept to take the Laplacian of the middle one.
  const rows = [new Float64Array(width), new Float64Array(width), new Float64Array(width)];
  let sum = 0;
  let sumSq = 0;
  let lapSum = 0;
  let lapSumSq = 0;
  let sRg = 0;
  let sRg2 = 0;
  let sYb = 0;
  let sYb2 = 0;
  for (let y = 0; y < height; y++) {
    const current = rows[y % 3]!;
    let p = y * width * channels;
    if (channels === 1) {
      for (let x = 0; x < width; x++, p++) {
        const v = data[p]!;
        current[x] = v;
        sum += v;
        sumSq += v * v;
      }
    } else {
      for (let x = 0; x < width; x++, p += channels) {
        const r = data[p]!;
        const g = data[p + 1]!;
        const b = data[p + 2]!;
        const v = LUMA_WEIGHTS.r * r + LUMA_WEIGHTS.g * g + LUMA_WEIGHTS.b * b;
        current[x] = v;
        sum += v;
        sumSq += v * v;
        const rg = r - g;
        const yb = 0.5 * (r + g) - b;
        sRg += rg;
        sRg2 += rg * rg;
        sYb += yb;
        sYb2 += yb * yb;
      }
    }
    if (y >= 2 && width >= 3) {
      const above = rows[(y - 2) % 3]!;
      const middle = rows[(y - 1) % 3]!;
      for (let x = 1; x < width - 1; x++) {
        const lap = middle[x - 1]! + middle[x + 1]! + above[x]! + current[x]! - 4 * middle[x]!;
        lapSum += lap;
        lapSumSq += lap * lap;
      }
    }
  }
  const mean = sum / n;
  const interior = (width - 2) * (height - 2);
  const lapMean = interior > 0 ? lapSum / interior : 0;
  const mRg = sRg / n;
  const mYb = sYb / n;
  return {
    width,
    height,
    aspect_ratio: width / height,
    brightness: mean / 255,
    contrast: Math.sqrt(variance(sumSq / n, mean)) / 255,
    sharpness: width >= 3 && height >= 3 ? variance(lapSumSq / interior, lapMean) : 0,
    colorfulness:
      channels === 1
        ? 0
        : Math.sqrt(variance(sRg2 / n, mRg) + variance(sYb2 / n, mYb)) +
          0.3 * Math.sqrt(mRg * mRg + mYb * mYb),
  };
}

/** E[x²] − E[x]², clamped at 0 against rounding. */
function variance(meanOfSquares: number, mean: number): number {
  return Math.max(0, meanOfSquares - mean * mean);
}

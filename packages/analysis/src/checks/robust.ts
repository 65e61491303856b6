// Robust location and spread for the health checks' data-relative thresholds (outliers, unusual
// aspect ratios and sizes, long clips): medians and quartiles, not means, so the items being
// looked for cannot move the threshold much.

/** 1.4826 · MAD estimates the standard deviation of normal data. */
const MAD_TO_SD = 1.4826;
/** √(π/2) · mean absolute deviation estimates it too, when more than half the values are equal. */
const MEAN_AD_TO_SD = 1.2533;

/** The finite values of `values`, ascending. */
function sortedFinite(values: ArrayLike<number>): Float64Array {
  const out = new Float64Array(values.length);
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    if (Number.isFinite(values[i]!)) out[count++] = values[i]!;
  }
  return out.subarray(0, count).sort();
}

/** Linear-interpolated quantile (0 ≤ p ≤ 1) of ascending values; NaN when empty. */
function quantileOfSorted(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const at = p * (sorted.length - 1);
  const lower = Math.floor(at);
  const upper = Math.min(sorted.length - 1, lower + 1);
  return sorted[lower]! + (at - lower) * (sorted[upper]! - sorted[lower]!);
}

/** Quantile of the finite values (NaN and ±Infinity ignored); NaN when there are none. */
export function quantile(values: ArrayLike<number>, p: number): number {
  return quantileOfSorted(sortedFinite(values), p);
}

export function median(values: ArrayLike<number>): number {
  return quantile(values, 0.5);
}

export interface RobustSpread {
  median: number;
  /**
   * Robust standard deviation: 1.4826 · median absolute deviation; when that is 0 (more than
   * half the values equal), 1.2533 · mean absolute deviation from the median (Iglewicz &
   * Hoaglin's modified z-score); 0 when all values are equal, NaN when there are none.
   */
  spread: number;
}

/** Median and robust standard deviation of the finite values (see RobustSpread.spread). */
export function robustSpread(values: ArrayLike<number>): RobustSpread {
  return spreadOf(values, true);
}

/**
 * Median and 1.4826 · MAD only (0 when more than half the values are equal): for callers that
 * floor the spread themselves, where the mean-deviation fallback would let the few unequal
 * values (the ones looked for) widen their own threshold.
 */
export function madSpread(values: ArrayLike<number>): RobustSpread {
  return spreadOf(values, false);
}

function spreadOf(values: ArrayLike<number>, meanFallback: boolean): RobustSpread {
  const sorted = sortedFinite(values);
  const middle = quantileOfSorted(sorted, 0.5);
  if (sorted.length === 0) return { median: NaN, spread: NaN };
  const deviations = new Float64Array(sorted.length);
  let sum = 0;
  for (let i = 0; i < sorted.length; i++) {
    deviations[i] = Math.abs(sorted[i]! - middle);
    sum += deviations[i]!;
  }
  const mad = quantileOfSorted(deviations.sort(), 0.5);
  const spread = mad > 0 || !meanFallback ? MAD_TO_SD * mad : (MEAN_AD_TO_SD * sum) / sorted.length;
  return { median: middle, spread };
}

/** Tukey's outer fence Q3 + 3 · IQR of the finite values (NaN when there are none). */
export function upperFence(values: ArrayLike<number>, minimumIqr = 0): number {
  const sorted = sortedFinite(values);
  const q1 = quantileOfSorted(sorted, 0.25);
  const q3 = quantileOfSorted(sorted, 0.75);
  return q3 + 3 * Math.max(q3 - q1, minimumIqr);
}

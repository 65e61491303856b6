// Equal-width histograms for the fine-grained distributions (regression errors, per-utterance
// WER, per-image IoU): bin centres and counts, NaN skipped.

export interface HistogramOptions {
  /** Lower bound of the first bin; smaller values count in the first bin. */
  min: number;
  /** Upper bound of the last bin (inclusive); larger values count in the last bin. */
  max: number;
  /** Number of equal-width bins over [min, max]. */
  bins: number;
  /**
   * Add one more bin of the same width starting at max that takes every value ≥ max (e.g. WER
   * ≥ 1); max itself then falls in that bin rather than in the last regular one.
   */
  overflow?: boolean;
}

export interface Histogram {
  /** Bin centres (the overflow bin's centre is max + width / 2). */
  centres: Float64Array;
  counts: Float64Array;
}

/** Counts the finite values of `values` per bin. */
export function histogram(values: ArrayLike<number>, options: HistogramOptions): Histogram {
  const { min, max, bins } = options;
  if (!Number.isInteger(bins) || bins < 1) {
    throw new RangeError(`bins must be a positive integer, got ${bins}`);
  }
  if (!(max > min)) throw new RangeError(`histogram range [${min}, ${max}] is empty`);
  const overflow = options.overflow ?? false;
  const total = bins + (overflow ? 1 : 0);
  const width = (max - min) / bins;
  // Scale by bins / (max − min) rather than divide by the width: for [0, 1] in 20 bins, 0.95
  // then lands in bin 19 (0.95 / 0.05 is 18.999…).
  const scale = bins / (max - min);
  const counts = new Float64Array(total);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    let b: number;
    if (v >= max) b = overflow ? bins : bins - 1;
    else if (v <= min) b = 0;
    else b = Math.min(bins - 1, Math.floor((v - min) * scale));
    counts[b]!++;
  }
  const centres = new Float64Array(total);
  for (let b = 0; b < total; b++) centres[b] = min + (b + 0.5) * width;
  return { centres, counts };
}

/** The histogram as [centre, count] points. */
export function histogramPoints(h: Histogram): [number, number][] {
  return Array.from(h.centres, (centre, b) => [centre, h.counts[b]!]);
}

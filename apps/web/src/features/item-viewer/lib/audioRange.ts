// The audio viewer's visible-duration slider (docs/product.md, Datasets §9): 0.1 to 11.48 s in steps of
// 0.1, the dataset's shortest and longest clip overriding the bounds, and never longer than the
// clip on screen: the window shown is the window the readout names.

export const VISIBLE_DURATION_MIN = 0.1;
export const VISIBLE_DURATION_MAX = 11.48;
export const VISIBLE_DURATION_STEP = 0.1;

export interface DurationBounds {
  min: number;
  max: number;
  initial: number;
}

export function visibleDurationBounds(dataset: {
  min_duration?: number;
  max_duration?: number;
  default_duration?: number;
}): DurationBounds {
  const max =
    dataset.max_duration !== undefined && dataset.max_duration > 0
      ? dataset.max_duration
      : VISIBLE_DURATION_MAX;
  let min =
    dataset.min_duration !== undefined && dataset.min_duration > 0
      ? dataset.min_duration
      : VISIBLE_DURATION_MIN;
  // Clips of one length would leave no range: keep the slider usable down to 0.1 s.
  if (min >= max) min = Math.min(VISIBLE_DURATION_MIN, max);
  const wanted = dataset.default_duration ?? max;
  return { min, max, initial: Math.min(max, Math.max(min, wanted)) };
}

/**
 * The slider's bounds for one clip: the dataset's, with the top cut to the clip's length (a window
 * longer than the clip would draw the whole clip while naming a longer time). `clipDuration` of 0
 * or less means not known yet: the dataset's bounds stand.
 */
export function clipDurationBounds(dataset: DurationBounds, clipDuration: number): DurationBounds {
  if (!(clipDuration > 0) || clipDuration >= dataset.max) return dataset;
  const max = clipDuration;
  // The dataset's shortest clip, or shorter: as for clips of one length, keep zooming possible.
  const min = dataset.min < max ? dataset.min : Math.min(VISIBLE_DURATION_MIN, max);
  return { min, max, initial: Math.min(max, Math.max(min, dataset.initial)) };
}

/** The window actually shown for the slider's `chosen` value: inside the clip's bounds. */
export function shownDuration(bounds: DurationBounds, chosen: number): number {
  return Math.min(bounds.max, Math.max(bounds.min, chosen));
}

/** Min and max sample per pixel column of the samples in [start, end) seconds. */
export function peaksForWindow(
  samples: Float32Array,
  sampleRate: number,
  start: number,
  end: number,
  columns: number,
): Float32Array {
  const out = new Float32Array(columns * 2);
  const first = start * sampleRate;
  const perColumn = ((end - start) * sampleRate) / columns;
  for (let c = 0; c < columns; c++) {
    const from = Math.max(0, Math.floor(first + c * perColumn));
    const to = Math.min(
      samples.length,
      Math.max(from + 1, Math.floor(first + (c + 1) * perColumn)),
    );
    let lo = 0;
    let hi = 0;
    for (let i = from; i < to; i++) {
      const v = samples[i]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    out[c * 2] = lo;
    out[c * 2 + 1] = hi;
  }
  return out;
}

// Class balance from labels and splits (docs/health-checks.md, "Balance"): class counts per
// split, skewed classes within a split, label distributions that differ between splits, and
// classes with too few items in a split.

export const BALANCE_DEFAULTS = {
  /** A split is imbalanced when its smallest class count / largest is below this. */
  imbalanceRatio: 0.1,
  /** A split's labels have shifted when their total variation distance to the reference split's exceeds this. */
  maxLabelShift: 0.1,
  /** A class with fewer items than this in a split is rare there. */
  minClassCount: 10,
} as const;

export interface ClassCounts {
  splitCount: number;
  classCount: number;
  /** splitCount × classCount, row-major: items of each class in each split. */
  counts: Int32Array;
  /** Items per split (with a label). */
  splitTotals: Int32Array;
  /** Items per class over every split. */
  classTotals: Int32Array;
}

/** Counts items with a label (≥ 0) and a split (≥ 0) by split and class. */
export function classCountsPerSplit(
  label: Int32Array,
  split: Int32Array,
  classCount: number,
  splitCount: number,
): ClassCounts {
  if (label.length !== split.length) throw new Error('label and split must have the same length');
  const counts = new Int32Array(splitCount * classCount);
  const splitTotals = new Int32Array(splitCount);
  const classTotals = new Int32Array(classCount);
  for (let i = 0; i < label.length; i++) {
    const c = label[i]!;
    const s = split[i]!;
    if (c < 0 || s < 0 || c >= classCount || s >= splitCount) continue;
    counts[s * classCount + c]!++;
    splitTotals[s]!++;
    classTotals[c]!++;
  }
  return { splitCount, classCount, counts, splitTotals, classTotals };
}

export interface SplitImbalance {
  split: number;
  /** Smallest and largest count among the classes the split has (count > 0). */
  smallest: number;
  largest: number;
  /** smallest / largest (1 for a split without items). */
  ratio: number;
  imbalanced: boolean;
  /** Classes below ratio · largest in an imbalanced split. */
  minorityClasses: number[];
}

/**
 * Per split, the ratio of its smallest to its largest class count among the classes it has (a
 * class it lacks is rareClasses' finding, not a skew). Imbalanced below `minRatio`.
 */
export function classImbalance(
  counts: ClassCounts,
  minRatio: number = BALANCE_DEFAULTS.imbalanceRatio,
): SplitImbalance[] {
  const out: SplitImbalance[] = [];
  for (let s = 0; s < counts.splitCount; s++) {
    const row = counts.counts.subarray(s * counts.classCount, (s + 1) * counts.classCount);
    let smallest = Infinity;
    let largest = 0;
    for (const count of row) {
      if (count === 0) continue;
      smallest = Math.min(smallest, count);
      largest = Math.max(largest, count);
    }
    if (largest === 0) {
      out.push({
        split: s,
        smallest: 0,
        largest: 0,
        ratio: 1,
        imbalanced: false,
        minorityClasses: [],
      });
      continue;
    }
    const ratio = smallest / largest;
    const imbalanced = ratio < minRatio;
    const minorityClasses: number[] = [];
    if (imbalanced) {
      row.forEach((count, c) => {
        if (count > 0 && count < minRatio * largest) minorityClasses.push(c);
      });
    }
    out.push({ split: s, smallest, largest, ratio, imbalanced, minorityClasses });
  }
  return out;
}

export interface LabelShift {
  split: number;
  /** Total variation distance between the split's label distribution and the reference's. */
  distance: number;
  shifted: boolean;
  /** Share of each class in the split minus its share in the reference split. */
  shareDifference: Float64Array;
}

/**
 * The reference split of the label shift: the one named 'train' (any case), else the one with
 * the most labelled items (the first on a tie); −1 when no split has any.
 */
export function referenceSplit(counts: ClassCounts, splitNames: readonly string[]): number {
  const train = splitNames.findIndex(
    (name, s) => name.toLowerCase() === 'train' && (counts.splitTotals[s] ?? 0) > 0,
  );
  if (train >= 0) return train;
  let best = -1;
  for (let s = 0; s < counts.splitCount; s++) {
    if (
      counts.splitTotals[s]! > 0 &&
      (best < 0 || counts.splitTotals[s]! > counts.splitTotals[best]!)
    ) {
      best = s;
    }
  }
  return best;
}

/**
 * Per split other than the reference (and with labelled items), the total variation distance
 * ½ Σ_c |p_split(c) − p_reference(c)| of the label distributions; shifted above maxDistance.
 */
export function labelShift(
  counts: ClassCounts,
  reference: number,
  maxDistance: number = BALANCE_DEFAULTS.maxLabelShift,
): LabelShift[] {
  const out: LabelShift[] = [];
  if (reference < 0) return out;
  const { classCount } = counts;
  const share = (s: number, c: number) =>
    counts.counts[s * classCount + c]! / counts.splitTotals[s]!;
  for (let s = 0; s < counts.splitCount; s++) {
    if (s === reference || counts.splitTotals[s] === 0) continue;
    const shareDifference = new Float64Array(classCount);
    let sum = 0;
    for (let c = 0; c < classCount; c++) {
      shareDifference[c] = share(s, c) - share(reference, c);
      sum += Math.abs(shareDifference[c]!);
    }
    const distance = sum / 2;
    out.push({ split: s, distance, shifted: distance > maxDistance, shareDifference });
  }
  return out;
}

export interface RareClass {
  split: number;
  class: number;
  count: number;
}

/**
 * Classes with fewer than minCount items in a split that has labelled items, 0 included when the
 * class has items in another split; in split then class order.
 */
export function rareClasses(
  counts: ClassCounts,
  minCount: number = BALANCE_DEFAULTS.minClassCount,
): RareClass[] {
  const out: RareClass[] = [];
  for (let s = 0; s < counts.splitCount; s++) {
    if (counts.splitTotals[s] === 0) continue;
    for (let c = 0; c < counts.classCount; c++) {
      if (counts.classTotals[c] === 0) continue;
      const count = counts.counts[s * counts.classCount + c]!;
      if (count < minCount) out.push({ split: s, class: c, count });
    }
  }
  return out;
}

// A comparison section (per sample, mask, ground-truth or predicted object) from its per-item
// columns: category counts, subcategories, and distributions of the per-item difference B − A.
import {
  CATEGORY,
  COMPARISON_CATEGORIES,
  OBJECT_SUBCATEGORIES,
  SUBCATEGORY_CATEGORY,
} from './categories.js';
import type {
  CategoryCount,
  ComparisonDistribution,
  ComparisonSection,
  DistributionType,
  ObjectSubcategory,
  SectionItems,
  SubcategoryResult,
} from './types.js';

/** Odd, so that "no difference" (0) is the middle of a bin rather than an edge. */
export const DISTRIBUTION_BINS = 21;
/** An item whose difference is undefined is in no bin. */
export const NO_BIN = 255;

const X_LABELS: Record<DistributionType, string> = {
  confidence: 'Confidence, Model B − Model A',
  error: 'Absolute error, Model B − Model A',
  iou: 'IoU, Model B − Model A',
  word_error_rate: 'Word error rate, Model B − Model A',
  match_error_rate: 'Match error rate, Model B − Model A',
};

/** What a section's distribution shows and how it is labelled. */
export interface DistributionSpec {
  type: DistributionType;
  y_label: string;
  /** Overrides the type's x label. */
  x_label?: string;
}

/**
 * Differences are binned over [−R, R], symmetric so that the middle bin holds "equal" and
 * swapping A and B mirrors the bins: R = 1 for confidences, IoUs and error rates (a WER
 * difference beyond ±1 counts in the edge bin), the largest |difference| for regression errors.
 */
function rangeOf(type: DistributionType, delta: Float64Array): number {
  if (type !== 'error') return 1;
  let max = 0;
  for (let t = 0; t < delta.length; t++) {
    const v = Math.abs(delta[t]!);
    if (v > max && Number.isFinite(v)) max = v;
  }
  return max > 0 ? max : 1;
}

/**
 * Bin of each item's value (NO_BIN where undefined), over [−range, range]. The middle bin is
 * centred on 0 and bins are placed by |value|, so a value on an edge counts in the bin further
 * from 0 whatever its sign: −v is always in the mirror bin of v.
 */
function binColumn(range: number, delta: Float64Array): Uint8Array {
  const B = DISTRIBUTION_BINS;
  const middle = (B - 1) / 2;
  const scale = B / (2 * range);
  const out = new Uint8Array(delta.length);
  for (let t = 0; t < delta.length; t++) {
    const v = delta[t]!;
    if (!Number.isFinite(v)) {
      out[t] = NO_BIN;
      continue;
    }
    const away = Math.min(middle, Math.floor(Math.abs(v) * scale + 0.5));
    out[t] = v < 0 ? middle - away : middle + away;
  }
  return out;
}

/** Histogram, mean and population std of the items at `positions` (all when null). */
function distributionOf(
  spec: DistributionSpec,
  range: number,
  items: SectionItems,
  positions: Uint32Array | null,
): ComparisonDistribution {
  const B = DISTRIBUTION_BINS;
  const { delta, bin } = items;
  const counts = new Float64Array(B);
  let n = 0;
  let sum = 0;
  let sumSquares = 0;
  const m = positions ? positions.length : delta.length;
  for (let j = 0; j < m; j++) {
    const t = positions ? positions[j]! : j;
    const b = bin![t]!;
    if (b === NO_BIN) continue;
    const v = delta[t]!;
    n++;
    sum += v;
    sumSquares += v * v;
    counts[b]!++;
  }
  const mean = n === 0 ? null : sum / n;
  return {
    type: spec.type,
    bins: Array.from(counts, (value, b) => ({
      start: -range + (b * 2 * range) / B,
      end: -range + ((b + 1) * 2 * range) / B,
      value,
    })),
    x_label: spec.x_label ?? X_LABELS[spec.type],
    y_label: spec.y_label,
    mean,
    std: mean === null ? null : Math.sqrt(Math.max(0, sumSquares / n - mean * mean)),
    explore_config: null,
  };
}

const count = (n: number, total: number): CategoryCount => ({
  num_items: n,
  fraction_of_total_items: total === 0 ? 0 : n / total,
});

/**
 * The section of the given items. `subcategories` lists the ones the section has (object
 * sections; every one appears, with 0 items if need be).
 */
export function sectionResult(
  items: SectionItems,
  spec: DistributionSpec,
  subcategories: readonly ObjectSubcategory[] = [],
): ComparisonSection {
  const total = items.category.length;
  const perCategory = new Float64Array(COMPARISON_CATEGORIES.length);
  for (let t = 0; t < total; t++) perCategory[items.category[t]!]!++;
  const range = rangeOf(spec.type, items.delta);
  items.bin = binColumn(range, items.delta);
  const out: Partial<Record<ObjectSubcategory, SubcategoryResult>> = {};
  if (subcategories.length > 0) {
    const column = items.subcategory!;
    const perSubcategory = OBJECT_SUBCATEGORIES.map(() => [] as number[]);
    for (let t = 0; t < total; t++) perSubcategory[column[t]!]!.push(t);
    for (const id of subcategories) {
      const positions = Uint32Array.from(perSubcategory[OBJECT_SUBCATEGORIES.indexOf(id)]!);
      out[id] = {
        category: SUBCATEGORY_CATEGORY[id],
        ...count(positions.length, total),
        distribution: distributionOf(spec, range, items, positions),
      };
    }
  }
  return {
    unit: items.unit,
    num_items: total,
    model_a_is_better: count(perCategory[CATEGORY.aBetter]!, total),
    both_are_problematic: count(perCategory[CATEGORY.problematic]!, total),
    both_are_neutral: count(perCategory[CATEGORY.neutral]!, total),
    model_b_is_better: count(perCategory[CATEGORY.bBetter]!, total),
    subcategories: out,
    distribution: distributionOf(spec, range, items, null),
  };
}

export interface ItemSelection {
  category?: (typeof COMPARISON_CATEGORIES)[number];
  subcategory?: ObjectSubcategory;
  /** Index of a bin of the section's distribution (the same bins in its subcategories). */
  bin?: number;
}

/**
 * Positions of the section's items in a category, subcategory and/or distribution bin: the
 * items an explore link of that bar opens.
 */
export function selectSectionItems(items: SectionItems, selection: ItemSelection): Uint32Array {
  const category = selection.category ? COMPARISON_CATEGORIES.indexOf(selection.category) : -1;
  const subcategory = selection.subcategory
    ? OBJECT_SUBCATEGORIES.indexOf(selection.subcategory)
    : -1;
  if (subcategory >= 0 && !items.subcategory) return new Uint32Array(0);
  const bin = selection.bin ?? -1;
  const out: number[] = [];
  for (let t = 0; t < items.category.length; t++) {
    if (category >= 0 && items.category[t] !== category) continue;
    if (subcategory >= 0 && items.subcategory![t] !== subcategory) continue;
    if (bin >= 0 && items.bin![t] !== bin) continue;
    out.push(t);
  }
  return Uint32Array.from(out);
}

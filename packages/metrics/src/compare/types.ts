// Shapes of a comparison of two models, structurally equal to the contracts' ComparisonResult
// (explore configs are null here: the server builds them from the items), plus the per-item
// columns the server turns into explore links.
import type { TaskType } from '../catalogue.js';
import type { MetricValue } from '../report/index.js';
import type { COMPARISON_CATEGORIES, OBJECT_SUBCATEGORIES } from './categories.js';

/** In the page's sort order. */
export type ComparisonCategory = (typeof COMPARISON_CATEGORIES)[number];

export type BetterModel = 'model_a_is_better' | 'model_b_is_better';

export type ObjectSubcategory = (typeof OBJECT_SUBCATEGORIES)[number];

export interface MetricDelta {
  model_a: MetricValue;
  model_b: MetricValue;
  /** B − A. */
  raw_delta: MetricValue;
  /** (B − A) / |A| × 100. */
  relative_delta: MetricValue;
  better: BetterModel | null;
}

export type DistributionType =
  'confidence' | 'error' | 'iou' | 'word_error_rate' | 'match_error_rate';

export interface DistributionBin {
  start: number;
  end: number;
  value: number;
}

export interface ComparisonDistribution {
  type: DistributionType;
  bins: DistributionBin[];
  x_label: string;
  y_label: string;
  mean: number | null;
  std: number | null;
  explore_config: null;
}

export interface CategoryCount {
  num_items: number;
  fraction_of_total_items: number;
}

export interface SubcategoryResult extends CategoryCount {
  category: ComparisonCategory;
  distribution: ComparisonDistribution;
}

export type ComparisonUnit = 'sample' | 'mask' | 'ground_truth_object' | 'predicted_object';

export interface ComparisonSection {
  unit: ComparisonUnit;
  num_items: number;
  model_a_is_better: CategoryCount;
  both_are_problematic: CategoryCount;
  both_are_neutral: CategoryCount;
  model_b_is_better: CategoryCount;
  subcategories: Partial<Record<ObjectSubcategory, SubcategoryResult>>;
  distribution: ComparisonDistribution;
}

export interface EntityDelta {
  entity: string;
  model_a: number;
  model_b: number;
  raw_delta: number;
  explore_config: null;
}

export interface EntityBreakdown {
  entity: 'class' | 'word';
  metric: string;
  num_entities: number;
  model_a_is_better: EntityDelta[];
  both_are_problematic: EntityDelta[];
  both_are_neutral: EntityDelta[];
  model_b_is_better: EntityDelta[];
}

export interface ComparisonResult {
  task: TaskType;
  metric: string;
  regression_value_name: string | null;
  iou_threshold: number | null;
  overall: Record<string, MetricDelta>;
  other_metrics: Record<string, MetricDelta> | null;
  per_class: EntityBreakdown | null;
  per_class_unavailable: boolean;
  per_word: EntityBreakdown | null;
  per_sample: ComparisonSection | null;
  per_object_gt: ComparisonSection | null;
  per_object_pred: ComparisonSection | null;
}

/**
 * One section's items, column by column (item t is position t of every column), in sample
 * order: what the server needs to build the explore link of a category, subcategory or bin.
 */
export interface SectionItems {
  unit: ComparisonUnit;
  /** Sample index of each item (the image of an object or a mask). */
  sample: Uint32Array;
  /** per_object_gt: the ground-truth object's index (the same in both models' data). */
  groundTruth: Int32Array | null;
  /** Semantic segmentation: the class of the ground-truth mask. */
  maskClass: Int32Array | null;
  /** per_object_pred: the prediction's index in A's (B's) data; −1 where that model has none. */
  predictionA: Int32Array | null;
  predictionB: Int32Array | null;
  /** Index into COMPARISON_CATEGORIES. */
  category: Uint8Array;
  /** Object sections: index into OBJECT_SUBCATEGORIES. */
  subcategory: Uint8Array | null;
  /** The distribution's value (B − A); NaN where it is undefined. */
  delta: Float64Array;
  /** The item's bin of the section's distribution (255: none); filled with the section. */
  bin: Uint8Array | null;
}

export interface ComparisonItems {
  per_sample: SectionItems | null;
  per_object_gt: SectionItems | null;
  per_object_pred: SectionItems | null;
}

export interface ModelComparison {
  result: ComparisonResult;
  items: ComparisonItems;
}

export interface CompareOptions {
  /** The active comparison metric: one of COMPARISON_METRICS[task]. */
  metric: string;
  /** IoU at which objects match (object tasks; ignored otherwise). */
  iouThreshold: number;
  /** Regression: the value name compared; every value name when absent. */
  valueName?: string | null;
}

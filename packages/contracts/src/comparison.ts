// Comparing two models on the wire (docs/metrics.md, "Comparing two models"): which model is
// better on each comparison metric, per class or word, per sample, per ground-truth and per
// predicted object (with the item-level subcategories), and the texts of the comparison page.
import { z } from 'zod';
import { Subset } from './curation.js';
import { TaskType } from './datasets.js';
import { ALL_SPLITS, ComputeStatus, ExploreConfig, MetricValue } from './performance.js';

/**
 * The four comparison categories, in the page's sort order. These ids and the object
 * subcategories below are owned here; @loupe/metrics keeps a copy for its item codes (neither
 * package imports the other), checked by apps/server/src/performance/comparison-vocabulary.test.ts.
 */
export const COMPARISON_CATEGORIES = [
  'model_a_is_better',
  'both_are_problematic',
  'both_are_neutral',
  'model_b_is_better',
] as const;
export const ComparisonCategory = z.enum(COMPARISON_CATEGORIES).meta({ id: 'ComparisonCategory' });
export type ComparisonCategory = z.infer<typeof ComparisonCategory>;

/** Which model wins a metric (equal scores: A, as the rule of the desired direction says). */
export const BetterModel = z.enum(['model_a_is_better', 'model_b_is_better']);
export type BetterModel = z.infer<typeof BetterModel>;

/** Tasks whose breakdowns never call both models problematic: three segments on the page. */
export const THREE_SEGMENT_TASKS: readonly TaskType[] = [
  'regression',
  'automatic_speech_recognition',
];

/** The categories a task's breakdowns show, in sort order. */
export function comparisonSegments(task: TaskType): readonly ComparisonCategory[] {
  return THREE_SEGMENT_TASKS.includes(task)
    ? COMPARISON_CATEGORIES.filter((c) => c !== 'both_are_problematic')
    : COMPARISON_CATEGORIES;
}

const CORRECT_LABELS = {
  model_a_is_better: 'Model A is better',
  model_b_is_better: 'Model B is better',
  both_are_neutral: 'Both are correct',
  both_are_problematic: 'Both are incorrect',
} as const satisfies Record<ComparisonCategory, string>;
const EQUAL_LABELS = {
  model_a_is_better: 'Model A is better',
  model_b_is_better: 'Model B is better',
  both_are_neutral: 'Both are equal',
  both_are_problematic: 'Both are zero',
} as const satisfies Record<ComparisonCategory, string>;

/**
 * Category labels per task. Speech recognition is not named by the product; its breakdowns
 * compare error rates like regression's, so it reads 'Both are equal' too.
 */
export const COMPARISON_CATEGORY_LABELS: Readonly<
  Record<TaskType, Readonly<Record<ComparisonCategory, string>>>
> = {
  classification: CORRECT_LABELS,
  audio_classification: CORRECT_LABELS,
  object_detection: CORRECT_LABELS,
  instance_segmentation: CORRECT_LABELS,
  regression: EQUAL_LABELS,
  semantic_segmentation: EQUAL_LABELS,
  automatic_speech_recognition: EQUAL_LABELS,
};

/**
 * Item-level subcategories of the object tasks: tp true positive, fn false negative, fp false
 * positive, unmatched = the other model has no prediction there (suppressed).
 */
export const OBJECT_SUBCATEGORIES = [
  'tp_a_fn_b',
  'fn_a_tp_b',
  'fn_a_fn_b',
  'tp_a_tp_b',
  'unmatched_a_fp_b',
  'tp_a_unmatched_b',
  'tp_a_fp_b',
  'fp_a_unmatched_b',
  'unmatched_a_tp_b',
  'fp_a_tp_b',
  'fp_a_fp_b',
] as const;
export const ObjectSubcategory = z.enum(OBJECT_SUBCATEGORIES).meta({ id: 'ObjectSubcategory' });
export type ObjectSubcategory = z.infer<typeof ObjectSubcategory>;

/** Subcategories of each ground-truth object. */
export const GROUND_TRUTH_SUBCATEGORIES = [
  'tp_a_fn_b',
  'fn_a_tp_b',
  'fn_a_fn_b',
  'tp_a_tp_b',
] as const satisfies readonly ObjectSubcategory[];

/** Subcategories of each pair of predictions (or lone prediction) of the two models. */
export const PREDICTION_SUBCATEGORIES = [
  'tp_a_tp_b',
  'tp_a_fp_b',
  'fp_a_tp_b',
  'fp_a_fp_b',
  'tp_a_unmatched_b',
  'unmatched_a_tp_b',
  'unmatched_a_fp_b',
  'fp_a_unmatched_b',
] as const satisfies readonly ObjectSubcategory[];

/** The category each subcategory counts in. */
export const OBJECT_SUBCATEGORY_CATEGORY: Readonly<Record<ObjectSubcategory, ComparisonCategory>> =
  {
    tp_a_fn_b: 'model_a_is_better',
    fn_a_tp_b: 'model_b_is_better',
    fn_a_fn_b: 'both_are_problematic',
    tp_a_tp_b: 'both_are_neutral',
    tp_a_fp_b: 'model_a_is_better',
    fp_a_tp_b: 'model_b_is_better',
    fp_a_fp_b: 'both_are_problematic',
    tp_a_unmatched_b: 'model_a_is_better',
    unmatched_a_tp_b: 'model_b_is_better',
    unmatched_a_fp_b: 'model_a_is_better',
    fp_a_unmatched_b: 'model_b_is_better',
  };

/**
 * Which models' items a subcategory's explore links open: a model without a prediction there
 * (unmatched) has nothing to show, so only the other one's link appears.
 */
export const OBJECT_SUBCATEGORY_EXPLORE: Readonly<
  Record<ObjectSubcategory, 'model_a' | 'model_b' | 'both'>
> = {
  tp_a_fn_b: 'both',
  fn_a_tp_b: 'both',
  fn_a_fn_b: 'both',
  tp_a_tp_b: 'both',
  tp_a_fp_b: 'both',
  fp_a_tp_b: 'both',
  fp_a_fp_b: 'both',
  tp_a_unmatched_b: 'model_a',
  unmatched_a_tp_b: 'model_b',
  unmatched_a_fp_b: 'model_b',
  fp_a_unmatched_b: 'model_a',
};

/** Bins of every comparison distribution: odd, so that "no difference" has a bin of its own. */
export const COMPARISON_DISTRIBUTION_BINS = 21;

export const COMPARISON_MESSAGES = {
  modelNotFound: (id: string) => `Model with the identifier "${id}" was not found`,
  failedToLoad: 'Unable to load model comparison',
  subsetsFailedToLoad: 'Subset performance comparison failed to load',
  computing:
    'The comparison of the two models is being computed. This page updates by itself when it is ready.',
  failed: 'Computing the comparison failed.',
  sameModel: 'Model A and model B must be two different models.',
  chooseModelB: 'Choose a model to compare with',
  noOtherModels: 'No models available',
  exploreModelA: 'Explore items for Model A',
  exploreModelB: 'Explore items for Model B',
  viewObjects: 'View objects',
  perEntityTitle: (entity: string) => `Per ${entity} breakdown`,
  perEntityHelp: (entity: string) =>
    `For each ${entity}, see which model performs better and by how much`,
  summary: (aBetter: number, bBetter: number) =>
    `Model A is better on ${aBetter} items, Model B is better on ${bBetter} items`,
  perClassDisabledTitle: 'Per class breakdown',
  accuracyDisabled: 'Per-class breakdown is not available for "Accuracy"',
  accuracyDisabledHint: "It's available for all other metrics",
  howToRead: 'How to read the plot?',
  improvementSource: 'Where does the model improvement come from?',
  /** The five-bar legend of 'Where does the model improvement come from?', A side first. */
  improvementLegend: [
    'Model A improves on all items',
    'Model A improves on most items',
    'Model A and model B are roughly equal',
    'Model B improves on most items',
    'Model B improves on all items',
  ],
} as const;

const PredictionsId = (field: string) =>
  z.uuid(`${field} must be a prediction set id (UUID)`).describe('A prediction set (model) id');

export const ComparisonRequest = z
  .object({
    predictions_id_a: PredictionsId('predictions_id_a'),
    predictions_id_b: PredictionsId('predictions_id_b'),
    metric: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe("A comparison metric of the task; the task's first when absent"),
    split: z.string().min(1).max(200).default(ALL_SPLITS),
    regression_value_name: z
      .string()
      .min(1)
      .max(300)
      .optional()
      .describe('Regression: the value name to compare; every value name (averaged) when absent'),
  })
  .meta({ id: 'ComparisonRequest' });
export type ComparisonRequest = z.input<typeof ComparisonRequest>;

/** One metric of both models; deltas are B − A (relative: a percentage of |A|). */
export const MetricDelta = z
  .object({
    model_a: MetricValue,
    model_b: MetricValue,
    raw_delta: MetricValue,
    relative_delta: MetricValue.describe('(B − A) / |A| × 100; null when A is 0 or undefined'),
    better: BetterModel.nullable().describe('By the metric’s desired direction; null if undefined'),
  })
  .meta({ id: 'MetricDelta' });
export type MetricDelta = z.infer<typeof MetricDelta>;

/**
 * The explorer's per-item columns while a comparison is its context (the request's
 * `comparison`, ExploreComparison in explore.ts): the item's category and (object levels)
 * subcategory in the comparison, its difference B − A and the index of its bin in the section's
 * distribution; null for items outside the compared split or section. Semantic segmentation
 * compares masks, so a sample holds the categories of its masks, sorted and joined by ','.
 */
export const COMPARISON_FIELDS = {
  category: 'comparison.category',
  subcategory: 'comparison.subcategory',
  delta: 'comparison.delta',
  bin: 'comparison.bin',
  categories: 'comparison.categories',
} as const;

/** The comparison an explore link opens the explorer in (the explore request's `comparison`). */
export const ComparisonContext = z
  .object({
    predictions_id_a: z.string(),
    predictions_id_b: z.string(),
    split: z.string(),
    metric: z.string(),
    regression_value_name: z.string().nullable(),
  })
  .meta({ id: 'ComparisonContext' });
export type ComparisonContext = z.infer<typeof ComparisonContext>;

/**
 * An explore link of the comparison page: open the explorer of model A or model B (the link
 * says which) at `data_level` with `filter`, `sort_by` and `visible_metadata_ids`, and the
 * comparison `context` sent with every explore request so the filter's comparison fields exist.
 */
export const ComparisonExploreConfig = ExploreConfig.extend({
  bin_metadata_id: z
    .string()
    .nullable()
    .describe(
      "Distributions: the numeric field holding each item's bin index; a click on bin i adds the filter {type: 'numeric', metadata_id: bin_metadata_id, op: 'between', value: [i, i]}",
    ),
  context: ComparisonContext,
}).meta({ id: 'ComparisonExploreConfig' });
export type ComparisonExploreConfig = z.infer<typeof ComparisonExploreConfig>;

/** The per-item quantity a distribution counts (its difference B − A). */
export const DistributionType = z.enum([
  'confidence',
  'error',
  'iou',
  'word_error_rate',
  'match_error_rate',
]);
export type DistributionType = z.infer<typeof DistributionType>;

/**
 * Bins are equal-width over [−R, R], the middle one centred on 0; a value on an edge counts in
 * the bin further from 0, values beyond ±R in the edge bins.
 */
export const DistributionBin = z.object({
  start: z.number(),
  end: z.number(),
  value: z.number().int().describe('Items in the bin'),
});
export type DistributionBin = z.infer<typeof DistributionBin>;

export const ComparisonDistribution = z
  .object({
    type: DistributionType,
    bins: z.array(DistributionBin),
    x_label: z.string(),
    y_label: z.string(),
    mean: z.number().nullable(),
    std: z.number().nullable().describe('Population standard deviation'),
    explore_config: ComparisonExploreConfig.nullable(),
  })
  .meta({ id: 'ComparisonDistribution' });
export type ComparisonDistribution = z.infer<typeof ComparisonDistribution>;

export const CategoryCount = z.object({
  num_items: z.number().int(),
  fraction_of_total_items: z.number().describe('Of the section’s items; 0 when it has none'),
  explore_config: ComparisonExploreConfig.nullable().describe(
    'The explorer showing exactly these items; null where the explorer cannot (no items)',
  ),
});
export type CategoryCount = z.infer<typeof CategoryCount>;

export const SubcategoryResult = CategoryCount.extend({
  category: ComparisonCategory,
  distribution: ComparisonDistribution,
});
export type SubcategoryResult = z.infer<typeof SubcategoryResult>;

/** What one item of a section is. */
export const ComparisonUnit = z.enum(['sample', 'mask', 'ground_truth_object', 'predicted_object']);
export type ComparisonUnit = z.infer<typeof ComparisonUnit>;

/** Per sample, per ground-truth mask, per ground-truth object or per predicted object. */
export const ComparisonSection = z
  .object({
    unit: ComparisonUnit,
    num_items: z.number().int(),
    model_a_is_better: CategoryCount,
    both_are_problematic: CategoryCount,
    both_are_neutral: CategoryCount,
    model_b_is_better: CategoryCount,
    subcategories: z
      .partialRecord(ObjectSubcategory, SubcategoryResult)
      .describe('Object sections: every subcategory of the section; otherwise empty'),
    distribution: ComparisonDistribution,
  })
  .meta({ id: 'ComparisonSection' });
export type ComparisonSection = z.infer<typeof ComparisonSection>;

export const EntityDelta = z.object({
  entity: z.string().describe('The class or word'),
  model_a: z.number(),
  model_b: z.number(),
  raw_delta: z.number().describe('B − A'),
  explore_config: ComparisonExploreConfig.nullable().describe(
    "Classes: the items of the class (ground truth or either model's prediction); null for words",
  ),
});
export type EntityDelta = z.infer<typeof EntityDelta>;

/** Entities per category; each list sorted by |raw_delta|, largest first (lists keep order). */
export const EntityBreakdown = z
  .object({
    entity: z.enum(['class', 'word']),
    metric: z.string().describe('The per-entity metric the active metric stands for'),
    num_entities: z.number().int(),
    model_a_is_better: z.array(EntityDelta),
    both_are_problematic: z.array(EntityDelta),
    both_are_neutral: z.array(EntityDelta),
    model_b_is_better: z.array(EntityDelta),
  })
  .meta({ id: 'EntityBreakdown' });
export type EntityBreakdown = z.infer<typeof EntityBreakdown>;

/** The comparison of two models on one split, as computed (sections the task lacks are null). */
export const ComparisonResult = z
  .object({
    task: TaskType,
    metric: z.string().describe('The active comparison metric'),
    regression_value_name: z.string().nullable(),
    iou_threshold: z.number().nullable().describe('Object tasks: the IoU the objects match at'),
    overall: z.record(z.string(), MetricDelta).describe('Every comparison metric of the task'),
    other_metrics: z
      .record(z.string(), MetricDelta)
      .nullable()
      .describe('The comparison metrics other than the active one; null without any'),
    per_class: EntityBreakdown.nullable(),
    per_class_unavailable: z
      .boolean()
      .describe('The task has a per-class view but the active metric (Accuracy) has none'),
    per_word: EntityBreakdown.nullable(),
    per_sample: ComparisonSection.nullable().describe(
      'Semantic segmentation: per ground-truth mask',
    ),
    per_object_gt: ComparisonSection.nullable(),
    per_object_pred: ComparisonSection.nullable(),
  })
  .meta({ id: 'ComparisonResult' });
export type ComparisonResult = z.infer<typeof ComparisonResult>;

/** The polled answer: while computing, overall is empty and every section null. */
export const ComparisonResponse = ComparisonResult.extend({
  status: ComputeStatus,
  progress: z.number().min(0).max(1),
  error: z.string().optional(),
  data_version: z.number().int(),
  predictions_id_a: z.string(),
  predictions_id_b: z.string(),
  split: z.string(),
}).meta({ id: 'ComparisonResponse' });
export type ComparisonResponse = z.infer<typeof ComparisonResponse>;

// No schema id: the OpenAPI generator inlines query parameters and cannot follow a reference.
export const SubsetsComparisonQuery = z.object({
  predictions_id_a: PredictionsId('predictions_id_a'),
  predictions_id_b: PredictionsId('predictions_id_b'),
  split: z.string().min(1).max(200).default(ALL_SPLITS),
});
export type SubsetsComparisonQuery = z.input<typeof SubsetsComparisonQuery>;

/** One subset metric of both models with the category it falls in (equal: both are neutral). */
export const SubsetMetricComparison = MetricDelta.extend({
  category: ComparisonCategory.nullable().describe('null when either value is undefined'),
});
export type SubsetMetricComparison = z.infer<typeof SubsetMetricComparison>;

export const SubsetComparisonEntry = z
  .object({
    comparison_per_metric: z.record(z.string(), SubsetMetricComparison),
    num_items_used: z
      .number()
      .int()
      .describe("The fewer of the two models' items with a prediction in the subset"),
    num_items_total: z.number().int(),
    metric_name: z.string().describe("The subset's chosen metric"),
    subset: Subset,
  })
  .meta({ id: 'SubsetComparisonEntry' });
export type SubsetComparisonEntry = z.infer<typeof SubsetComparisonEntry>;

/** Subsets enabled for performance that both models' report jobs have measured, in one split. */
export const SubsetsComparisonResponse = z
  .object({
    comparison_per_subset: z.record(z.string(), SubsetComparisonEntry),
    pending_subsets: z.array(z.string()).describe('Enabled subsets still computing for A or B'),
  })
  .meta({ id: 'SubsetsComparisonResponse' });
export type SubsetsComparisonResponse = z.infer<typeof SubsetsComparisonResponse>;

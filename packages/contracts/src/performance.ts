// Model performance on the wire (docs/model-performance.md): the report a job computes per
// prediction set (statistics and the per-entity table per split), the fine-grained curves, the
// performance of subsets, metadata performance per bin and the performance of a selection.
import { z } from 'zod';
import { boundedArray } from './bounded.js';
import { DataLevel } from './datasets.js';
import { ExploreComparison, Filter } from './explore.js';
import { Subset } from './curation.js';

/** The split that holds every item; listed first when the dataset has other splits. */
export const ALL_SPLITS = 'all';
/** Items a selection's performance may cover; above it the server answers 413. */
export const MAX_SELECTION_PERFORMANCE_ITEMS = 100_000;
/** Bins a continuous metadata field is cut into on the metadata performance chart. */
export const METADATA_PERFORMANCE_BINS = 20;

export const PERFORMANCE_MESSAGES = {
  tooManyItems: 'Too many items selected. Create a subset to view performance.',
  atLeastOneMetric: 'You must select at least one metric',
  noPredictions: 'This model has no predictions yet.',
  missingPredictions: (missing: number, total: number) =>
    `${missing} of ${total} items have no prediction from this model; they count as wrong predictions for classification and as missed objects for detection, and are left out otherwise.`,
  computing: 'Performance is being computed. This page updates by itself when it is ready.',
  failed: 'Computing the performance failed.',
} as const;

/** Where a job-computed result is: pages poll while 'computing'. */
export const ComputeStatus = z.enum(['computing', 'ready', 'failed']).meta({ id: 'ComputeStatus' });
export type ComputeStatus = z.infer<typeof ComputeStatus>;

const Computing = {
  status: ComputeStatus,
  progress: z.number().min(0).max(1).describe('Fraction done while computing; 1 when ready'),
  error: z.string().optional().describe('Why the computation failed, when status is failed'),
  data_version: z.number().int().describe('The data version the result was computed from'),
};

/** A metric's value; null when undefined (no items, no positives, a single class for ROC …). */
export const MetricValue = z.number().nullable();
export type MetricValue = z.infer<typeof MetricValue>;

export const SplitValue = z.object({ split_name: z.string(), value: MetricValue });
export type SplitValue = z.infer<typeof SplitValue>;

/** One statistic (a catalogue metric id) with its value in 'all' and each split. */
export const Statistic = z
  .object({ metric_name: z.string(), values: z.array(SplitValue) })
  .meta({ id: 'Statistic' });
export type Statistic = z.infer<typeof Statistic>;

export const StatisticsResponse = z
  .object({
    ...Computing,
    splits: z.array(z.string()).describe("'all' first, then the dataset's splits"),
    num_items: z.number().int().describe('Ground-truth items of the dataset'),
    num_missing: z.number().int().describe('Of those, items without a prediction of this model'),
    statistics: z.array(Statistic),
  })
  .meta({ id: 'StatisticsResponse' });
export type StatisticsResponse = z.infer<typeof StatisticsResponse>;

/** What the rows of the overall table are: classes, words (speech) or value names (regression). */
export const PrimaryKey = z.enum(['class', 'word', 'value_name']);
export type PrimaryKey = z.infer<typeof PrimaryKey>;

export const OverallRow = z.object({
  key: z.string().describe('The class, word or value name'),
  values: z.record(z.string(), MetricValue).describe('Metric id to value'),
});
export type OverallRow = z.infer<typeof OverallRow>;

export const OverallPerformanceResponse = z
  .object({
    ...Computing,
    primary_key: PrimaryKey,
    metrics: z.array(z.string()).describe('The metric ids every row has, in display order'),
    splits: z.array(z.object({ split_name: z.string(), rows: z.array(OverallRow) })),
  })
  .meta({ id: 'OverallPerformanceResponse' });
export type OverallPerformanceResponse = z.infer<typeof OverallPerformanceResponse>;

/** The kind of curve or distribution a fine-grained series is. */
export const FinegrainedKind = z.enum([
  'precision_recall',
  'roc',
  'error_distribution',
  'wer_distribution',
  'iou_distribution',
]);
export type FinegrainedKind = z.infer<typeof FinegrainedKind>;

export const Point = z.tuple([z.number(), z.number()]);
export const FinegrainedSeries = z.object({
  name: z.string().describe('Class, value name, or "average"'),
  values: z.array(Point),
  summary: z
    .object({ metric_name: z.string(), value: MetricValue })
    .nullable()
    .describe('The number the curve stands for: AP, AUC or EER, the mean error, the mean WER'),
});
export type FinegrainedSeries = z.infer<typeof FinegrainedSeries>;

export const FinegrainedPerformanceResponse = z
  .object({
    ...Computing,
    kind: FinegrainedKind,
    dimension_names: z.tuple([z.string(), z.string()]).describe('x and y axis names'),
    split_performance: z.array(
      z.object({
        split_name: z.string(),
        performance: z.array(FinegrainedSeries),
        average_performance: FinegrainedSeries.nullable(),
      }),
    ),
  })
  .meta({ id: 'FinegrainedPerformanceResponse' });
export type FinegrainedPerformanceResponse = z.infer<typeof FinegrainedPerformanceResponse>;

export const PerformanceSplitQuery = z.object({
  split: z.string().min(1).max(200).default(ALL_SPLITS),
});

export const SubsetPerformanceEntry = z
  .object({
    performance_per_metric: z.record(z.string(), MetricValue),
    num_items_used: z.number().int().describe('Items of the subset with a prediction'),
    num_items_total: z.number().int(),
    metric_name: z.string().describe("The subset's chosen metric"),
    subset: Subset,
  })
  .meta({ id: 'SubsetPerformanceEntry' });
export type SubsetPerformanceEntry = z.infer<typeof SubsetPerformanceEntry>;

export const SubsetsPerformanceResponse = z
  .object({
    performance_per_subset: z.record(z.string(), SubsetPerformanceEntry),
    pending_subsets: z.array(z.string()).describe('Enabled subsets still being computed'),
  })
  .meta({ id: 'SubsetsPerformanceResponse' });
export type SubsetsPerformanceResponse = z.infer<typeof SubsetsPerformanceResponse>;

export const SubsetPerformanceToggleRequest = z
  .object({
    request_type: z.enum(['enable', 'disable']).optional(),
    metric_name: z.string().min(1).max(100).optional(),
  })
  .refine((v) => v.request_type !== undefined || v.metric_name !== undefined, {
    message: 'give request_type or metric_name',
  })
  .meta({ id: 'SubsetPerformanceToggleRequest' });
export type SubsetPerformanceToggleRequest = z.input<typeof SubsetPerformanceToggleRequest>;

/** Where the explorer opens to show exactly a bin's (or an entity's) items. */
export const ExploreConfig = z
  .object({
    data_level: DataLevel,
    filter: Filter.nullable(),
    sort_by: z.string().nullable(),
    visible_metadata_ids: z.array(z.string()),
  })
  .meta({ id: 'ExploreConfig' });
export type ExploreConfig = z.infer<typeof ExploreConfig>;

export const MetadataPerformanceRequest = z
  .object({
    data_level: DataLevel,
    metadata_id: z.string().min(1).max(300),
    metrics: boundedArray(z.string().min(1).max(100), 20)
      .optional()
      .describe("Metric ids; the task's metadata metrics when absent"),
    max_num_bins: z.number().int().min(1).max(100).default(METADATA_PERFORMANCE_BINS),
  })
  .meta({ id: 'MetadataPerformanceRequest' });
export type MetadataPerformanceRequest = z.input<typeof MetadataPerformanceRequest>;

export const MetadataBinValue = z.object({
  split_name: z.string(),
  value: MetricValue,
  count: z.number().int().describe('Items of the bin and split the value is computed over'),
  explore_config: ExploreConfig,
});
export const MetadataPerformanceBin = z.object({
  bin: z.string().nullable().describe('The category (categorical); null for missing values'),
  bin_start: z.number().optional().describe('Continuous: lower bound, inclusive'),
  bin_end: z.number().optional().describe('Continuous: upper bound (inclusive for the last bin)'),
  counts: z.array(z.object({ split_name: z.string(), count: z.number().int() })),
  metrics: z.array(z.object({ metric_name: z.string(), values: z.array(MetadataBinValue) })),
});
export type MetadataPerformanceBin = z.infer<typeof MetadataPerformanceBin>;

export const MetadataPerformanceResponse = z
  .object({
    metadata_type: z.enum(['categorical', 'continuous']),
    metadata_id: z.string(),
    iou_threshold: z.number().nullable().describe('0.5 for object tasks, else null'),
    splits: z.array(z.string()),
    performance_per_bin: z.array(MetadataPerformanceBin),
  })
  .meta({ id: 'MetadataPerformanceResponse' });
export type MetadataPerformanceResponse = z.infer<typeof MetadataPerformanceResponse>;

export const ItemsSummaryRequest = z
  .object({
    data_level: DataLevel,
    item_ids: boundedArray(z.string().min(1).max(1100), MAX_SELECTION_PERFORMANCE_ITEMS + 1)
      .optional()
      .describe('The selection; absent: the filter (or everything)'),
    filter: Filter.nullable().optional(),
    subset_id: z.string().optional(),
    comparison: ExploreComparison.optional().describe(
      "The explorer's comparison of two models, whose per-item fields the filter may name",
    ),
  })
  .meta({ id: 'ItemsSummaryRequest' });
export type ItemsSummaryRequest = z.input<typeof ItemsSummaryRequest>;

export const ItemsSummaryResponse = z
  .object({
    num_items: z.number().int(),
    num_items_used: z.number().int().describe('Of those, items with a prediction'),
    iou_threshold: z.number().nullable(),
    metrics: z.array(z.object({ metric_name: z.string(), value: MetricValue })),
  })
  .meta({ id: 'ItemsSummaryResponse' });
export type ItemsSummaryResponse = z.infer<typeof ItemsSummaryResponse>;

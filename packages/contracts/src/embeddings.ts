// Embeddings and similarity (docs/product.md, Datasets §2, §3, §5, §7): the scatter plot's settings and
// points, aggregates of a lasso selection, and the similar-items search over a feature.
import { z } from 'zod';
import { boundedArray } from './bounded.js';
import { DataLevel } from './datasets.js';
import { ExploreComparison, Filter } from './explore.js';

/** Defaults and ranges of the reduction methods (docs/product.md, Datasets §5). */
export const UMAP_NEIGHBORS = { min: 2, max: 100, default: 15 } as const;
export const TSNE_PERPLEXITY = { min: 0.1, max: 100, default: 30 } as const;
/** t-SNE is slow above this many points (docs/product.md §5); the web app warns, the server still runs it. */
export const TSNE_SLOW_ABOVE = 20_000;

export const FEATURE_NOT_AVAILABLE =
  'Selected feature is not available. Please select another feature from the dropdown menu';
export const NO_FEATURES_FOR_EMBEDDINGS =
  'You need to upload at least one feature to enable embeddings.';
export const EMBEDDINGS_FAILED =
  'Failed to compute embeddings. Try another dimensionality reduction method or another feature.';

export const DimensionalityReductionSetting = z
  .discriminatedUnion('method', [
    z.object({
      method: z.literal('UMAP'),
      num_neighbors: z
        .number()
        .int('num_neighbors must be a whole number')
        .min(UMAP_NEIGHBORS.min, `num_neighbors must be at least ${UMAP_NEIGHBORS.min}`)
        .max(UMAP_NEIGHBORS.max, `num_neighbors must be at most ${UMAP_NEIGHBORS.max}`),
    }),
    z.object({
      method: z.literal('TSNE'),
      perplexity: z
        .number()
        .min(TSNE_PERPLEXITY.min, `perplexity must be at least ${TSNE_PERPLEXITY.min}`)
        .max(TSNE_PERPLEXITY.max, `perplexity must be at most ${TSNE_PERPLEXITY.max}`),
    }),
    z.object({ method: z.literal('PCA') }),
  ])
  .meta({ id: 'DimensionalityReductionSetting' });
export type DimensionalityReductionSetting = z.infer<typeof DimensionalityReductionSetting>;

export const DEFAULT_REDUCTION: DimensionalityReductionSetting = {
  method: 'UMAP',
  num_neighbors: UMAP_NEIGHBORS.default,
};

const PredictionsId = z.uuid('predictions_id must be a prediction set id (UUID)');
const FeatureName = z.string().trim().min(1, 'feature_name must not be empty').max(200);

export const EmbeddingsSettingsQuery = z.object({
  data_level: DataLevel,
  predictions_id: PredictionsId.optional(),
});
export type EmbeddingsSettingsQuery = z.input<typeof EmbeddingsSettingsQuery>;

export const EmbeddingsSettings = z
  .object({
    feature_names: z
      .array(z.string())
      .describe(
        "Features of this data level, oldest first: the dataset's, then the prediction set's own",
      ),
    predictions_feature_names: z
      .array(z.string())
      .describe(
        "Those of feature_names that are the prediction set's own (a name it shares with the dataset means the model's); empty without predictions_id",
      ),
    feature_name: z
      .string()
      .nullable()
      .describe('The chosen feature; null when the data level has no feature'),
    dimensionality_reduction_setting: DimensionalityReductionSetting,
  })
  .meta({ id: 'EmbeddingsSettings' });
export type EmbeddingsSettings = z.infer<typeof EmbeddingsSettings>;

export const UpdateEmbeddingsSettingsRequest = z
  .object({
    dimensionality_reduction_setting: DimensionalityReductionSetting,
    feature_name: FeatureName,
    data_level: DataLevel,
    predictions_id: PredictionsId.optional(),
  })
  .meta({ id: 'UpdateEmbeddingsSettingsRequest' });
export type UpdateEmbeddingsSettingsRequest = z.input<typeof UpdateEmbeddingsSettingsRequest>;

export const EmbeddingPointsRequest = z
  .object({
    dimensionality_reduction_setting: DimensionalityReductionSetting.optional().describe(
      'Default: the stored settings of this data level and prediction set',
    ),
    feature_name: FeatureName.optional().describe('Default: the stored settings'),
    filter: Filter.nullable().optional(),
    subset_id: z
      .string()
      .optional()
      .describe("Only the subset's items (the subset must be of this data level)"),
    data_level: DataLevel,
    predictions_id: PredictionsId.optional(),
    comparison: ExploreComparison.optional().describe(
      "The explorer's comparison of two models, whose per-item fields filter and color_by may name",
    ),
    color_by: z
      .string()
      .min(1)
      .max(400)
      .nullable()
      .optional()
      .describe('Metadata id whose value colours the points'),
    include_missing: z
      .boolean()
      .default(true)
      .describe('Keep points whose color_by value is missing (their colorKey is empty)'),
    format: z
      .enum(['strings', 'binary'])
      .default('strings')
      .describe(
        "'strings': points as 'id|x|y|colorKey'; 'binary': base64 row indices, coordinates and colour codes (see docs/api.md), for up to millions of points",
      ),
  })
  .meta({ id: 'EmbeddingPointsRequest' });
export type EmbeddingPointsRequest = z.input<typeof EmbeddingPointsRequest>;

export const EmbeddingsLegend = z
  .union([
    z.object({
      type: z.literal('categorical'),
      categories: z.array(
        z.object({
          key: z.string().describe('The colorKey of the points of this category'),
          label: z.string(),
          color: z.string().describe('#rrggbb'),
        }),
      ),
    }),
    z.object({
      type: z.literal('continuous'),
      min: z.number().nullable(),
      max: z.number().nullable(),
    }),
  ])
  .meta({ id: 'EmbeddingsLegend' });
export type EmbeddingsLegend = z.infer<typeof EmbeddingsLegend>;

export const EmbeddingPointsBinary = z
  .object({
    rows: z
      .string()
      .describe(
        'base64 row indices into the item table of `version` (contracts row-encoding), point order',
      ),
    xy: z.string().describe('base64 little-endian float32 x0, y0, x1, y1, … in point order'),
    colors: z
      .string()
      .nullable()
      .describe(
        'base64 colour per point: categorical = little-endian uint16 category code, the key of its legend entry (65535 = missing); continuous = float32 value (NaN = missing); null without color_by',
      ),
  })
  .meta({ id: 'EmbeddingPointsBinary' });
export type EmbeddingPointsBinary = z.infer<typeof EmbeddingPointsBinary>;

export const EmbeddingPointsResponse = z
  .object({
    status: z.enum(['computing', 'ready', 'failed']),
    progress: z.number().min(0).max(1).describe('Fraction done while computing; 1 when ready'),
    description: z
      .string()
      .optional()
      .describe('When failed: what went wrong and what to try instead'),
    feature_name: z.string(),
    dimensionality_reduction_setting: DimensionalityReductionSetting,
    points: z
      .array(z.string())
      .optional()
      .describe("format strings: 'id|x|y|colorKey', colorKey empty when missing"),
    binary: EmbeddingPointsBinary.optional(),
    version: z.number().int().optional().describe('Item table version the binary rows refer to'),
    legend: EmbeddingsLegend.nullable(),
    num_points: z.number().int(),
    num_missing: z
      .number()
      .int()
      .describe(
        'Items matching the filter (within the subset) that have no vector of the feature (not plotted)',
      ),
  })
  .meta({ id: 'EmbeddingPointsResponse' });
export type EmbeddingPointsResponse = z.infer<typeof EmbeddingPointsResponse>;

export const SelectionAggregateRequest = z
  .object({
    ids: boundedArray(z.string(), 1_000_000).min(1, 'ids must not be empty'),
    props: boundedArray(z.string().min(1).max(400), 100).min(1, 'props must not be empty'),
    data_level: DataLevel,
    predictions_id: PredictionsId.optional(),
  })
  .meta({ id: 'SelectionAggregateRequest' });
export type SelectionAggregateRequest = z.input<typeof SelectionAggregateRequest>;

const Bin = z.object({ bin_start: z.number(), bin_end: z.number(), count: z.number().int() });
const Common = {
  num_items: z.number().int().describe('Selected items found at this data level'),
  num_missing: z.number().int(),
};
export const AggregatedMetric = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('numeric'),
      ...Common,
      min: z.number().nullable(),
      max: z.number().nullable(),
      mean: z.number().nullable(),
      median: z.number().nullable(),
      bins: z.array(Bin),
    }),
    z.object({
      type: z.literal('timestamp'),
      ...Common,
      min: z.number().nullable(),
      max: z.number().nullable(),
      bins: z.array(Bin),
    }),
    z.object({
      type: z.literal('bool'),
      ...Common,
      num_true: z.number().int(),
      num_false: z.number().int(),
    }),
    z.object({
      type: z.literal('string'),
      ...Common,
      values: z
        .array(z.object({ value: z.string(), count: z.number().int() }))
        .describe('Most frequent first, at most 20'),
      num_other: z.number().int().describe('Items with a value beyond the listed ones'),
    }),
  ])
  .meta({ id: 'AggregatedMetric' });
export type AggregatedMetric = z.infer<typeof AggregatedMetric>;

export const SelectionAggregateResponse = z
  .object({ aggregated_metrics: z.record(z.string(), AggregatedMetric) })
  .meta({ id: 'SelectionAggregateResponse' });
export type SelectionAggregateResponse = z.infer<typeof SelectionAggregateResponse>;

export const SimilarItemsRequest = z
  .object({
    item_ids: boundedArray(z.string(), 100_000).min(1, 'item_ids must not be empty'),
    feature_name: FeatureName.optional().describe("Default: the level's first feature"),
    data_level: DataLevel,
    k: z.number().int().min(1).max(10_000).default(100),
    exclude_ids: boundedArray(z.string(), 1_000_000)
      .default([])
      .describe('Never answered (e.g. the items already in the subset)'),
  })
  .meta({ id: 'SimilarItemsRequest' });
export type SimilarItemsRequest = z.input<typeof SimilarItemsRequest>;

export const SimilarItemsResponse = z
  .object({
    feature_name: z.string(),
    items: z
      .array(
        z.object({
          id: z.string(),
          similarity: z.number().describe('Cosine similarity to the query, −1 to 1'),
        }),
      )
      .describe('Most similar first'),
    ignored: z.number().int().describe('Query items without a vector of the feature'),
    approximate: z.boolean().describe('Answered from the approximate index'),
  })
  .meta({ id: 'SimilarItemsResponse' });
export type SimilarItemsResponse = z.infer<typeof SimilarItemsResponse>;

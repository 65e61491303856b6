// The explorer's calls (docs/product.md, Datasets §3, §7): item ids with sort and filter, items, metadata
// info, histograms, colour map and item features. The query engine of @loupe/analysis answers
// sort, filter and histogram with these very types (it imports them as types only).
import { z } from 'zod';
import { ItemAttribution } from './attributions.js';
import { boundedArray } from './bounded.js';
import { DataLevel, MetadataType, MetadataValue, Segmentation } from './datasets.js';

const MetadataId = z.string().min(1, 'metadata_id must not be empty').max(400);

export const SortEntry = z
  .object({ name: MetadataId, direction: z.enum(['ascending', 'descending']) })
  .meta({ id: 'SortEntry' });
export type SortEntry = z.infer<typeof SortEntry>;

/** Milliseconds since the epoch, or an ISO 8601 string. */
export const TimestampValue = z.union([z.number(), z.string().max(64)]);
export type TimestampValue = z.infer<typeof TimestampValue>;

export const BooleanFilter = z.object({
  type: z.literal('boolean'),
  metadata_id: MetadataId,
  op: z.literal('bool_equals'),
  value: z.boolean(),
});
export type BooleanFilter = z.infer<typeof BooleanFilter>;
export const NumericFilter = z.object({
  type: z.literal('numeric'),
  metadata_id: MetadataId,
  op: z.literal('between'),
  value: z.tuple([z.number().nullable(), z.number().nullable()]).describe('[min, max], inclusive'),
});
export type NumericFilter = z.infer<typeof NumericFilter>;
export const StringFilter = z.object({
  type: z.literal('string'),
  metadata_id: MetadataId,
  op: z.literal('in'),
  value: boundedArray(z.string(), 100_000),
});
export type StringFilter = z.infer<typeof StringFilter>;
export const TimestampFilter = z.union([
  z.object({
    type: z.literal('timestamp'),
    metadata_id: MetadataId,
    op: z.literal('ts_between'),
    value: z.tuple([TimestampValue.nullable(), TimestampValue.nullable()]),
  }),
  z.object({
    type: z.literal('timestamp'),
    metadata_id: MetadataId,
    op: z.literal('ts_equals'),
    value: TimestampValue,
  }),
]);
export type TimestampFilter = z.infer<typeof TimestampFilter>;
export const HistoryFilter = z.object({
  type: z.literal('history'),
  record_id: z.string().min(1),
});
export type HistoryFilter = z.infer<typeof HistoryFilter>;

export interface AndFilter {
  type: 'and';
  children: Filter[];
}
export interface OrFilter {
  type: 'or';
  children: Filter[];
}
/** The complement: the items the child does not match, missing values included. */
export interface NotFilter {
  type: 'not';
  child: Filter;
}

/** The explorer's filter tree (docs/product.md, Datasets §3 "Filter"). */
export type Filter =
  | AndFilter
  | OrFilter
  | NotFilter
  | BooleanFilter
  | NumericFilter
  | StringFilter
  | TimestampFilter
  | HistoryFilter;

/** How deeply and/or/not filters may nest: the explorer builds two levels; 32 is generous. */
export const FILTER_MAX_DEPTH = 32;

/** Levels of and/or/not in a filter, counted without recursion; stops once past `limit`. */
export function filterDepth(filter: unknown, limit = FILTER_MAX_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[filter, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) break;
    const { children, child } = node as { children?: unknown; child?: unknown };
    if (Array.isArray(children)) for (const c of children) stack.push([c, depth + 1]);
    if (child !== undefined) stack.push([child, depth + 1]);
  }
  return deepest;
}

const FilterNode: z.ZodType<Filter> = z.lazy(() =>
  z.union([
    z.object({ type: z.literal('and'), children: boundedArray(FilterNode, 1000) }),
    z.object({ type: z.literal('or'), children: boundedArray(FilterNode, 1000) }),
    z.object({ type: z.literal('not'), child: FilterNode }),
    BooleanFilter,
    NumericFilter,
    StringFilter,
    TimestampFilter,
    HistoryFilter,
  ]),
);

/**
 * A filter tree nested at most FILTER_MAX_DEPTH levels. The JSON body parser already refuses
 * bodies deep enough to exhaust the stack, so the tree can be parsed before its depth is counted.
 */
export const Filter: z.ZodType<Filter> = FilterNode.superRefine((value, ctx) => {
  if (filterDepth(value) > FILTER_MAX_DEPTH)
    ctx.addIssue({
      code: 'custom',
      message: `filters may nest at most ${FILTER_MAX_DEPTH} levels of and/or/not`,
    });
});

/** What the items are looked at with: a prediction set adds its predictions and their metadata. */
const PredictionsId = z.uuid('predictions_id must be a prediction set id (UUID)');

/**
 * The explorer opened from the comparison of two models (docs/model-comparison.md): the
 * request's `predictions_id` must be one of the two, and the items gain the per-item columns of
 * the comparison (COMPARISON_FIELDS: category, object subcategory, B − A difference, bin) for
 * the samples of `split`, computed with `metric` (and `regression_value_name`); `items` answers
 * each item with the other model's prediction too.
 */
export const ExploreComparison = z
  .object({
    predictions_id_a: z.uuid('comparison.predictions_id_a must be a prediction set id (UUID)'),
    predictions_id_b: z.uuid('comparison.predictions_id_b must be a prediction set id (UUID)'),
    split: z.string().min(1).max(200).default('all'),
    metric: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe("A comparison metric of the task; the task's first when absent"),
    regression_value_name: z.string().min(1).max(300).nullable().optional(),
  })
  .meta({ id: 'ExploreComparison' });
export type ExploreComparison = z.input<typeof ExploreComparison>;

/** The same context as flat query fields (metadata info is a GET). */
export const ExploreComparisonQuery = z.object({
  comparison_a: z.uuid('comparison_a must be a prediction set id (UUID)').optional(),
  comparison_b: z.uuid('comparison_b must be a prediction set id (UUID)').optional(),
  comparison_split: z.string().min(1).max(200).optional(),
  comparison_metric: z.string().min(1).max(100).optional(),
  comparison_value_name: z.string().min(1).max(300).optional(),
});

/** What selects and orders a level's items: item_ids and item_rows take the same fields. */
const ItemQuery = {
  data_level: DataLevel,
  sort: boundedArray(SortEntry, 20).default([]),
  filter: Filter.nullable().optional(),
  include_missing: z
    .boolean()
    .default(false)
    .describe('Keep items missing a value of a sort key (they sort last)'),
  subset_id: z.string().optional(),
  predictions_id: PredictionsId.optional(),
  comparison: ExploreComparison.optional(),
};

export const ItemIdsRequest = z
  .object({
    ...ItemQuery,
    format: z
      .enum(['rows', 'ids'])
      .default('rows')
      .describe(
        "'rows': the result as compact row indices (base64, see docs/api.md); 'ids': a JSON array of item ids",
      ),
  })
  .meta({ id: 'ItemIdsRequest' });
export type ItemIdsRequest = z.input<typeof ItemIdsRequest>;

export const ItemIdsResponse = z
  .object({
    total: z.number().int().describe('Items in the result'),
    num_items: z.number().int().describe('Items at this data level before filtering'),
    version: z.number().int().describe('The item table the row indices refer to'),
    rows: z
      .string()
      .optional()
      .describe('format rows: base64 of the encoded row indices in result order'),
    item_ids: z.array(z.string()).optional().describe('format ids: item ids in result order'),
  })
  .meta({ id: 'ItemIdsResponse' });
export type ItemIdsResponse = z.infer<typeof ItemIdsResponse>;

/**
 * item_rows: the query of item_ids, answered as the bytes of the encoded row indices
 * (application/octet-stream, no base64 nor JSON); count and version are in their header.
 */
export const ItemRowsRequest = z.object(ItemQuery).meta({ id: 'ItemRowsRequest' });
export type ItemRowsRequest = z.input<typeof ItemRowsRequest>;

/** The item_rows answer's header holding the items at the level before filtering. */
export const NUM_ITEMS_HEADER = 'loupe-num-items';

export const ItemsRequest = z
  .object({
    data_level: DataLevel,
    item_ids: boundedArray(z.string(), 1000).optional(),
    rows: boundedArray(z.number().int().nonnegative(), 1000)
      .optional()
      .describe('Row indices from an item_ids answer, with its version'),
    version: z.number().int().optional(),
    predictions_id: PredictionsId.optional(),
    comparison: ExploreComparison.optional(),
  })
  .meta({ id: 'ItemsRequest' });
export type ItemsRequest = z.input<typeof ItemsRequest>;

export const ObjectType = z.enum(['gt', 'pred']);
export type ObjectType = z.infer<typeof ObjectType>;

export const ExploreObject = z
  .object({
    id: z.string(),
    label: z.string(),
    type: ObjectType,
    score: z.number().optional(),
    coords: z
      .tuple([z.number(), z.number(), z.number(), z.number()])
      .nullable()
      .describe('[y1, x1, y2, x2] as fractions of the image'),
    mask: Segmentation.optional().describe('Polygons in pixels, or COCO RLE'),
  })
  .meta({ id: 'ExploreObject' });
export type ExploreObject = z.infer<typeof ExploreObject>;

export const ItemPrediction = z
  .object({
    label: z.string().nullable(),
    score: z.number().nullable(),
    probabilities: z.record(z.string(), z.number()).nullable(),
    values: z.record(z.string(), z.number()).nullable(),
    transcript: z.string().nullable(),
    mask_src: z.string().nullable(),
  })
  .meta({ id: 'ItemPrediction' });
export type ItemPrediction = z.infer<typeof ItemPrediction>;

export const ExploreItem = z
  .object({
    id: z
      .string()
      .describe(
        "Sample id; at object level the object id, or 'pred:' + the predicted object's id for a prediction",
      ),
    row: z.number().int().describe('Row index in the current item table'),
    data_level: DataLevel,
    sample_id: z.string(),
    type: ObjectType.describe('An object item can be a ground truth or a prediction'),
    media_type: z.enum(['image', 'audio']).nullable(),
    src: z.string().nullable().describe('URL of the original media'),
    thumbnail_src: z
      .string()
      .nullable()
      .describe(
        'URL of the grid thumbnail, when there is one: a WebP of at most 512 px, or the uploaded file itself when it is a JPEG, PNG or WebP of at most 640 px and 200 KB',
      ),
    spectrogram_src: z.string().nullable().describe('Audio: URL of the spectrogram image'),
    width: z.number().nullable(),
    height: z.number().nullable(),
    duration: z.number().nullable().describe('Audio: seconds'),
    crop: z
      .tuple([z.number(), z.number(), z.number(), z.number()])
      .nullable()
      .describe('Object items: the object box [y1, x1, y2, x2] as fractions'),
    split: z.string().nullable(),
    label: z.string().nullable(),
    labels: z.array(z.string()).nullable(),
    values: z.record(z.string(), z.number()).nullable(),
    transcript: z.string().nullable(),
    mask_src: z.string().nullable().describe('Semantic segmentation: URL of the label map'),
    prediction: ItemPrediction.nullable(),
    objects: z.array(ExploreObject),
    compared_prediction: z
      .object({
        predictions_id: z.string().describe('The other model of the comparison'),
        prediction: ItemPrediction.nullable(),
        objects: z
          .array(ExploreObject)
          .describe("The other model's predicted objects of the item's sample (type 'pred')"),
      })
      .optional()
      .describe("With a comparison: the other model's prediction of the item's sample"),
    metadata: z.record(z.string(), MetadataValue),
    attributions: z
      .record(z.string(), ItemAttribution)
      .optional()
      .describe(
        "With predictions_id, at the sample level: the sample's heatmaps by attribution id",
      ),
  })
  .meta({ id: 'ExploreItem' });
export type ExploreItem = z.infer<typeof ExploreItem>;

export const ItemsResponse = z
  .object({ items: z.array(ExploreItem), version: z.number().int() })
  .meta({ id: 'ItemsResponse' });
export type ItemsResponse = z.infer<typeof ItemsResponse>;

export const MetadataInfoQuery = ExploreComparisonQuery.extend({
  data_level: DataLevel,
  predictions_id: PredictionsId.optional(),
});
export type MetadataInfoQuery = z.input<typeof MetadataInfoQuery>;

export const MetadataFieldInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    label: z.string(),
    description: z.string().describe('HTML'),
    group: z.string(),
    source: z.enum(['builtin', 'uploaded', 'computed', 'prediction']),
    state: z.enum(['available', 'pending']),
    type: MetadataType,
    num_missing: z.number().optional(),
    num_total: z.number().optional(),
    options: z
      .object({
        min: z.number().optional(),
        max: z.number().optional(),
        allowed_values: z
          .array(z.string())
          .optional()
          .describe('Strings with few distinct values (at most 200); absent when there are more'),
      })
      .optional(),
  })
  .meta({ id: 'MetadataFieldInfo' });
export type MetadataFieldInfo = z.infer<typeof MetadataFieldInfo>;

export const MetadataInfoResponse = z
  .object({ metadata_config: z.array(MetadataFieldInfo) })
  .meta({ id: 'MetadataInfoResponse' });
export type MetadataInfoResponse = z.infer<typeof MetadataInfoResponse>;

export const HistogramRequest = z
  .object({
    metadata_id: MetadataId,
    data_level: DataLevel,
    predictions_id: PredictionsId.optional(),
    comparison: ExploreComparison.optional(),
    filter: Filter.nullable().optional(),
    subset_id: z.string().optional(),
    max_num_bins: z.number().int().min(1).max(1000).default(20),
  })
  .meta({ id: 'HistogramRequest' });
export type HistogramRequest = z.input<typeof HistogramRequest>;

export const SplitCounts = z
  .record(z.string(), z.number())
  .describe("Per split; 'all' counts every item");
export type SplitCounts = z.infer<typeof SplitCounts>;
/** Numbers and timestamps (epoch milliseconds) are counted in bins. */
export const HistogramBin = z.object({
  bin_start: z.number(),
  bin_end: z.number(),
  count: SplitCounts,
});
export type HistogramBin = z.infer<typeof HistogramBin>;
/** Strings and booleans are counted per value, most frequent first. */
export const HistogramCategory = z.object({
  category: z.union([z.string(), z.boolean()]),
  count: SplitCounts,
});
export type HistogramCategory = z.infer<typeof HistogramCategory>;
export const HistogramResponse = z
  .union([
    z.object({
      metadata_type: z.enum(['numeric', 'timestamp']),
      counts_per_bin: z.array(HistogramBin),
    }),
    z.object({
      metadata_type: z.enum(['string', 'boolean']),
      counts_per_bin: z.array(HistogramCategory),
    }),
  ])
  .meta({ id: 'HistogramResponse' });
export type HistogramResponse = z.infer<typeof HistogramResponse>;

export const ColorMapResponse = z
  .object({ color_map: z.record(z.string(), z.string()).describe('Label → CSS colour') })
  .meta({ id: 'ColorMapResponse' });
export type ColorMapResponse = z.infer<typeof ColorMapResponse>;

export const ItemFeaturesRequest = z
  .object({ data_level: DataLevel, item_ids: boundedArray(z.string(), 100_000).min(1) })
  .meta({ id: 'ItemFeaturesRequest' });
export type ItemFeaturesRequest = z.input<typeof ItemFeaturesRequest>;
export const ItemFeaturesResponse = z
  .object({
    features: z.array(z.object({ feature_name: z.string(), num_missing: z.number() })),
  })
  .meta({ id: 'ItemFeaturesResponse' });
export type ItemFeaturesResponse = z.infer<typeof ItemFeaturesResponse>;

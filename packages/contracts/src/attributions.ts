// Attributions (docs/product.md, Models §3): heatmaps a prediction set uploads per sample under a
// name, listed with their presence, drawn over an item's primary view, deleted by name; and a
// prediction set's own features beside the dataset's.
import { z } from 'zod';
import { DataLevel, FeatureInfoList, ItemId, type TaskType } from './datasets.js';
import { TASK_TRAITS } from './task-traits.js';

const AttributionName = z.string().trim().min(1, 'must not be empty').max(200);

/**
 * Whether the web app shows attributions for a task: a heatmap is drawn over an image, so image
 * tasks (the API stores them for any task).
 */
export const attributionsSupported = (task: TaskType): boolean =>
  TASK_TRAITS[task].media === 'image';

/** An attribution's id: its data level and name, like a feature's. */
export const attributionId = (dataLevel: DataLevel, name: string): string => `${dataLevel}:${name}`;

export const AttributionsOverviewQuery = z.object({
  data_level: DataLevel.optional().describe('Only the attributions of this data level'),
});
export type AttributionsOverviewQuery = z.input<typeof AttributionsOverviewQuery>;

export const AttributionOverview = z
  .object({
    id: z.string().describe('data_level:name'),
    name: z.string(),
    associated_features: z.array(z.string()),
    data_level: DataLevel.describe("The dataset's sample level: a heatmap belongs to a sample"),
    num_present: z.number().int().describe('Live samples with this heatmap'),
    num_missing: z.number().int().describe('Live samples without it'),
  })
  .meta({ id: 'AttributionOverview' });
export type AttributionOverview = z.infer<typeof AttributionOverview>;

export const AttributionsOverviewResponse = z
  .object({ attribution_overviews: z.array(AttributionOverview) })
  .meta({ id: 'AttributionsOverviewResponse' });
export type AttributionsOverviewResponse = z.infer<typeof AttributionsOverviewResponse>;

export const DeleteAttributionRequest = z
  .object({ name: AttributionName.describe('The attribution to delete, every sample of it') })
  .meta({ id: 'DeleteAttributionRequest' });
export type DeleteAttributionRequest = z.input<typeof DeleteAttributionRequest>;

export const DeleteAttributionResult = z
  .object({ deleted: z.number().int().describe('Heatmaps removed') })
  .meta({ id: 'DeleteAttributionResult' });
export type DeleteAttributionResult = z.infer<typeof DeleteAttributionResult>;

export const AttributionHeatmapQuery = z.object({ name: AttributionName, sample_id: ItemId });
export type AttributionHeatmapQuery = z.input<typeof AttributionHeatmapQuery>;

/** One heatmap of an item, as the items call gives it. */
export const ItemAttribution = z
  .object({
    name: z.string(),
    src: z
      .string()
      .describe(
        'URL of the heatmap as a PNG (rows of numbers drawn with a colour scale, or the uploaded image)',
      ),
  })
  .meta({ id: 'ItemAttribution' });
export type ItemAttribution = z.infer<typeof ItemAttribution>;

export const PredictionFeaturesResponse = z
  .object({
    dataset_features: FeatureInfoList,
    predictions_features: FeatureInfoList.describe("The prediction set's own features"),
  })
  .meta({ id: 'PredictionFeaturesResponse' });
export type PredictionFeaturesResponse = z.infer<typeof PredictionFeaturesResponse>;

/** The heatmap overlay's opacity in percent (docs/product.md, Datasets §9). */
export const ATTRIBUTION_OPACITY = { default: 50, min: 0, max: 100, step: 1 } as const;

/** The attribution texts of the explorer and the item viewer, as the product words them. */
export const ATTRIBUTION_MESSAGES = {
  none: 'No attributions available, learn how to upload attributions...',
  loading: 'Attributions are loading...',
  selectModel: 'Select model to explore attributions',
  primaryViewOnly:
    'Attributions are only available for primary view, switch to default view to enable attributions',
} as const;

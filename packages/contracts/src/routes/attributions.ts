// Attributions of a prediction set (docs/product.md, Models §3): the overview the model's
// features page and the explorer's picker read, one heatmap as a PNG, and deleting one by name
// (licensed, any role). Uploading them is predictionSets.uploadAttributions.
import {
  AttributionHeatmapQuery,
  AttributionsOverviewQuery,
  AttributionsOverviewResponse,
  DeleteAttributionRequest,
  DeleteAttributionResult,
} from '../attributions.js';
import { PredictionSetParams } from '../datasets.js';
import { defineRoute, raw } from './define.js';

const common = { auth: 'user', tags: ['models'], params: PredictionSetParams } as const;
const base = '/api/datasets/:id/predictions/:predictionSetId/attributions';

export const attributions = {
  overview: defineRoute({
    ...common,
    method: 'GET',
    path: `${base}/overview`,
    query: AttributionsOverviewQuery,
    responses: { 200: AttributionsOverviewResponse },
    errors: [400, 401, 404],
    license: false,
    summary: "A prediction set's attributions with how many live samples have each",
  }),
  heatmap: defineRoute({
    ...common,
    method: 'GET',
    path: `${base}/heatmap`,
    query: AttributionHeatmapQuery,
    responses: raw('image/png'),
    errors: [400, 401, 404],
    license: false,
    summary:
      "One sample's heatmap as a PNG: rows of numbers drawn on a colour scale from their minimum to their maximum, or the uploaded image",
  }),
  delete: defineRoute({
    ...common,
    method: 'DELETE',
    path: base,
    body: DeleteAttributionRequest,
    responses: { 200: DeleteAttributionResult },
    errors: [400, 401, 403, 404],
    license: true,
    summary:
      "Delete an attribution (every sample's heatmap of that name); clears the prediction set's embeddings settings",
  }),
};

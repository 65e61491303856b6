// Embeddings (docs/product.md, Datasets §7): settings, points (polled while computing), selection
// aggregates and similar items. Only finding similar items is license-gated.
import { DatasetIdParams } from '../datasets.js';
import {
  EmbeddingPointsRequest,
  EmbeddingPointsResponse,
  EmbeddingsSettings,
  EmbeddingsSettingsQuery,
  SelectionAggregateRequest,
  SelectionAggregateResponse,
  SimilarItemsRequest,
  SimilarItemsResponse,
  UpdateEmbeddingsSettingsRequest,
} from '../embeddings.js';
import { defineRoute } from './define.js';

const common = { params: DatasetIdParams, auth: 'user', tags: ['embeddings'] } as const;

export const embeddings = {
  settings: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/datasets/:id/embeddings/settings',
    query: EmbeddingsSettingsQuery,
    responses: { 200: EmbeddingsSettings },
    errors: [400, 401, 404],
    license: false,
    summary: "The scatter plot's feature and reduction method for a data level",
  }),
  updateSettings: defineRoute({
    ...common,
    method: 'PUT',
    path: '/api/datasets/:id/embeddings/settings',
    body: UpdateEmbeddingsSettingsRequest,
    responses: { 200: EmbeddingsSettings },
    errors: [400, 401, 404, 424],
    license: false,
    summary: "Stores the scatter plot's feature and reduction method for a data level",
  }),
  points: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/embeddings/points',
    body: EmbeddingPointsRequest,
    responses: { 200: EmbeddingPointsResponse },
    errors: [400, 401, 404, 424],
    license: false,
    summary:
      'The 2-D points of a feature, filtered and coloured; starts the computation and answers computing until it is done (poll)',
  }),
  selectionAggregate: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/embeddings/selection_aggregate',
    body: SelectionAggregateRequest,
    responses: { 200: SelectionAggregateResponse },
    errors: [400, 401, 404],
    license: false,
    summary: 'Distributions of metadata fields over selected items (a lasso selection)',
  }),
  similarItems: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/similar_items',
    body: SimilarItemsRequest,
    responses: { 200: SimilarItemsResponse },
    errors: [400, 401, 403, 404, 424],
    license: true,
    summary: 'Items most similar to the given ones by cosine similarity over a feature',
  }),
};

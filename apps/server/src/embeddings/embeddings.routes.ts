// Embeddings routes (docs/product.md, Datasets §7): settings, points (polled while computing), selection
// aggregates and similar items. Only finding similar items is license-gated (docs/product.md §1).
import {
  DatasetIdParams,
  EmbeddingPointsRequest,
  EmbeddingPointsResponse,
  EmbeddingsSettings,
  EmbeddingsSettingsQuery,
  SelectionAggregateRequest,
  SelectionAggregateResponse,
  SimilarItemsRequest,
  SimilarItemsResponse,
  UpdateEmbeddingsSettingsRequest,
} from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { errors, type TypedApp } from '../http/route-kit.js';
import type { EmbeddingsService } from './embeddings.service.js';

export function embeddingsRoutes(app: TypedApp, services: { embeddings: EmbeddingsService }): void {
  const { embeddings } = services;
  const tags = ['embeddings'];

  app.get(
    '/api/datasets/:id/embeddings/settings',
    {
      schema: {
        tags,
        summary: "The scatter plot's feature and reduction method for a data level",
        params: DatasetIdParams,
        querystring: EmbeddingsSettingsQuery,
        response: { 200: EmbeddingsSettings, ...errors(400, 401, 404) },
      },
    },
    (request) => embeddings.settings(request.params.id, request.query),
  );

  app.put(
    '/api/datasets/:id/embeddings/settings',
    {
      schema: {
        tags,
        summary: "Stores the scatter plot's feature and reduction method for a data level",
        params: DatasetIdParams,
        body: UpdateEmbeddingsSettingsRequest,
        response: { 200: EmbeddingsSettings, ...errors(400, 401, 404, 424) },
      },
    },
    (request) => embeddings.updateSettings(request.params.id, request.body),
  );

  app.post(
    '/api/datasets/:id/embeddings/points',
    {
      schema: {
        tags,
        summary:
          'The 2-D points of a feature, filtered and coloured; starts the computation and answers computing until it is done (poll)',
        params: DatasetIdParams,
        body: EmbeddingPointsRequest,
        response: { 200: EmbeddingPointsResponse, ...errors(400, 401, 404, 424) },
      },
    },
    (request) => embeddings.points(actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/datasets/:id/embeddings/selection_aggregate',
    {
      schema: {
        tags,
        summary: 'Distributions of metadata fields over selected items (a lasso selection)',
        params: DatasetIdParams,
        body: SelectionAggregateRequest,
        response: { 200: SelectionAggregateResponse, ...errors(400, 401, 404) },
      },
    },
    (request) => embeddings.selectionAggregate(request.params.id, request.body),
  );

  app.post(
    '/api/datasets/:id/similar_items',
    {
      schema: {
        tags,
        summary: 'Items most similar to the given ones by cosine similarity over a feature',
        params: DatasetIdParams,
        body: SimilarItemsRequest,
        response: { 200: SimilarItemsResponse, ...errors(400, 401, 403, 404, 424) },
      },
    },
    (request) => embeddings.similar(request.params.id, request.body),
  );
}

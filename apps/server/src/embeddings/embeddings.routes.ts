// Embeddings routes (docs/product.md, Datasets §7): settings, points (polled while computing), selection
// aggregates and similar items. Only finding similar items is license-gated (docs/product.md §1).
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { EmbeddingsService } from './embeddings.service.js';

export function embeddingsRoutes(app: TypedApp, services: { embeddings: EmbeddingsService }): void {
  const { embeddings } = services;
  registerRoute(app, api.embeddings.settings, (request) =>
    embeddings.settings(request.params.id, request.query),
  );
  registerRoute(app, api.embeddings.updateSettings, (request) =>
    embeddings.updateSettings(request.params.id, request.body),
  );
  registerRoute(app, api.embeddings.points, (request) =>
    embeddings.points(actorOf(request), request.params.id, request.body),
  );
  registerRoute(app, api.embeddings.selectionAggregate, (request) =>
    embeddings.selectionAggregate(request.params.id, request.body),
  );
  registerRoute(app, api.embeddings.similarItems, (request) =>
    embeddings.similar(request.params.id, request.body),
  );
}

// Model performance (docs/model-performance.md): a prediction set's statistics, per-entity table,
// curves and subset entries (computed by jobs; 'computing' while they are), the synchronous
// metadata and selection performance, and the license-gated subset performance toggle.
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { PerformanceService } from './performance.service.js';

export function performanceRoutes(
  app: TypedApp,
  services: { performance: PerformanceService },
): void {
  const { performance } = services;

  registerRoute(app, api.performance.statistics, (request) =>
    performance.statistics(actorOf(request), request.params.id, request.params.predictionSetId),
  );
  registerRoute(app, api.performance.overall, (request) =>
    performance.overall(actorOf(request), request.params.id, request.params.predictionSetId),
  );
  registerRoute(app, api.performance.finegrained, (request) =>
    performance.finegrained(actorOf(request), request.params.id, request.params.predictionSetId),
  );
  registerRoute(app, api.performance.subsets, (request) =>
    performance.subsets(
      actorOf(request),
      request.params.id,
      request.params.predictionSetId,
      request.query.split,
    ),
  );
  registerRoute(app, api.performance.metadata, (request) =>
    performance.metadata(request.params.id, request.params.predictionSetId, request.body),
  );
  registerRoute(app, api.performance.itemsSummary, (request) =>
    performance.itemsSummary(
      request.params.id,
      request.params.predictionSetId,
      request.body,
      actorOf(request),
    ),
  );
  registerRoute(app, api.performance.toggleSubset, (request) =>
    performance.toggleSubset(
      actorOf(request),
      request.params.id,
      request.params.subsetId,
      request.body,
    ),
  );
}

// Comparing two models (docs/model-comparison.md): the job-computed comparison of two prediction
// sets ('computing' while it is) and both models on the subsets enabled for performance.
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { ComparisonService } from './comparison.service.js';

export function comparisonRoutes(app: TypedApp, services: { comparison: ComparisonService }): void {
  const { comparison } = services;

  registerRoute(app, api.comparison.compare, (request) =>
    comparison.compare(actorOf(request), request.params.id, request.body),
  );
  registerRoute(app, api.comparison.subsets, (request) =>
    comparison.subsets(actorOf(request), request.params.id, request.query),
  );
}

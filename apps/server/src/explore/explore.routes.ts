// The explorer's routes (docs/product.md, Datasets §7): item ids, items, metadata info, histogram,
// colour map and item features. Reading is never license-gated; a comparison context needs the
// license as the comparison does (the caller is passed on for it).
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { ExploreService } from './explore.service.js';

export function exploreRoutes(app: TypedApp, services: { explore: ExploreService }): void {
  const { explore } = services;
  registerRoute(app, api.explore.itemIds, (request) =>
    explore.itemIds(request.params.id, request.body, actorOf(request)),
  );
  registerRoute(app, api.explore.items, (request) =>
    explore.items(request.params.id, request.body, actorOf(request)),
  );
  registerRoute(app, api.explore.metadataInfo, (request) =>
    explore.metadataInfo(request.params.id, request.query, actorOf(request)),
  );
  registerRoute(app, api.explore.histogram, (request) =>
    explore.histogram(request.params.id, request.body, actorOf(request)),
  );
  registerRoute(app, api.explore.colorMap, (request) => explore.colorMap(request.params.id));
  registerRoute(app, api.explore.itemFeatures, (request) =>
    explore.itemFeatures(request.params.id, request.body),
  );
}

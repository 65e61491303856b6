// The explorer's routes (docs/product.md, Datasets §7): item ids (as JSON or as bytes), items,
// metadata info, histogram, colour map and item features. Reading is never license-gated; a
// comparison context needs the license as the comparison does (the caller is passed on for it).
import { api, NUM_ITEMS_HEADER } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { ExploreService } from './explore.service.js';

export function exploreRoutes(app: TypedApp, services: { explore: ExploreService }): void {
  const { explore } = services;
  registerRoute(app, api.explore.itemIds, (request) =>
    explore.itemIds(request.params.id, request.body, actorOf(request)),
  );
  // The same query as bytes: the encoded rows as they are, the item count in a header.
  registerRoute(app, api.explore.itemRows, async (request, reply) => {
    const { bytes, num_items } = await explore.itemRows(
      request.params.id,
      request.body,
      actorOf(request),
    );
    return reply
      .header('content-type', 'application/octet-stream')
      .header(NUM_ITEMS_HEADER, num_items)
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
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

// Attributions of a prediction set: the overview, one heatmap as a PNG, and deleting one.
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { BLOB_HEADERS } from '../http/range.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { AttributionsService } from './attributions.service.js';

export function attributionsRoutes(
  app: TypedApp,
  services: { attributions: AttributionsService },
): void {
  const { attributions } = services;
  registerRoute(app, api.attributions.overview, async (request) => ({
    attribution_overviews: await attributions.overview(
      request.params.id,
      request.params.predictionSetId,
      request.query.data_level,
    ),
  }));
  registerRoute(app, api.attributions.heatmap, async (request, reply) => {
    const png = await attributions.heatmap(
      request.params.id,
      request.params.predictionSetId,
      request.query.name,
      request.query.sample_id,
    );
    // A re-upload under the same name replaces the heatmap: cached briefly, like sample media.
    return reply
      .headers(BLOB_HEADERS)
      .header('cache-control', 'private, max-age=300')
      .type('image/png')
      .send(png);
  });
  registerRoute(app, api.attributions.delete, (request) =>
    attributions.delete(
      actorOf(request),
      request.params.id,
      request.params.predictionSetId,
      request.body.name,
    ),
  );
}

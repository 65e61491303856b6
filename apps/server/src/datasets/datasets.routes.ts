// Datasets: create, list, read and delete them; their version history; their settings.
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { DatasetsService } from './datasets.service.js';

export function datasetsRoutes(app: TypedApp, services: { datasets: DatasetsService }): void {
  const { datasets } = services;

  registerRoute(app, api.datasets.list, () => datasets.list());
  registerRoute(app, api.datasets.create, async (request, reply) => {
    const { dataset, created } = await datasets.create(actorOf(request), request.body);
    return reply.status(created ? 201 : 200).send(dataset);
  });
  registerRoute(app, api.datasets.getByQuery, (request) => datasets.get(request.query.dataset_id));
  registerRoute(app, api.datasets.get, (request) => datasets.get(request.params.id));
  registerRoute(app, api.datasets.deleteByQuery, async (request) => {
    await datasets.delete(actorOf(request), request.query.dataset_id);
    return { ok: true as const };
  });
  registerRoute(app, api.datasets.delete, async (request) => {
    await datasets.delete(actorOf(request), request.params.id);
    return { ok: true as const };
  });
}

export function datasetHistoryRoutes(app: TypedApp, services: { datasets: DatasetsService }): void {
  registerRoute(app, api.datasets.history, (request) =>
    services.datasets.history(request.params.id),
  );
}

export function datasetSettingsRoutes(
  app: TypedApp,
  services: { datasets: DatasetsService },
): void {
  const { datasets } = services;
  registerRoute(app, api.datasets.thumbnails, (request) => datasets.thumbnails(request.params.id));
  registerRoute(app, api.datasets.setThumbnails, (request) =>
    datasets.setThumbnailsEnabled(actorOf(request), request.params.id, request.body.enabled),
  );
  registerRoute(app, api.datasets.iouThreshold, (request) =>
    datasets.iouThreshold(request.params.id),
  );
  registerRoute(app, api.datasets.setIouThreshold, (request) =>
    datasets.setIouThreshold(request.params.id, request.body.iou_threshold),
  );
}

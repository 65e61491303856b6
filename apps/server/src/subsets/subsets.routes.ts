// Subsets (docs/curation.md): list, read, create, change and delete a dataset's subsets. Reading
// is never license-gated; writes are. The export of a subset has its own folder.
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { SubsetsService } from './subsets.service.js';

export function subsetsRoutes(app: TypedApp, services: { subsets: SubsetsService }): void {
  const { subsets } = services;

  registerRoute(app, api.subsets.list, (request) => subsets.list(request.params.id));
  registerRoute(app, api.subsets.get, (request) =>
    subsets.get(request.params.id, request.params.subsetId),
  );
  registerRoute(app, api.subsets.create, async (request, reply) =>
    reply.status(201).send(await subsets.create(actorOf(request), request.params.id, request.body)),
  );
  registerRoute(app, api.subsets.update, (request) =>
    subsets.update(actorOf(request), request.params.id, request.params.subsetId, request.body),
  );
  registerRoute(app, api.subsets.delete, async (request) => {
    await subsets.delete(actorOf(request), request.params.id, request.params.subsetId);
    return { ok: true as const };
  });
}

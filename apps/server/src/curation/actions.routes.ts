// Item actions and restores (docs/curation.md): the pending-changes queue's apply, and the
// version history's restore. Both need a license (the service checks it).
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { ActionsService } from './actions.service.js';

export function actionsRoutes(app: TypedApp, services: { actions: ActionsService }): void {
  const { actions } = services;
  registerRoute(app, api.curation.applyActions, (request) =>
    actions.apply(actorOf(request), request.body),
  );
  registerRoute(app, api.curation.restore, (request) =>
    actions.restore(actorOf(request), request.params.id, request.params.recordId),
  );
}

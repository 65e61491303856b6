// Activities: the background jobs a user sees in the Activity panel.
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { JobsService } from './jobs.service.js';

export function jobsRoutes(app: TypedApp, services: { jobs: JobsService }): void {
  registerRoute(app, api.activities.list, (request) =>
    services.jobs.activities(actorOf(request), request.query.scope, request.query.limit),
  );
}

// Data health checks (docs/health-checks.md): the checks of a dataset with their status, one
// check with its evaluation, running, creating, configuring, enabling and deleting checks.
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { HealthChecksService } from './health-checks.service.js';

export function healthChecksRoutes(
  app: TypedApp,
  services: { healthChecks: HealthChecksService },
): void {
  const { healthChecks } = services;

  registerRoute(app, api.healthChecks.list, (request) =>
    healthChecks.list(request.params.id, request.query),
  );
  registerRoute(app, api.healthChecks.get, (request) =>
    healthChecks.get(request.params.id, request.params.checkId, request.query),
  );
  registerRoute(app, api.healthChecks.run, (request) =>
    healthChecks.run(actorOf(request), request.params.id),
  );
  registerRoute(app, api.healthChecks.create, (request) =>
    healthChecks.create(actorOf(request), request.params.id, request.body),
  );
  registerRoute(app, api.healthChecks.configure, async (request) => {
    await healthChecks.configure(
      actorOf(request),
      request.params.id,
      request.params.checkId,
      request.body,
    );
    return { ok: true as const };
  });
  registerRoute(app, api.healthChecks.settings, async (request) => {
    await healthChecks.settings(
      actorOf(request),
      request.params.id,
      request.params.checkId,
      request.body,
    );
    return { ok: true as const };
  });
  registerRoute(app, api.healthChecks.remove, async (request) => {
    await healthChecks.remove(actorOf(request), request.params.id, request.params.checkId);
    return { ok: true as const };
  });
}

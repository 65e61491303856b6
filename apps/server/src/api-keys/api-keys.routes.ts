// API keys of the signed-in user: list, create, rotate, revoke. Creating, rotating and revoking
// are `session` routes: the route kit refuses them to a caller signed in with an API key.
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { ApiKeysService } from './api-keys.service.js';

export function apiKeysRoutes(app: TypedApp, services: { apiKeys: ApiKeysService }): void {
  registerRoute(app, api.apiKeys.list, (request) => services.apiKeys.list(actorOf(request)));

  registerRoute(app, api.apiKeys.create, async (request, reply) => {
    const created = await services.apiKeys.create(actorOf(request), request.body.name);
    return reply.status(201).send(created);
  });

  registerRoute(app, api.apiKeys.rotate, (request) =>
    services.apiKeys.rotate(actorOf(request), request.params.id),
  );

  registerRoute(app, api.apiKeys.revoke, async (request) => {
    await services.apiKeys.revoke(actorOf(request), request.params.id);
    return { ok: true as const };
  });
}

// First-run setup.
import { api } from '@loupe/contracts';
import type { Config } from '../config.js';
import { registerRoute, setSessionCookie, type TypedApp } from '../http/route-kit.js';
import type { SetupService } from './setup.service.js';
import { toUser } from '../users/users.service.js';

export function setupRoutes(
  app: TypedApp,
  services: { setup: SetupService },
  config: Config,
): void {
  registerRoute(app, api.setup.complete, async (request, reply) => {
    const { user, session } = await services.setup.setup(request.body);
    setSessionCookie(request, reply, session, config.cookieSecure);
    return reply.status(201).send({ user: toUser(user, request.body.company) });
  });
}

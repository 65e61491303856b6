// First-run setup.
import { SessionResponse, SetupRequest } from '@loupe/contracts';
import type { Config } from '../config.js';
import { errors, setSessionCookie, type TypedApp } from '../http/route-kit.js';
import type { SetupService } from './setup.service.js';
import { toUser } from '../users/users.service.js';

export function setupRoutes(
  app: TypedApp,
  services: { setup: SetupService },
  config: Config,
): void {
  app.post(
    '/api/setup',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['setup'],
        summary: 'Complete first-run setup: the company and the first admin (only while INITIAL)',
        body: SetupRequest,
        response: { 201: SessionResponse, ...errors(400, 409) },
      },
    },
    async (request, reply) => {
      const { user, session } = await services.setup.setup(request.body);
      setSessionCookie(request, reply, session, config.cookieSecure);
      return reply.status(201).send({ user: toUser(user, request.body.company) });
    },
  );
}

// Users: list, invite, edit, reset links (admin rules live in the service).
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { UsersService } from './users.service.js';

export function usersRoutes(app: TypedApp, services: { users: UsersService }): void {
  registerRoute(app, api.users.list, (request) => services.users.list(actorOf(request)));

  registerRoute(app, api.users.create, async (request, reply) => {
    const user = await services.users.create(actorOf(request), request.body);
    return reply.status(201).send(user);
  });

  registerRoute(app, api.users.update, (request) =>
    services.users.update(actorOf(request), request.params.id, request.body),
  );

  registerRoute(app, api.users.createResetToken, (request) =>
    services.users.createResetToken(actorOf(request), request.params.id),
  );
}

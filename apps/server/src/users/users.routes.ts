// Users: list, invite, edit, reset links (admin rules live in the service).
import {
  CreateUserRequest,
  ResetPasswordToken,
  UpdateUserRequest,
  User,
  UserIdParams,
  UserList,
} from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { errors, type TypedApp } from '../http/route-kit.js';
import type { UsersService } from './users.service.js';

export function usersRoutes(app: TypedApp, services: { users: UsersService }): void {
  app.get(
    '/api/users',
    {
      schema: {
        tags: ['users'],
        summary: 'List users',
        response: { 200: UserList, ...errors(401) },
      },
    },
    (request) => services.users.list(actorOf(request)),
  );

  app.post(
    '/api/users',
    {
      schema: {
        tags: ['users'],
        summary: 'Invite a user (admins)',
        body: CreateUserRequest,
        response: { 201: User, ...errors(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const user = await services.users.create(actorOf(request), request.body);
      return reply.status(201).send(user);
    },
  );

  app.put(
    '/api/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'Change a user’s name, role or enabled state (admins)',
        params: UserIdParams,
        body: UpdateUserRequest,
        response: { 200: User, ...errors(400, 401, 403, 404, 409) },
      },
    },
    (request) => services.users.update(actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/users/:id/reset-password-token',
    {
      schema: {
        tags: ['users'],
        summary: 'Create a single-use password reset token valid 24 hours (admins)',
        params: UserIdParams,
        response: { 200: ResetPasswordToken, ...errors(401, 403, 404, 409) },
      },
    },
    (request) => services.users.createResetToken(actorOf(request), request.params.id),
  );
}

// Sign-in, sign-out, password change and reset.
import {
  ChangePasswordRequest,
  LoginRequest,
  Ok,
  ResetPasswordRequest,
  SessionResponse,
} from '@loupe/contracts';
import type { Config } from '../config.js';
import { actorOf } from '../http/context.js';
import { MethodNotAllowed } from '../http/errors.js';
import { clearSessionCookie, errors, setSessionCookie, type TypedApp } from '../http/route-kit.js';
import type { AuthService } from './auth.service.js';
import type { UsersService } from '../users/users.service.js';
import { toUser } from '../users/users.service.js';

export function authRoutes(
  app: TypedApp,
  services: { auth: AuthService; users: UsersService },
  config: Config,
): void {
  app.post(
    '/api/login',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password',
        body: LoginRequest,
        response: { 200: SessionResponse, ...errors(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const { user, session } = await services.auth.login(request.body, request.ip);
      setSessionCookie(request, reply, session, config.cookieSecure);
      return { user: toUser(user, await services.users.companyName()) };
    },
  );

  app.post(
    '/api/logout',
    {
      config: { auth: 'public' },
      schema: { tags: ['auth'], summary: 'Sign out', response: { 200: Ok } },
    },
    async (request, reply) => {
      await services.auth.logout(request.sessionToken);
      clearSessionCookie(reply);
      return { ok: true as const };
    },
  );

  // A GET must not sign anyone out: an image or link on another site could do it.
  app.get('/api/logout', { config: { auth: 'public' }, schema: { hide: true } }, () => {
    throw new MethodNotAllowed('Sign out with POST /api/logout.');
  });

  app.put(
    '/api/profile/password',
    {
      schema: {
        tags: ['auth'],
        summary: "Change the signed-in user's password",
        body: ChangePasswordRequest,
        response: { 200: Ok, ...errors(400, 401, 403) },
      },
    },
    async (request) => {
      await services.auth.changePassword(actorOf(request), request.sessionToken, request.body);
      return { ok: true as const };
    },
  );

  app.put(
    '/api/reset-password',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset token',
        body: ResetPasswordRequest,
        response: { 200: Ok, ...errors(400, 429) },
      },
    },
    async (request) => {
      await services.auth.resetPassword(request.body, request.ip);
      return { ok: true as const };
    },
  );
}

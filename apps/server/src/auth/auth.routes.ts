// Sign-in, sign-out, password change and reset.
import { api } from '@loupe/contracts';
import type { Config } from '../config.js';
import { actorOf } from '../http/context.js';
import { MethodNotAllowed } from '../platform/errors.js';
import {
  clearSessionCookie,
  registerRoute,
  setSessionCookie,
  type TypedApp,
} from '../http/route-kit.js';
import type { AuthService } from './auth.service.js';
import type { UsersService } from '../users/users.service.js';
import { toUser } from '../users/users.service.js';

export function authRoutes(
  app: TypedApp,
  services: { auth: AuthService; users: UsersService },
  config: Config,
): void {
  registerRoute(app, api.auth.login, async (request, reply) => {
    const { user, session } = await services.auth.login(request.body, request.ip);
    setSessionCookie(request, reply, session, config.cookieSecure);
    return { user: toUser(user, await services.users.companyName()) };
  });

  registerRoute(app, api.auth.logout, async (request, reply) => {
    await services.auth.logout(request.sessionToken);
    clearSessionCookie(reply);
    return { ok: true as const };
  });

  // A GET must not sign anyone out: an image or link on another site could do it.
  app.get('/api/logout', { config: { auth: 'public' }, schema: { hide: true } }, () => {
    throw new MethodNotAllowed('Sign out with POST /api/logout.');
  });

  registerRoute(app, api.auth.changePassword, async (request) => {
    await services.auth.changePassword(actorOf(request), request.sessionToken, request.body);
    return { ok: true as const };
  });

  registerRoute(app, api.auth.resetPassword, async (request) => {
    await services.auth.resetPassword(request.body, request.ip);
    return { ok: true as const };
  });
}

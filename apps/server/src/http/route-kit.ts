// What every routes file needs: the typed app, error responses for the OpenAPI document, and the
// session cookie writer.
import { ErrorBody } from '@loupe/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import { SESSION_COOKIE } from './context.js';

export function typed(app: FastifyInstance) {
  return app.withTypeProvider<ZodTypeProvider>();
}
export type TypedApp = ReturnType<typeof typed>;

/** Error responses a route can answer, for the OpenAPI document. */
export function errors(...statuses: (400 | 401 | 403 | 404 | 409 | 413 | 415 | 424 | 429)[]) {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBody])) as Record<
    number,
    typeof ErrorBody
  >;
}

/** A session just started (auth.service.ts), as the cookie carries it. */
export interface SessionCookie {
  token: string;
  remember: boolean;
  expiresAt: number;
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  session: SessionCookie,
  cookieSecure: Config['cookieSecure'],
): void {
  void reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: cookieSecure === 'auto' ? request.protocol === 'https' : cookieSecure === 'true',
    // Without "remember me" the cookie lives for the browser session; the server ends it after 24 h.
    ...(session.remember ? { maxAge: Math.floor((session.expiresAt - Date.now()) / 1000) } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

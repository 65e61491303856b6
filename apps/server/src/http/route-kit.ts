// What every routes file needs: the typed app, `registerRoute` that turns an entry of the
// contracts' route table into a Fastify route (schemas, auth, OpenAPI tags and error answers),
// and the session cookie writer.
import {
  ErrorBody,
  isRaw,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  type RouteResult,
  type RouteSpec,
} from '@loupe/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import { SESSION_COOKIE, actorOf } from './context.js';
import { Forbidden } from '../platform/errors.js';

export function typed(app: FastifyInstance) {
  return app.withTypeProvider<ZodTypeProvider>();
}
export type TypedApp = ReturnType<typeof typed>;

/** A session just started (auth.service.ts), as the cookie carries it. */
export interface SessionCookie {
  token: string;
  remember: boolean;
  expiresAt: number;
}

/** A request to route R, with its params, query and body as the table's schemas parsed them. */
export type RouteRequest<R extends RouteSpec> = FastifyRequest<{
  Params: RouteParams<R>;
  Querystring: RouteQuery<R>;
  Body: RouteBody<R>;
}>;

type MaybePromise<T> = T | Promise<T>;

/** One service call: answers the route's response, or the reply it has sent (201, files). */
export type RouteHandler<R extends RouteSpec> = (
  request: RouteRequest<R>,
  reply: FastifyReply,
) => MaybePromise<RouteResult<R> | FastifyReply>;

/** The Fastify schema of a table entry: what validates the request and documents the route. */
export function routeSchema(route: RouteSpec): FastifySchema & Record<string, unknown> {
  const errorBodies: Record<number, unknown> = {};
  for (const status of route.errors) errorBodies[status] = route.errorBodies?.[status] ?? ErrorBody;
  const response = isRaw(route.responses) ? errorBodies : { ...route.responses, ...errorBodies };
  return {
    ...(route.hidden ? { hide: true } : {}),
    tags: [...route.tags],
    summary: route.summary,
    ...(route.params ? { params: route.params } : {}),
    ...(route.query ? { querystring: route.query } : {}),
    ...(route.body && !isRaw(route.body) ? { body: route.body } : {}),
    ...(Object.keys(response).length > 0 ? { response } : {}),
  };
}

/**
 * Minting, rotating and revoking API keys needs a signed-in session: a leaked key must not be
 * able to make itself new keys that outlive its revocation, nor rotate its owner's keys away.
 */
async function requireSession(request: FastifyRequest): Promise<void> {
  actorOf(request);
  if (!request.sessionToken)
    throw new Forbidden('API keys are managed from a signed-in session, not with an API key.');
}

/** The schemas registerRoute made, so a test can tell routes from the table from others. */
const fromTable = new WeakSet<object>();

/** Whether a registered route's schema came from registerRoute (the route table). */
export function isFromTable(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && fromTable.has(schema);
}

/**
 * Registers a route of the contracts' table: its method, path and schemas as the table says, so
 * the server, the OpenAPI document and the typed client cannot disagree. Signed-in routes need
 * a caller (the context hook checks); `session` routes also need the session cookie; `admin`
 * rights and licenses are the services' to check.
 */
export function registerRoute<R extends RouteSpec>(
  app: TypedApp,
  route: R,
  handler: RouteHandler<R>,
): void {
  const schema = routeSchema(route);
  fromTable.add(schema);
  app.route({
    method: route.method,
    url: route.path,
    config: { auth: route.auth === 'public' ? 'public' : 'user' },
    schema,
    ...(route.auth === 'session' ? { preHandler: requireSession } : {}),
    handler: handler as never,
  });
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

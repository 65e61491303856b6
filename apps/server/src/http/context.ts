// Who is calling: resolves the session cookie or X-API-Key header to an Actor before any route
// runs, and refuses cross-site state changes. Routes declare `config: { auth: 'public' }` to be
// reachable without signing in.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Forbidden, Unauthorized } from '../platform/errors.js';

export const SESSION_COOKIE = 'loupe_session';
export const API_KEY_HEADER = 'x-api-key';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: 'public' | 'user';
  }
  interface FastifyRequest {
    // `actor` (users/actor.ts) is declared where the Actor type lives.
    sessionToken?: string;
  }
}

/** Who calls: the Actor (users/actor.ts) of the request's credentials. */
type RequestActor = NonNullable<FastifyRequest['actor']>;

/** How credentials become an actor (the auth service); undefined when they name nobody. */
export interface Authenticator {
  actorForApiKey(key: string): Promise<RequestActor | undefined>;
  actorForSession(token: string): Promise<RequestActor | undefined>;
}

/** Who calls a route that requires a caller (the hook has already refused anonymous calls). */
export function actorOf(request: FastifyRequest): RequestActor {
  if (!request.actor) throw new Unauthorized();
  return request.actor;
}

/** host[:port] with the scheme's default port dropped, so http://x:80 equals Host: x. */
function hostOf(url: string): string {
  return new URL(url).host;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function refuseCrossSite(request: FastifyRequest, publicUrl: string | undefined): void {
  if (!STATE_CHANGING.has(request.method)) return;
  const origin = request.headers.origin;
  if (request.headers['sec-fetch-site'] === 'cross-site' && !origin) {
    throw new Forbidden('Cross-site request refused.');
  }
  if (!origin) return; // SDKs, curl and same-origin form posts in older browsers send none.
  let originHost: string;
  try {
    originHost = hostOf(origin);
  } catch {
    throw new Forbidden(`Cross-site request refused: the Origin header '${origin}' is not a URL.`);
  }
  const hostHeader = request.headers.host ? hostOf(`http://${request.headers.host}`) : undefined;
  const allowed = new Set([hostHeader, publicUrl ? hostOf(publicUrl) : undefined]);
  if (!allowed.has(originHost)) {
    throw new Forbidden(`Cross-site request refused: Origin ${origin} is not this server.`);
  }
}

export function registerContext(
  app: FastifyInstance,
  services: { auth: Authenticator },
  publicUrl: string | undefined,
): void {
  app.decorateRequest('actor', undefined);
  app.decorateRequest('sessionToken', undefined);
  app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
    refuseCrossSite(request, publicUrl);
    const apiKey = request.headers[API_KEY_HEADER];
    const cookie = request.cookies?.[SESSION_COOKIE];
    if (typeof apiKey === 'string' && apiKey.length > 0) {
      request.actor = await services.auth.actorForApiKey(apiKey);
      // A wrong key is an error even on public routes: the caller meant to authenticate.
      if (!request.actor)
        throw new Unauthorized("The X-API-Key header does not match an enabled user's key.");
    } else if (cookie) {
      request.sessionToken = cookie;
      request.actor = await services.auth.actorForSession(cookie);
    }
    // API routes need a signed-in caller unless they say otherwise; the web app's own files and
    // the SDK download are for everyone (the app itself asks the visitor to sign in).
    const url = request.routeOptions.url;
    const auth =
      request.routeOptions.config?.auth ?? (url?.startsWith('/api/') ? 'user' : 'public');
    if (auth === 'user' && url && !request.actor) throw new Unauthorized();
  });
}

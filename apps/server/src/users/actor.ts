// Who is acting: a signed-in user, a user through one of their API keys, or the server itself
// (seeding the demo datasets). Services take an Actor wherever a rule depends on the caller —
// permissions, the license gate, whose name history records and activities carry.
import { isAdmin } from '@loupe/contracts';
import { Forbidden } from '../platform/errors.js';
import type { UserRecord } from './users.repository.js';

export type Actor =
  /** A user signed in with the session cookie. */
  | { kind: 'user'; user: UserRecord }
  /** A user calling with one of their API keys (SDKs, scripts). */
  | { kind: 'api_key'; user: UserRecord; keyId: string }
  /** The server itself, for work no user asked for; `reason` says which (logs, tests). */
  | { kind: 'system'; reason: string };

export type UserActor = Extract<Actor, { user: UserRecord }>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Who calls: set by http/context.ts from the session cookie or the X-API-Key header. */
    actor?: Actor;
  }
}

export function userActor(user: UserRecord): Actor {
  return { kind: 'user', user };
}

export function apiKeyActor(user: UserRecord, keyId: string): Actor {
  return { kind: 'api_key', user, keyId };
}

export function systemActor(reason: string): Actor {
  return { kind: 'system', reason };
}

/** The user behind the actor; null for the server itself. */
export function actingUser(actor: Actor): UserRecord | null {
  return actor.kind === 'system' ? null : actor.user;
}

/** The id written as the author of history records and jobs; null (shown as 'Loupe') for the server. */
export function actorUserId(actor: Actor): string | null {
  return actingUser(actor)?.id ?? null;
}

/** The user behind an actor that has to be a person (their keys, password, profile). */
export function requireUser(actor: Actor): UserRecord {
  if (actor.kind === 'system') throw new Forbidden('Only a signed-in user can do this.');
  return actor.user;
}

/** Whether the actor is an enabled administrator (the server itself is not one). */
export function actorIsAdmin(actor: Actor): boolean {
  const user = actingUser(actor);
  return user !== null && isAdmin({ role: user.role, enabled: user.enabled });
}

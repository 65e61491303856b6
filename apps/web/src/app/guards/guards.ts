// The four route guards of docs/product.md, Shell §2 as pure decisions: each answers where to send the
// visitor instead, or null to let them in.
import type { AppState } from '@loupe/contracts';
import { DEFAULT_PATH, loginPathFor, redirectTarget, type LocationLike } from './redirect';

export type GuardName = 'initialized' | 'notInitialized' | 'authenticated' | 'notAuthenticated';

type GuardState = Pick<AppState, 'setup_state' | 'user' | 'auth_state'>;

function externalLoginNeeded(state: GuardState): boolean {
  return state.auth_state.type === 'oauth' && !state.auth_state.is_oauth_logged_in;
}

export function guardRedirect(
  guard: GuardName,
  state: GuardState,
  location: LocationLike,
): string | null {
  const initialized = state.setup_state === 'COMPLETE';
  switch (guard) {
    case 'initialized':
      if (initialized) return null;
      if (externalLoginNeeded(state)) return location.pathname === '/login' ? null : '/login';
      return '/setup';
    case 'notInitialized':
      if (initialized) return DEFAULT_PATH;
      // With an external provider the wizard needs a provider login first.
      return externalLoginNeeded(state) ? '/login' : null;
    case 'authenticated':
      return state.user ? null : loginPathFor(location);
    case 'notAuthenticated':
      return state.user ? redirectTarget(location.search) : null;
  }
}

/** The first redirect among several guards, checked in order. */
export function firstRedirect(
  guards: readonly GuardName[],
  state: GuardState,
  location: LocationLike,
): string | null {
  for (const guard of guards) {
    const target = guardRedirect(guard, state, location);
    if (target !== null) return target;
  }
  return null;
}

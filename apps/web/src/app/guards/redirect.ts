// The redirect parameter that carries a guarded deep link through sign-in (docs/product.md, Shell §2).
export const REDIRECT_PARAM = 'redirect';
export const DEFAULT_PATH = '/datasets';

export interface LocationLike {
  pathname: string;
  search: string;
  hash: string;
}

/** The login address that returns to `location` (path, query and hash) after sign-in. */
export function loginPathFor(location: LocationLike): string {
  const target = `${location.pathname}${location.search}${location.hash}`;
  if (!target || target === '/' || target === DEFAULT_PATH) return '/login';
  return `/login?${REDIRECT_PARAM}=${encodeURIComponent(target)}`;
}

/** Where to go after sign-in: the redirect parameter when it is a path of this app. */
export function redirectTarget(search: string): string {
  const raw = new URLSearchParams(search).get(REDIRECT_PARAM);
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) {
    return DEFAULT_PATH;
  }
  if (raw.startsWith('/login') || raw.startsWith('/setup')) return DEFAULT_PATH;
  return raw;
}

// Paths and query strings as the server reads them.
import type { RouteSpec } from '../routes/define.js';

/**
 * The route's path with each `:name` replaced by its encoded parameter. Throws on a missing
 * parameter rather than calling a wrong URL.
 */
export function routePath(route: Pick<RouteSpec, 'method' | 'path'>, params?: object): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '')
      throw new Error(`${route.method} ${route.path}: the path parameter ${name} is missing.`);
    return encodeURIComponent(String(value));
  });
}

/**
 * The query string (with its `?`, or nothing): strings as they are, other values JSON-encoded
 * (numbers, booleans and arrays parse back on the server), undefined skipped.
 */
export function queryString(query?: object): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    search.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

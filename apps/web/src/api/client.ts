// The typed HTTP client: same-origin calls, JSON bodies, cookies included, errors as ApiError
// (docs/product.md, Shell §7, §8).
import type { ErrorBody } from '@loupe/contracts';
import { ApiError, ServerUnreachableError } from './ApiError';
import { serverUnreachable } from './unreachable';

const GATEWAY_ERRORS = new Set([502, 503, 504]);

export type QueryParams = Record<string, unknown>;

export interface RequestOptions {
  query?: QueryParams;
  body?: unknown;
  signal?: AbortSignal;
}

/** Builds `path?query`: strings as they are, other values JSON-encoded, undefined skipped. */
export function buildUrl(path: string, query?: QueryParams): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('application/json');
}

export async function request<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const url = buildUrl(path, options.query);
  const init: RequestInit = { method, credentials: 'include', signal: options.signal };
  if (method !== 'GET') {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(options.body ?? {});
  }
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    serverUnreachable.report();
    throw new ServerUnreachableError(url, error);
  }
  const json = isJson(response);
  const body: unknown = json ? await response.json().catch(() => undefined) : undefined;
  // A proxy in front of Loupe answers 502-504 without our error body when Loupe is down.
  if (!json && GATEWAY_ERRORS.has(response.status)) {
    serverUnreachable.report();
    throw new ServerUnreachableError(url, new Error(`HTTP ${response.status} from a gateway`));
  }
  if (response.status >= 400) {
    const error = (body ?? {}) as Partial<ErrorBody>;
    throw new ApiError(
      response.status,
      error.description || response.statusText || `HTTP ${response.status}`,
      url,
      Boolean(error.retriable),
    );
  }
  return body as T;
}

export const http = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body }),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, { body }),
  delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, { body }),
};

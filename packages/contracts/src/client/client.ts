// The typed API client: `client.call(api.users.create, { body })` answers the route's response
// type, or throws ApiError. One client for every TypeScript caller; the transport (base URL,
// headers, fetch) is what differs between a browser, the SDK, e2e, benchmarks and tests.
import type { RawBody, RouteInput, RouteOutput, RouteSpec } from '../routes/define.js';
import { isRaw } from '../routes/define.js';
import { ApiError } from './api-error.js';
import type { CookieJar } from './cookies.js';
import { JsonText } from './json-text.js';
import { queryString, routePath } from './url.js';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface Transport {
  /** Prepended to every path: '' (the default) calls the page's own origin. */
  baseUrl?: string;
  /** Sent with every call: an API key (`X-API-Key`), or anything else the caller needs. */
  headers?: Record<string, string> | (() => Record<string, string>);
  /** Keeps the session cookie outside a browser: sent with each call, updated from each answer. */
  cookies?: CookieJar;
  /** The browser sends its cookies with 'include'; elsewhere the jar does. */
  credentials?: RequestInit['credentials'];
  fetch?: FetchLike;
}

export interface CallOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** The arguments after the route: the input may be left out when the route needs none. */
export type CallArgs<R extends RouteSpec> =
  object extends RouteInput<R>
    ? [input?: RouteInput<R>, options?: CallOptions]
    : [input: RouteInput<R>, options?: CallOptions];

export interface ApiClient {
  call<R extends RouteSpec>(route: R, ...args: CallArgs<R>): Promise<RouteOutput<R>>;
  /** The URL a call would go to (for links, `<img src>`, downloads). */
  url<R extends RouteSpec>(route: R, input?: RouteInput<R>): string;
}

interface AnyInput {
  params?: object;
  query?: object;
  body?: unknown;
  contentType?: string;
}

const isJson = (response: Response) =>
  (response.headers.get('content-type') ?? '').includes('json');

/** How much of an answer that is not JSON an error keeps. */
const EXCERPT_CHARS = 500;

/** The start of an answer's text (a proxy's error page), read no further than needed. */
async function excerpt(response: Response): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return undefined;
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // the connection ended: keep what came
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.slice(0, EXCERPT_CHARS).trim() || undefined;
}

/** The error body of a failed call, whatever the server or a proxy in front of it answered. */
async function toApiError(response: Response, url: string): Promise<ApiError> {
  const body: unknown = isJson(response)
    ? await response.json().catch(() => undefined)
    : await excerpt(response);
  const error = (typeof body === 'object' && body !== null ? body : {}) as {
    description?: unknown;
    retriable?: unknown;
  };
  const description =
    typeof error.description === 'string' && error.description
      ? error.description
      : response.statusText || `HTTP ${response.status}`;
  return new ApiError(
    response.status,
    description,
    error.retriable === true,
    url,
    body,
    response.headers,
  );
}

export function createClient(transport: Transport = {}): ApiClient {
  const base = transport.baseUrl ?? '';
  const doFetch: FetchLike = transport.fetch ?? ((url, init) => fetch(url, init));

  const urlOf = (route: RouteSpec, input: AnyInput) =>
    `${base}${routePath(route, input.params)}${queryString(input.query)}`;

  async function call(route: RouteSpec, input: AnyInput = {}, options: CallOptions = {}) {
    const url = urlOf(route, input);
    const headers: Record<string, string> = {
      ...(typeof transport.headers === 'function' ? transport.headers() : transport.headers),
    };
    const cookie = transport.cookies?.header();
    if (cookie) headers.cookie = cookie;
    let body: RequestInit['body'];
    if (isRaw(route.body)) {
      body = input.body as RawBody;
      headers['content-type'] = input.contentType ?? 'application/octet-stream';
    } else if (input.body instanceof JsonText) {
      body = input.body.text;
      headers['content-type'] = 'application/json';
    } else if (input.body !== undefined) {
      body = JSON.stringify(input.body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, options.headers);
    const init: RequestInit = { method: route.method, headers };
    if (body !== undefined) init.body = body;
    if (transport.credentials) init.credentials = transport.credentials;
    if (options.signal) init.signal = options.signal;
    // Streams need half-duplex in Node's fetch.
    if (body && typeof body === 'object' && 'getReader' in body)
      (init as { duplex?: string }).duplex = 'half';

    const response = await doFetch(url, init);
    transport.cookies?.store(response.headers.getSetCookie?.() ?? []);
    if (response.status >= 400) throw await toApiError(response, url);
    if (isRaw(route.responses)) return response;
    if (!isJson(response)) {
      await response.body?.cancel().catch(() => undefined);
      return undefined;
    }
    return response.json();
  }

  return {
    call: call as ApiClient['call'],
    url: (route, input) => urlOf(route, (input ?? {}) as AnyInput),
  };
}

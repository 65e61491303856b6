// The web app's transport for the one typed client of @loupe/contracts: same-origin calls with
// the session cookie, and a call the server never answers reported as unreachable (docs/web.md,
// "Errors"). Every call is `call(api.<resource>.<name>, input, { signal })`.
import { createClient, type FetchLike } from '@loupe/contracts';
import { ServerUnreachableError } from './ApiError';
import { serverUnreachable } from './unreachable';

/** A proxy in front of a stopped server answers these without our JSON error body. */
const GATEWAY_ERRORS = new Set([502, 503, 504]);

const isJson = (response: Response) =>
  (response.headers.get('content-type') ?? '').includes('application/json');

/**
 * The browser's fetch, with no answer (or a gateway's answer for a stopped server) turned into
 * ServerUnreachableError and the app-wide report; an aborted call stays an abort.
 */
export const browserFetch: FetchLike = async (url, init) => {
  let response: Response;
  try {
    // Read at call time, so tests can stand a fake in for the browser's fetch.
    response = await fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw error;
    serverUnreachable.report();
    throw new ServerUnreachableError(url, error);
  }
  if (GATEWAY_ERRORS.has(response.status) && !isJson(response)) {
    await response.body?.cancel().catch(() => undefined);
    serverUnreachable.report();
    throw new ServerUnreachableError(url, new Error(`HTTP ${response.status} from a gateway`));
  }
  return response;
};

export const client = createClient({ credentials: 'include', fetch: browserFetch });

/** `call(api.users.update, { params: { id }, body })`: typed from the route table. */
export const call = client.call;

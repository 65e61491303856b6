// Calls of the API with the rules of the upload protocol (docs/sdk-protocol.md), through the
// contracts' typed client: the X-API-Key header, `{description, retriable}` errors as LoupeError,
// retries with jittered exponential backoff for connection failures, timeouts and retriable
// answers (never for other 4xx answers), and the client's request body budget, which 413 answers
// lower.
import {
  ApiError,
  createClient,
  JsonText,
  RETRIABLE_STATUSES_WITHOUT_BODY,
  UPLOAD_BACKOFF_MS,
  UPLOAD_BODY_BUDGET_BYTES,
  UPLOAD_MAX_BACKOFF_MS,
  UPLOAD_RETRIES,
  UPLOAD_TIMEOUT_MS,
  type ApiClient,
  type CallArgs,
  type RouteInput,
  type RouteOutput,
  type RouteSpec,
  type RowError,
} from '@loupe/contracts';
import { LoupeError } from './errors.js';

export interface HttpOptions {
  url: string;
  apiKey?: string;
  /** Retries after the first attempt, for failures that may pass later (default 5). */
  retries?: number;
  /** The first wait before a retry in ms, doubled each time, ± 25 % (default 1,000). */
  backoffMs?: number;
  /** The longest wait before a retry in ms, also for a Retry-After (default 30,000). */
  maxBackoffMs?: number;
  /** A request with no answer after this many ms counts as a connection failure (default 300,000). */
  timeoutMs?: number;
  /** The most bytes an upload puts in one request body (default 8 MiB); 413 answers lower it. */
  bodyBudgetBytes?: number;
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /**
   * The caller can split this body: a connection the server closes while the body is still being
   * written is then reported at once as a presumed 413 (ClosedWhileSending) instead of retried.
   */
  splittable?: boolean;
}

/** What follows the route in a call: its input (optional when it needs none) and options. */
export type HttpArgs<R extends RouteSpec> =
  object extends RouteInput<R>
    ? [input?: RouteInput<R>, options?: RequestOptions]
    : [input: RouteInput<R>, options?: RequestOptions];

/**
 * The server closed the connection while the request body was being written. Servers (and proxies)
 * do that after answering 413 to a body over their limit, and Node's fetch then loses the answer,
 * so an upload treats it as a 413.
 */
export class ClosedWhileSending extends LoupeError {
  constructor(bytes: number, url: string) {
    super(
      413,
      `The server closed the connection while the request body (${megabytes(bytes)}) was being sent, as it does when a body is over its limit.`,
      false,
      [],
      url,
    );
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The system error code behind a failed fetch (`ECONNREFUSED`, `EPIPE`, …). */
function codeOf(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/** The bytes of a request body as sent. */
function bodyBytes(body: unknown): number {
  if (body instanceof JsonText) return Buffer.byteLength(body.text);
  if (body instanceof Uint8Array) return body.byteLength;
  return body === undefined ? 0 : Buffer.byteLength(JSON.stringify(body));
}

/**
 * A refusal as the SDK reports it. The server's own answers say whether to retry; an answer that
 * is not the server's JSON came from a proxy in front of it, and is retried for the statuses a
 * busy or restarting server gives.
 */
function refusal(error: ApiError): LoupeError {
  const body = error.body as { description?: unknown; errors?: unknown } | string | undefined;
  if (typeof body === 'object' && body !== null && typeof body.description === 'string')
    return new LoupeError(
      error.status,
      body.description,
      error.retriable,
      Array.isArray(body.errors) ? (body.errors as RowError[]) : [],
      error.url,
    );
  // The client names an answer without a status text `HTTP <status>`.
  const status = error.description.startsWith('HTTP ')
    ? error.description
    : `${error.status} ${error.description}`;
  return new LoupeError(
    error.status,
    `${status}${typeof body === 'string' ? `: ${body}` : ''}`,
    RETRIABLE_STATUSES_WITHOUT_BODY.includes(error.status),
    [],
    error.url,
  );
}

export class Http {
  readonly base: string;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  /** How long a request may wait for its answer, and a download for its next bytes. */
  readonly timeoutMs: number;
  private readonly client: ApiClient;
  private budget: number;

  constructor(options: HttpOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.retries = Math.max(0, options.retries ?? UPLOAD_RETRIES);
    this.backoffMs = options.backoffMs ?? UPLOAD_BACKOFF_MS;
    this.maxBackoffMs = options.maxBackoffMs ?? UPLOAD_MAX_BACKOFF_MS;
    this.timeoutMs = options.timeoutMs ?? UPLOAD_TIMEOUT_MS;
    this.budget = options.bodyBudgetBytes ?? UPLOAD_BODY_BUDGET_BYTES;
    const fetchImpl = options.fetch ?? fetch;
    this.client = createClient({
      baseUrl: this.base,
      headers: {
        accept: 'application/json',
        ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
      },
      fetch: (url, init) => fetchImpl(url, init),
    });
  }

  /** The most bytes an upload puts in one request body now. */
  get bodyBudget(): number {
    return this.budget;
  }

  /** A body of `refusedBytes` was answered 413: later bodies stay within half of it. */
  lowerBodyBudget(refusedBytes: number): void {
    this.budget = Math.max(1, Math.min(this.budget, Math.floor(refusedBytes / 2)));
  }

  /**
   * Calls a route of the API (`api.datasets.get`, …) and answers its response, retrying what may
   * pass later; a refusal throws LoupeError.
   */
  async call<R extends RouteSpec>(route: R, ...args: HttpArgs<R>): Promise<RouteOutput<R>> {
    const [input, options = {}] = args;
    // Built first: a path parameter missing is the caller's mistake, not worth a retry.
    const url = this.client.url(route, input);
    for (let attempt = 0; ; attempt++) {
      // Until the answer is in: a JSON body is read inside the call; the body of a raw answer
      // (a download) is its reader's to time.
      const timeout = new AbortController();
      const timer = setTimeout(
        () =>
          timeout.abort(
            new DOMException(`no answer within ${this.timeoutMs / 1000} s`, 'TimeoutError'),
          ),
        this.timeoutMs,
      );
      const args = [input, { signal: timeout.signal }] as CallArgs<R>;
      try {
        return await this.client.call(route, ...args);
      } catch (error) {
        if (error instanceof ApiError) {
          const refused = refusal(error);
          if (!refused.retriable || attempt >= this.retries) throw refused;
          await this.wait(attempt, error.headers.get('retry-after'));
          continue;
        }
        // A success whose JSON does not parse is not a connection failure.
        if (error instanceof SyntaxError) throw error;
        if (options.splittable && codeOf(error) === 'EPIPE')
          throw new ClosedWhileSending(bodyBytes(input?.body), url);
        if (attempt >= this.retries) {
          const reason =
            (error as Error).name === 'TimeoutError'
              ? `no answer within ${this.timeoutMs / 1000} s`
              : String((error as Error).cause ?? (error as Error).message);
          const tries = attempt + 1;
          throw new LoupeError(
            0,
            `Cannot reach ${this.base}: ${reason} (after ${tries} attempt${tries === 1 ? '' : 's'})`,
            true,
            [],
            url,
          );
        }
        await this.wait(attempt);
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /** Waits before retry number `attempt + 1`: the server's Retry-After, or the jittered backoff. */
  private wait(attempt: number, retryAfter?: string | null): Promise<void> {
    const seconds = retryAfter ? Number(retryAfter) : NaN;
    const ms = Number.isFinite(seconds)
      ? Math.min(this.maxBackoffMs, Math.max(0, seconds * 1000))
      : Math.min(this.maxBackoffMs, this.backoffMs * 2 ** attempt) * (0.75 + Math.random() / 2);
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
}

// HTTP with the rules of the API and of the upload protocol (docs/sdk-protocol.md): the X-API-Key
// header, JSON bodies, `{description, retriable}` errors, retries with jittered exponential backoff
// for connection failures, timeouts and retriable answers (never for other 4xx answers), and the
// client's request body budget, which 413 answers lower.
import {
  RETRIABLE_STATUSES_WITHOUT_BODY,
  UPLOAD_BACKOFF_MS,
  UPLOAD_BODY_BUDGET_BYTES,
  UPLOAD_MAX_BACKOFF_MS,
  UPLOAD_RETRIES,
  UPLOAD_TIMEOUT_MS,
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

/** A request body already serialised as JSON (uploads measure their rows' bytes as they build it). */
export class JsonText {
  readonly bytes: number;

  constructor(readonly text: string) {
    this.bytes = Buffer.byteLength(text);
  }
}

export interface RequestOptions {
  contentType?: string;
  /**
   * The caller can split this body: a connection the server closes while the body is still being
   * written is then reported at once as a presumed 413 (ClosedWhileSending) instead of retried.
   */
  splittable?: boolean;
}

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

export class Http {
  readonly base: string;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private budget: number;

  constructor(private readonly options: HttpOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.retries = Math.max(0, options.retries ?? UPLOAD_RETRIES);
    this.backoffMs = options.backoffMs ?? UPLOAD_BACKOFF_MS;
    this.maxBackoffMs = options.maxBackoffMs ?? UPLOAD_MAX_BACKOFF_MS;
    this.timeoutMs = options.timeoutMs ?? UPLOAD_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? fetch;
    this.budget = options.bodyBudgetBytes ?? UPLOAD_BODY_BUDGET_BYTES;
  }

  /** The most bytes an upload puts in one request body now. */
  get bodyBudget(): number {
    return this.budget;
  }

  /** A body of `refusedBytes` was answered 413: later bodies stay within half of it. */
  lowerBodyBudget(refusedBytes: number): void {
    this.budget = Math.max(1, Math.min(this.budget, Math.floor(refusedBytes / 2)));
  }

  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<T> {
    const url = `${this.base}${path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    let payload: RequestInit['body'];
    let bytes = 0;
    if (body instanceof Uint8Array) {
      payload = body as unknown as RequestInit['body'];
      bytes = body.byteLength;
      headers['content-type'] = options.contentType ?? 'application/octet-stream';
    } else if (body instanceof JsonText) {
      payload = body.text;
      bytes = body.bytes;
      headers['content-type'] = 'application/json';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      bytes = Buffer.byteLength(payload);
      headers['content-type'] = 'application/json';
    }
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method,
          headers,
          body: payload,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (error) {
        if (options.splittable && codeOf(error) === 'EPIPE')
          throw new ClosedWhileSending(bytes, url);
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
        continue;
      }
      if (response.ok) {
        const type = response.headers.get('content-type') ?? '';
        return (
          type.includes('json')
            ? await response.json()
            : new Uint8Array(await response.arrayBuffer())
        ) as T;
      }
      const error = await this.error(response, url);
      if (error.retriable && attempt < this.retries) {
        await this.wait(attempt, response.headers.get('retry-after'));
        continue;
      }
      throw error;
    }
  }

  private async error(response: Response, url: string): Promise<LoupeError> {
    const text = await response.text().catch(() => '');
    let body: { description?: unknown; retriable?: unknown; errors?: LoupeError['errors'] } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // not JSON: a proxy in front of the server answered
    }
    if (typeof body?.description === 'string') {
      return new LoupeError(
        response.status,
        body.description,
        body.retriable === true,
        Array.isArray(body.errors) ? body.errors : [],
        url,
      );
    }
    const excerpt = text.trim().slice(0, 500);
    return new LoupeError(
      response.status,
      `${response.status} ${response.statusText}${excerpt ? `: ${excerpt}` : ''}`,
      RETRIABLE_STATUSES_WITHOUT_BODY.includes(response.status),
      [],
      url,
    );
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

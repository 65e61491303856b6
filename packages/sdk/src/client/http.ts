// HTTP with the rules of the API: the X-API-Key header, JSON bodies, `{description, retriable}`
// errors, and retries with exponential backoff for connection failures and retriable answers
// (never for 4xx input errors). Uploads are idempotent, so a retried request is safe.
import { LoupeError } from './errors.js';

export interface HttpOptions {
  url: string;
  apiKey?: string;
  /** Attempts for retriable failures (default 5). */
  retries?: number;
  /** First backoff in ms, doubled each attempt (default 500). */
  backoffMs?: number;
  fetch?: typeof fetch;
}

export class Http {
  readonly base: string;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: HttpOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.retries = options.retries ?? 5;
    this.backoffMs = options.backoffMs ?? 500;
    this.fetchImpl = options.fetch ?? fetch;
  }

  async request<T>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> {
    const url = `${this.base}${path}`;
    const headers: Record<string, string> = {};
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    let payload: RequestInit['body'];
    if (body instanceof Uint8Array) {
      payload = body as unknown as RequestInit['body'];
      headers['content-type'] = contentType ?? 'application/octet-stream';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchImpl(url, { method, headers, body: payload });
      } catch (error) {
        if (attempt >= this.retries) {
          throw new LoupeError(
            0,
            `Cannot reach ${this.base}: ${(error as Error).cause ?? (error as Error).message}`,
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
        await this.wait(attempt);
        continue;
      }
      throw error;
    }
  }

  private async error(response: Response, url: string): Promise<LoupeError> {
    let body: { description?: string; retriable?: boolean; errors?: LoupeError['errors'] } = {};
    try {
      body = (await response.json()) as typeof body;
    } catch {
      // not JSON: fall back to the status text
    }
    const retriable = body.retriable ?? (response.status >= 500 || response.status === 429);
    return new LoupeError(
      response.status,
      body.description ?? `${response.status} ${response.statusText}`,
      retriable,
      body.errors ?? [],
      url,
    );
  }

  private wait(attempt: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.backoffMs * 2 ** (attempt - 1)));
  }
}

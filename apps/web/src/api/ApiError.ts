// The client's error types: every failing call becomes one of these (docs/product.md, Shell §8).

/** An HTTP answer with status ≥ 400, carrying the server's description and retriable flag. */
export class ApiError extends Error {
  readonly status: number;
  readonly description: string;
  readonly url: string;
  readonly retriable: boolean;

  constructor(status: number, description: string, url: string, retriable: boolean) {
    super(`${status} ${description} (${url})`);
    this.name = 'ApiError';
    this.status = status;
    this.description = description;
    this.url = url;
    this.retriable = retriable;
  }
}

/** The request never got an answer: the server is down or the network is gone. */
export class ServerUnreachableError extends Error {
  readonly url: string;

  constructor(url: string, cause?: unknown) {
    super(`The server is unreachable (${url})`, { cause });
    this.name = 'ServerUnreachableError';
    this.url = url;
  }
}

/** The message to show a user for any error: the server's description when there is one. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.description;
  if (error instanceof Error) return error.message;
  return String(error);
}

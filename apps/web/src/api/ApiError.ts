// The client's error types: every failing call becomes one of these (docs/product.md, Shell §8).
// A status ≥ 400 is the contracts' ApiError (status, description, retriable, URL), the one every
// TypeScript caller of the API gets.
import { ApiError } from '@loupe/contracts';

export { ApiError };

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

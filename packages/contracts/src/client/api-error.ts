// The one error a call answers with when the server says no: its status and the error body of
// docs/api.md (`{description, retriable}`; batch uploads add `errors`).
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
    readonly retriable: boolean,
    /** The URL called, path and query included. */
    readonly url: string,
    /**
     * The whole parsed error body, for fields beyond the description (a batch's row errors); for
     * an answer that is not JSON (a proxy's page), the start of its text.
     */
    readonly body?: unknown,
    /** The answer's headers (`Retry-After` says when to try again). */
    readonly headers: Headers = new Headers(),
  ) {
    super(`${status} ${description}`);
    this.name = 'ApiError';
  }
}

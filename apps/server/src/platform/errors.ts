// Errors that services throw and the HTTP layer turns into `{description, retriable}` with the
// status docs/api.md lists. Every layer throws these; services never see HTTP types.
import { MAX_BATCH_ERRORS } from '@loupe/contracts';

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retriable = false,
    /** Extra fields for the error body, e.g. per-row errors of a batch. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}
export class Unauthorized extends AppError {
  constructor(message = 'You are not signed in. Sign in, or send a valid X-API-Key header.') {
    super(401, message);
  }
}
export class Forbidden extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}
export class NotFound extends AppError {
  constructor(message: string) {
    super(404, message);
  }
}
export class MethodNotAllowed extends AppError {
  constructor(message: string) {
    super(405, message);
  }
}
export class Conflict extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}
export class PayloadTooLarge extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}
export class UnsupportedMediaType extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}
export class FailedDependency extends AppError {
  constructor(message: string) {
    super(424, message, true);
  }
}
export class TooManyRequests extends AppError {
  /** Sent as the Retry-After header when set. */
  readonly retryAfterSeconds?: number;

  constructor(message: string, retryAfterMs?: number) {
    super(429, message, true);
    if (retryAfterMs !== undefined)
      this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  }
}

/** A batch with bad rows: 400 listing each row and field; nothing was written. */
export class BatchRejected extends AppError {
  constructor(errors: { row: number; id?: string; field: string; message: string }[]) {
    const first = errors[0];
    const summary = first
      ? `row ${first.row}${first.id ? ` (id ${first.id})` : ''}, ${first.field}: ${first.message}`
      : '';
    super(
      400,
      `The batch was rejected and nothing was written: ${errors.length >= MAX_BATCH_ERRORS ? `at least ${MAX_BATCH_ERRORS}` : errors.length} problem${errors.length === 1 ? '' : 's'}; first: ${summary}`,
      false,
      { errors: errors.slice(0, MAX_BATCH_ERRORS) },
    );
  }
}

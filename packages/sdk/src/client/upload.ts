// The upload protocol's engine (docs/sdk-protocol.md), shared by samples, predictions, features
// and attributions: batches are cut into request bodies within the client's byte budget, two
// requests are in flight, a 413 halves the budget and sends the refused rows again in smaller
// pieces, and row errors count from the start of the upload.
import { UPLOAD_REQUESTS_IN_FLIGHT, UPLOAD_RETRIES } from '@loupe/contracts';
import { LoupeError } from './errors.js';
import { ClosedWhileSending, type Http } from './http.js';

/** One row ready to send. */
export interface Row {
  /** Its position in everything given to the upload method. */
  index: number;
  id?: string;
  /** Its bytes in a request body, with the comma that separates it from the next row. */
  size: number;
}

export interface Endpoint<R extends Row, A> {
  /** Bytes of a body around its rows. */
  envelope: number;
  /** Rows one request may carry at most. */
  maxRows: number;
  /** Posts these rows as one request (splittable: see RequestOptions). */
  post(rows: R[]): Promise<A>;
  /** Called once per request that landed, in the order they land. */
  landed(rows: R[], answer: A): void;
}

/** The bytes of a body holding `rows`. */
function bodyBytes(envelope: number, rows: Row[]): number {
  return envelope + rows.reduce((sum, row) => sum + row.size, 0) - 1;
}

/** The longest run of rows from `start` whose body stays within `budget`: at least one row. */
function cut<R extends Row>(
  rows: R[],
  start: number,
  budget: number,
  envelope: number,
  maxRows: number,
): R[] {
  let bytes = envelope - 1 + rows[start]!.size;
  let end = start + 1;
  while (end < rows.length && end - start < maxRows && bytes + rows[end]!.size <= budget) {
    bytes += rows[end]!.size;
    end++;
  }
  return rows.slice(start, end);
}

/** A 413 for a single row: nothing smaller can be sent, so the upload stops and names the row. */
function rowTooLarge(row: Row, refusal: LoupeError): LoupeError {
  const message = "this row alone is larger than the server's request body limit";
  return new LoupeError(
    413,
    `Row ${row.index}${row.id ? ` (id ${row.id})` : ''} cannot be sent: ${message}. ` +
      `${refusal.description} (an administrator can raise LOUPE_BODY_LIMIT_MB)`,
    false,
    [{ row: row.index, ...(row.id ? { id: row.id } : {}), field: '(row)', message }],
    refusal.url,
  );
}

/** The server numbers a refused request's rows from 0: number them from the start of the upload. */
function numbered(error: unknown, rows: Row[]): unknown {
  if (!(error instanceof LoupeError) || error.errors.length === 0) return error;
  return new LoupeError(
    error.status,
    error.description,
    error.retriable,
    error.errors.map((e) => ({ ...e, row: rows[e.row]?.index ?? e.row + rows[0]!.index })),
    error.url,
  );
}

/**
 * Sends `rows` in requests within the budget, one after the other. A 413 (or a connection closed
 * while the body was being written) lowers the budget to half that body and sends its rows again
 * in pieces that fit; a single row refused that way ends the upload.
 */
async function sendPiece<R extends Row, A>(
  http: Http,
  endpoint: Endpoint<R, A>,
  rows: R[],
): Promise<void> {
  let start = 0;
  let closedTries = 0;
  while (start < rows.length) {
    const part = cut(rows, start, http.bodyBudget, endpoint.envelope, endpoint.maxRows);
    let answer: A;
    try {
      answer = await endpoint.post(part);
    } catch (error) {
      if (!(error instanceof LoupeError) || error.status !== 413) throw numbered(error, part);
      if (part.length > 1) {
        http.lowerBodyBudget(bodyBytes(endpoint.envelope, part));
        continue;
      }
      // A closed connection usually hides the server's 413: ask again for its own answer.
      if (error instanceof ClosedWhileSending && closedTries++ < UPLOAD_RETRIES) continue;
      throw rowTooLarge(part[0]!, error);
    }
    endpoint.landed(part, answer);
    start += part.length;
    closedTries = 0;
  }
}

/**
 * Sends the rows of `batches` (each prepared while the requests before it are in flight) with up
 * to UPLOAD_REQUESTS_IN_FLIGHT requests at once, each cut to the budget at the moment it starts.
 * The first failure stops the upload: no request starts after it, and the call fails once nothing
 * is in flight any more (a request in flight beside the refused one may still land).
 */
export async function upload<R extends Row, A>(
  http: Http,
  batches: AsyncIterable<R[]> | Iterable<R[]>,
  endpoint: Endpoint<R, A>,
): Promise<void> {
  let failure: { error: unknown } | undefined;
  const inFlight = new Set<Promise<void>>();
  try {
    for await (const batch of batches) {
      let start = 0;
      while (start < batch.length) {
        while (inFlight.size >= UPLOAD_REQUESTS_IN_FLIGHT && !failure) await Promise.race(inFlight);
        if (failure) break;
        const piece = cut(batch, start, http.bodyBudget, endpoint.envelope, endpoint.maxRows);
        start += piece.length;
        const sending: Promise<void> = sendPiece(http, endpoint, piece)
          .catch((error: unknown) => {
            failure ??= { error };
          })
          .finally(() => inFlight.delete(sending));
        inFlight.add(sending);
      }
      if (failure) break;
    }
  } finally {
    // Whatever stopped the loop, nothing is left running behind the caller's back.
    await Promise.all(inFlight);
  }
  if (failure) throw failure.error;
}

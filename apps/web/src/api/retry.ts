// Which failed queries are retried (docs/product.md, Shell §8): only retriable errors with status ≥ 500, at
// most twice, never 401 or 413.
import { ApiError } from './ApiError';

export const MAX_QUERY_RETRIES = 2;

export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_QUERY_RETRIES) return false;
  if (!(error instanceof ApiError)) return false;
  if (error.status === 401 || error.status === 413) return false;
  return error.retriable && error.status >= 500;
}

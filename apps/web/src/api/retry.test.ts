import { expect, test } from 'vitest';
import { ApiError, ServerUnreachableError } from './ApiError';
import { shouldRetryQuery } from './retry';

const error = (status: number, retriable: boolean) =>
  new ApiError(status, 'x', retriable, '/api/x');

test('retriable errors with status 500 or above are retried at most twice', () => {
  for (const status of [500, 502, 503, 504]) {
    expect(shouldRetryQuery(0, error(status, true))).toBe(true);
    expect(shouldRetryQuery(1, error(status, true))).toBe(true);
    expect(shouldRetryQuery(2, error(status, true))).toBe(false);
  }
});

test('nothing else is retried', () => {
  expect(shouldRetryQuery(0, error(500, false))).toBe(false);
  expect(shouldRetryQuery(0, error(401, true))).toBe(false);
  expect(shouldRetryQuery(0, error(413, true))).toBe(false);
  expect(shouldRetryQuery(0, error(409, true))).toBe(false);
  expect(shouldRetryQuery(0, new ServerUnreachableError('/api/x'))).toBe(false);
  expect(shouldRetryQuery(0, new Error('boom'))).toBe(false);
});

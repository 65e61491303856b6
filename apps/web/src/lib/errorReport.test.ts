import { expect, test } from 'vitest';
import { ApiError } from '../api/ApiError';
import { errorReportFileName, errorReportText } from './errorReport';

test('the report names itself with a timestamp', () => {
  expect(errorReportFileName(new Date('2026-11-22T12:34:56.789Z'))).toBe(
    'loupe-error-report-2026-11-22T12-34-56-789Z.txt',
  );
});

test('the report carries message, stack and cause', () => {
  const cause = new ApiError(503, 'Database busy', true, '/api/users');
  const text = errorReportText(new Error('Users failed', { cause }));
  expect(text).toContain('Message: Users failed');
  expect(text).toContain('Stack:\nError: Users failed');
  expect(text).toContain('Cause:');
  expect(text).toContain('Message: 503 Database busy');
  expect(text).toContain('Status: 503');
  expect(text).toContain('URL: /api/users');
});

test('something that is not an error is still reported', () => {
  expect(errorReportText(undefined)).toContain('The error could not be parsed.');
  expect(errorReportText({ code: 7 })).toContain('Value: {"code":7}');
});

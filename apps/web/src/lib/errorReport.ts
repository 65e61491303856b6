// The error report file every page-level fallback offers: stack, message and cause.
import { ApiError } from '../api/ApiError';
import { downloadText, fileTimestamp } from './download';

const unparsable = 'The error could not be parsed.';

function describe(error: unknown, depth: number): string[] {
  if (depth > 5) return ['(cause chain truncated)'];
  if (error instanceof Error) {
    const lines = [`Message: ${error.message}`];
    if (error instanceof ApiError) {
      lines.push(`Status: ${error.status}`, `URL: ${error.url}`, `Retriable: ${error.retriable}`);
    }
    lines.push(`Stack:\n${error.stack ?? '(no stack)'}`);
    if (error.cause !== undefined) lines.push('Cause:', ...describe(error.cause, depth + 1));
    return lines;
  }
  if (error === undefined || error === null) return [unparsable];
  try {
    return [`Value: ${typeof error === 'string' ? error : JSON.stringify(error)}`];
  } catch {
    return [unparsable];
  }
}

export function errorReportText(error: unknown, now = new Date()): string {
  return [
    'Loupe error report',
    `Time: ${now.toISOString()}`,
    `Page: ${window.location.href}`,
    `Browser: ${navigator.userAgent}`,
    '',
    ...describe(error, 0),
    '',
  ].join('\n');
}

export function errorReportFileName(now = new Date()): string {
  return `loupe-error-report-${fileTimestamp(now)}.txt`;
}

export function downloadErrorReport(error: unknown): void {
  const now = new Date();
  downloadText(errorReportFileName(now), errorReportText(error, now));
}

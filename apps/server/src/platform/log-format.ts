// Where pino's JSON lines go: as they are for services and containers, or as one short readable
// line each on a terminal (time, level, message, key fields). Redaction happens before either.
import { Writable } from 'node:stream';

export type LogFormat = 'auto' | 'json' | 'pretty';

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
const COLOURS: Record<number, string> = {
  10: '90',
  20: '90',
  30: '32',
  40: '33',
  50: '31',
  60: '35',
};
/** Fields every line carries or that the line shows in its own way. */
const SHOWN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'v', 'req', 'res', 'err']);
/** A field's value is cut here: a line stays a line. */
const VALUE_CHARS = 200;

/** JSON lines unless LOG_FORMAT says pretty, or says auto and the output is a terminal. */
export function isPretty(format: LogFormat, out: NodeJS.WritableStream): boolean {
  return format === 'pretty' || (format === 'auto' && (out as { isTTY?: boolean }).isTTY === true);
}

/** A pino destination that writes `out` readable lines instead of the JSON it is given. */
export function prettyDestination(out: NodeJS.WritableStream): Writable {
  const colour = (out as { isTTY?: boolean }).isTTY === true && !process.env.NO_COLOR;
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const text = chunk.toString();
      out.write(
        text
          .split('\n')
          .filter(Boolean)
          .map((line) => `${formatLine(line, colour)}\n`)
          .join(''),
      );
      done();
    },
  });
}

/** One pino JSON line as `12:03:04.567 INFO  message GET /api/x 200 3ms key=value`. */
export function formatLine(line: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return safe(line);
  }
  if (typeof entry !== 'object' || entry === null) return safe(line);
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const label = LEVELS[level] ?? String(entry.level);
  const parts = [
    clock(typeof entry.time === 'number' ? entry.time : Date.now()),
    colour ? `\u001b[${COLOURS[level] ?? '0'}m${label}\u001b[0m` : label,
  ];
  if (typeof entry.msg === 'string' && entry.msg) parts.push(safe(entry.msg));
  const req = entry.req as { method?: unknown; url?: unknown } | undefined;
  if (req && typeof req === 'object') parts.push(safe(`${String(req.method)} ${String(req.url)}`));
  const res = entry.res as { statusCode?: unknown } | undefined;
  if (res && typeof res === 'object' && res.statusCode !== undefined)
    parts.push(String(res.statusCode));
  if (typeof entry.responseTime === 'number') parts.push(`${Math.round(entry.responseTime)}ms`);
  for (const [key, value] of Object.entries(entry)) {
    if (SHOWN.has(key) || key === 'responseTime' || value === undefined) continue;
    parts.push(`${safe(key)}=${fieldValue(value)}`);
  }
  let text = parts.join(' ');
  const err = entry.err as { message?: unknown; stack?: unknown } | undefined;
  if (err && typeof err === 'object') {
    const detail = typeof err.stack === 'string' ? err.stack : String(err.message);
    text += detail
      .split('\n')
      .map((stackLine) => `\n    ${safe(stackLine)}`)
      .join('');
  }
  return text;
}

function clock(ms: number): string {
  const at = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, '0')}`;
}

function fieldValue(value: unknown): string {
  const text =
    typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : (JSON.stringify(value) ?? '');
  return safe(text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS)}…` : text);
}

/** Control characters are shown escaped: a logged name cannot move the cursor or recolour. */
function safe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/**
 * Secrets never reach a log, the API's or a worker's: cookies, keys, passwords and tokens are
 * censored wherever pino finds them (pino's `redact` option).
 */
export const LOG_REDACTION = {
  paths: [
    'req.headers.cookie',
    'req.headers["x-api-key"]',
    'req.headers.authorization',
    'res.headers["set-cookie"]',
    'password',
    'token',
    '*.password',
    '*.newPassword',
    '*.oldPassword',
    '*.token',
    '*.key',
  ],
  censor: '[redacted]',
};

// The terminal log format: one short line per entry, nothing a logged value could use to take
// over the terminal, and the choice between it and JSON.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { LOG_REDACTION, formatLine, isPretty, prettyDestination } from './log-format.js';

const at = new Date(2026, 0, 2, 3, 4, 5, 67).getTime();

describe('formatLine', () => {
  it('shows time, level, message, the request and other fields, not pid or hostname', () => {
    const line = JSON.stringify({
      level: 20,
      time: at,
      pid: 7,
      hostname: 'box',
      reqId: 'req-1',
      req: { method: 'GET', url: '/api/state', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
      responseTime: 1.6,
      msg: 'request completed',
    });
    expect(formatLine(line)).toBe(
      '03:04:05.067 DEBUG request completed GET /api/state 200 2ms reqId=req-1',
    );
  });

  it('puts an error’s stack under its line', () => {
    const line = JSON.stringify({
      level: 50,
      time: at,
      msg: 'request failed',
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at f (a.ts:1:1)' },
    });
    expect(formatLine(line)).toBe(
      '03:04:05.067 ERROR request failed\n    Error: boom\n        at f (a.ts:1:1)',
    );
  });

  it('escapes control characters, so a logged value cannot clear or recolour the terminal', () => {
    const line = JSON.stringify({ level: 30, time: at, msg: 'a\u001b[2J', name: 'b\u009b31m' });
    const text = formatLine(line);
    expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/); // eslint-disable-line no-control-regex
    expect(text).toContain('a\\u001b[2J');
    expect(formatLine('plain \u001b[31m text')).toBe('plain \\u001b[31m text');
  });

  it('keeps a line a line: quotes values with spaces and cuts long ones', () => {
    const text = formatLine(
      JSON.stringify({ level: 40, time: at, msg: 'slow', dataset: 'My set', ids: 'x'.repeat(500) }),
    );
    expect(text).toContain('dataset="My set"');
    expect(text).toContain(`ids=${'x'.repeat(200)}…`);
    expect(text.split('\n')).toHaveLength(1);
  });
});

describe('the log format choice', () => {
  const tty = Object.assign(new Writable(), { isTTY: true });
  const pipe = new Writable();

  it('is readable on a terminal and JSON elsewhere unless LOG_FORMAT says otherwise', () => {
    expect(isPretty('auto', tty)).toBe(true);
    expect(isPretty('auto', pipe)).toBe(false);
    expect(isPretty('json', tty)).toBe(false);
    expect(isPretty('pretty', pipe)).toBe(true);
  });

  it('writes each JSON line it receives as a readable one', async () => {
    let text = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    const destination = prettyDestination(out);
    await new Promise<void>((resolve) =>
      destination.write(
        `${JSON.stringify({ level: 30, time: at, msg: 'one' })}\n${JSON.stringify({ level: 30, time: at, msg: 'two' })}\n`,
        () => resolve(),
      ),
    );
    expect(text).toBe('03:04:05.067 INFO  one\n03:04:05.067 INFO  two\n');
  });
});

describe('LOG_REDACTION', () => {
  it('censors secrets at the top of a logged object and one level down', () => {
    const lines: string[] = [];
    const log = pino(
      { redact: LOG_REDACTION },
      new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) }),
    );
    log.info({ password: 'p1', token: 't1', user: { password: 'p2', key: 'k2' } }, 'saved');
    expect(lines.join('')).not.toMatch(/p1|t1|p2|k2/);
    expect(lines.join('')).toContain('[redacted]');
  });
});

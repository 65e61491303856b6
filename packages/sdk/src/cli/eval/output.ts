// Printing a result: one JSON object on stdout, undefined numbers (NaN) as null.
import type { CliIo } from '../io.js';

export function printJson(io: CliIo, value: unknown): number {
  io.stdout(
    `${JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`,
  );
  return 0;
}

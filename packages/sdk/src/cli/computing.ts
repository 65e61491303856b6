// What the commands that wait for a computation of the server share (`loupe performance`,
// `loupe compare`): their waiting options, the timeout read from them, the dataset checked to
// have the split asked for, and the progress line on stderr.
import { ALL_SPLITS } from '@loupe/contracts';
import type { LoupeClient } from '../client/client.js';
import { LoupeError } from '../client/errors.js';
import { CliError } from './errors.js';

export const COMPUTING_OPTIONS = {
  subsets: { type: 'boolean' },
  json: { type: 'boolean' },
  'no-wait': { type: 'boolean' },
  timeout: { type: 'string' },
} as const;

/** --timeout in seconds (600 when absent); a usage error unless a positive number. */
export function timeoutSeconds(values: Record<string, unknown>, usage: string): number {
  const timeout = values.timeout === undefined ? 600 : Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0)
    throw new CliError(`--timeout must be a positive number of seconds\n\n${usage}`);
  return timeout;
}

/** The dataset by name or id, refused (exit code 2) when it has no split `split`. */
export async function datasetWithSplit(client: LoupeClient, name: string, split: string) {
  const dataset = await client.dataset(name).catch((error: Error) => {
    if (error instanceof LoupeError) throw error;
    throw new CliError(error.message, 1);
  });
  const splits = [ALL_SPLITS, ...dataset.info.splits.filter((s) => s !== ALL_SPLITS)];
  if (!splits.includes(split))
    throw new CliError(
      `--split ${split}: dataset '${dataset.info.name}' has the splits ${splits.join(', ')}`,
    );
  return dataset;
}

/**
 * Progress of a computation the server runs (performance, a comparison) on stderr: redrawn in
 * place on a terminal, one line per change otherwise.
 */
export function computingReporter(what: string, io: { stderr(text: string): void }, tty: boolean) {
  let last = '';
  return {
    update({ fraction, pendingSubsets }: { fraction: number; pendingSubsets: number }) {
      const text =
        `computing ${what}  ${Math.floor(fraction * 100)}%` +
        (pendingSubsets ? `, ${pendingSubsets} subsets pending` : '');
      if (text === last) return;
      last = text;
      io.stderr(tty ? `\r${text}   ` : `${text}\n`);
    },
    done() {
      if (tty && last) io.stderr('\n');
    },
  };
}

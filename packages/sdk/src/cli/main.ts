// The `loupe` command line: the list of commands and the top-level error handling.
import { dispatch, type Command } from './command.js';
import { compareCommand } from './compare.js';
import { CliError } from './errors.js';
import { demoCommand, importCommandGroup, uploadCommand } from './datasets.js';
import { evalCommand } from './eval/index.js';
import { exportCommand } from './export.js';
import { performanceCommand } from './performance.js';
import type { CliIo } from './io.js';

/** Every `loupe` command. Add new ones (upload, import, demo, …) here. */
export const commands: readonly Command[] = [
  uploadCommand,
  importCommandGroup,
  demoCommand,
  evalCommand,
  exportCommand,
  performanceCommand,
  compareCommand,
];

/** Runs `loupe` with the given arguments; resolves to the process exit code. */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  try {
    return await dispatch('loupe', commands, args, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`loupe: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`loupe: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}

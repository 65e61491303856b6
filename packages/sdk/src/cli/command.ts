// The shape of a `loupe` subcommand, and a dispatcher that routes argv to one of several, so new
// commands (upload, import, …) are one entry in a list.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './errors.js';
import type { CliIo } from './io.js';

export interface Command {
  name: string;
  /** One line for the list of commands. */
  summary: string;
  /** Full help text, printed for --help. */
  usage: string;
  /** A group's commands (`loupe import folder`): help after one of them is that command's help. */
  commands?: readonly Command[];
  /** Runs the command with the arguments after its name; resolves to the exit code. */
  run(args: string[], io: CliIo): Promise<number>;
}

/** Routes `args[0]` to the command of that name; prints help for none, -h or --help. */
export async function dispatch(
  program: string,
  commands: readonly Command[],
  args: string[],
  io: CliIo,
): Promise<number> {
  const [name, ...rest] = args;
  const list = (): string =>
    `Usage: ${program} <command> [options]\n\nCommands:\n` +
    commands.map((c) => `  ${c.name.padEnd(16)}${c.summary}`).join('\n') +
    `\n\nRun '${program} <command> --help' for a command's options.\n`;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    io.stdout(list());
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr(list());
    throw new CliError(`unknown command "${name}"`);
  }
  const toSubcommand = command.commands !== undefined && !!rest[0] && !rest[0].startsWith('-');
  if (!toSubcommand && (rest.includes('-h') || rest.includes('--help'))) {
    io.stdout(command.usage);
    return 0;
  }
  return command.run(rest, io);
}

/** node:util parseArgs with errors turned into usage errors (exit code 2). */
export function parseOptions(
  args: string[],
  options: NonNullable<ParseArgsConfig['options']>,
  usage: string,
): { values: Record<string, string | boolean | undefined> } {
  try {
    const { values } = parseArgs({ args, options, strict: true, allowPositionals: false });
    return { values: values as Record<string, string | boolean | undefined> };
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${usage}`);
  }
}

/** The value of a required string option. */
export function required(values: Record<string, unknown>, name: string, usage: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') {
    throw new CliError(`missing option --${name}\n\n${usage}`);
  }
  return value;
}

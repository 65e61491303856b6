// @loupe/sdk: the TypeScript client and the `loupe` command line.
export { runCli, commands } from './cli/main.js';
export type { Command } from './cli/command.js';
export type { CliIo } from './cli/io.js';
export { CliError } from './cli/errors.js';

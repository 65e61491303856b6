// Errors the CLI reports to the user without a stack trace, with the exit code they mean.

/** Bad input or usage: the message names the file, row and field; exit code 2. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

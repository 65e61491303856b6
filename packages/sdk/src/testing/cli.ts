// Runs the `loupe` CLI in-process against a server, with its output captured, for the CLI's tests.
import { nodeIo, type CliIo } from '../cli/io.js';
import { runCli } from '../cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `loupe <args> --url <url> --api-key <key>`: its exit code, stdout and stderr. */
export async function runCliAgainst(
  server: { url: string; apiKey: string },
  args: readonly string[],
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    ...nodeIo,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
  };
  const code = await runCli([...args, '--url', server.url, '--api-key', server.apiKey], io);
  return { code, stdout, stderr };
}

// The CLI's only contact with the outside world, so commands can be tested without files or a tty.
import { readdir, readFile } from 'node:fs/promises';
import { CliError } from './errors.js';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readFile(path: string): Promise<Uint8Array>;
  /** File names (not paths) in a directory. */
  readDir(path: string): Promise<string[]>;
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'ENOTDIR') return 'is not a directory';
  if (code === 'EACCES') return 'permission denied';
  return (error as Error).message;
}

export const nodeIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  async readFile(path) {
    try {
      return await readFile(path);
    } catch (error) {
      throw new CliError(`${path}: cannot read the file (${describe(error)})`);
    }
  },
  async readDir(path) {
    try {
      return await readdir(path);
    } catch (error) {
      throw new CliError(`${path}: cannot read the directory (${describe(error)})`);
    }
  },
};

/** Reads a UTF-8 text file, dropping a byte-order mark. */
export async function readText(io: CliIo, path: string): Promise<string> {
  const text = new TextDecoder('utf-8').decode(await io.readFile(path));
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

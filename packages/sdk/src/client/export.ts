// Downloads an export (a subset, or chosen items) and unpacks it into a folder: the zip is
// streamed to a temporary file beside the folder, then unpacked entry by entry
// (docs/formats.md, "Exporting"). A stalled download fails after the client's timeout.
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DataLevel, ExportFormat } from '@loupe/contracts';
import { LoupeError } from './errors.js';
import { unzipFile } from './unzip.js';

export interface ExportResult {
  /** The folder the export was unpacked into. */
  out: string;
  /** The archive's name as the server gave it. */
  filename: string;
  files: number;
  bytes: number;
}

export interface ExportOptions {
  format: ExportFormat;
  /** An empty or new folder. */
  out: string;
  /** Also export this prediction set (a model's name or id): COCO results or a prediction CSV. */
  predictions?: string;
}

export interface ExportItemsOptions extends ExportOptions {
  dataLevel: DataLevel;
  /** Names the archive (default 'selection'). */
  name?: string;
}

/** Thrown when the output folder has files already: an export never mixes with other files. */
export class OutputNotEmpty extends Error {
  override name = 'OutputNotEmpty';
  constructor(readonly out: string) {
    super(`${out} is not empty: export into an empty or new folder.`);
  }
}

/** Refuses a folder with anything in it; a missing folder is fine (it is made). */
export async function requireEmptyFolder(out: string): Promise<void> {
  const entries = await readdir(out).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    if (error.code === 'ENOTDIR') throw new OutputNotEmpty(out);
    throw error;
  });
  if (entries.length > 0) throw new OutputNotEmpty(out);
}

function filenameOf(response: Response): string {
  const header = response.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (utf8) return decodeURIComponent(utf8[1]!);
  return /filename="([^"]*)"/i.exec(header)?.[1] ?? 'export.zip';
}

/**
 * Streams the answer's body to a temporary file (a read that waits longer than `idleMs` fails)
 * and unpacks it into `out`.
 */
export async function saveExport(
  response: Response,
  out: string,
  idleMs: number,
): Promise<ExportResult> {
  await requireEmptyFolder(out);
  const folder = await mkdtemp(join(tmpdir(), 'loupe-export-'));
  const zip = join(folder, 'export.zip');
  try {
    if (!response.body) throw new LoupeError(0, 'The export answer has no body.', true);
    const reader = response.body.getReader();
    const file = createWriteStream(zip);
    const download = pipeline(
      (async function* () {
        for (;;) {
          let timer: NodeJS.Timeout | undefined;
          const stalled = new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              void reader.cancel();
              reject(
                new LoupeError(0, `The export download stalled for ${idleMs / 1000} s.`, true),
              );
            }, idleMs);
          });
          try {
            const { done, value } = await Promise.race([reader.read(), stalled]);
            if (done) return;
            yield value;
          } finally {
            clearTimeout(timer);
          }
        }
      })(),
      file as Writable,
    );
    await download.catch((error: unknown) => {
      if (error instanceof LoupeError) throw error;
      throw new LoupeError(
        0,
        `The export download was cut short (${(error as Error).message}): try again.`,
        true,
      );
    });
    await mkdir(out, { recursive: true });
    const { files, bytes } = await unzipFile(zip, out);
    return { out, filename: filenameOf(response), files, bytes };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

// What the COCO and CSV writers share: the job they are given (the dataset, its items in pages,
// how to read media) and the rules for the paths and names they write (docs/formats.md,
// "Exporting").
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import type {
  PredictedObjectRecord,
  PredictionRecord,
} from '../prediction-sets/prediction-sets.repository.js';
import type { CsvTextSource } from './csv-text.js';
import type { ExportObject, ExportSample } from './export.repository.js';
import type { SpoolFolder } from './text-spool.js';
import type { ZipWriter } from './zip-stream.js';

/** The split of samples that have none (a real split of that name shares its files). */
export const DEFAULT_SPLIT = 'default';

/** One page of exported samples, in upload order, with what the format needs of each. */
export interface ExportPage {
  samples: ExportSample[];
  /** Ground-truth objects by sample id: all of them, or only the chosen ones at object level. */
  objects: Map<string, ExportObject[]>;
  predictions: Map<string, PredictionRecord>;
  predictedObjects: Map<string, PredictedObjectRecord[]>;
}

export interface ExportJob {
  dataset: DatasetRecord;
  /** "<dataset> / <subset>", for the files that say where they come from. */
  title: string;
  pages: AsyncIterable<ExportPage>;
  predictionSet: { id: string; name: string; hasProbabilities: boolean } | null;
  /** Uploaded metadata fields of the sample level, in the order they were added. */
  metadataColumns: string[];
  /** A media reference's bytes, or undefined when they cannot be read. */
  readMedia(ref: string): Promise<Buffer | undefined>;
  /** False only for benchmarks of the text files: no media bytes are read or written. */
  includeMedia: boolean;
  /**
   * A CSV's first rows made on a worker thread (csv-text.ts), written before `pages`, which
   * then start where the thread stopped; absent when the thread cannot make them.
   */
  csvText?: CsvTextSource;
  spools: SpoolFolder;
  now: Date;
}

export type ExportWriter = (zip: ZipWriter, job: ExportJob) => Promise<void>;

// A path part any file system and unzip tool takes as it is: letters, digits and a few marks,
// not starting with a dot or a tilde (the renamed files start with one), not ending with a dot
// or a space.
const SAFE_PART = /^[\p{L}\p{N}_(+,=@-][\p{L}\p{N} ._()+,=@-]*$/u;

/** The same for ASCII, without the cost of Unicode classes (ids are mostly ASCII). */
const SAFE_ASCII_PART = /^[A-Za-z0-9_(+,=@-][A-Za-z0-9 ._()+,=@-]*$/;

function isSafePart(part: string): boolean {
  const last = part.charCodeAt(part.length - 1);
  return (
    part.length <= 200 &&
    last !== 46 && // '.'
    last !== 32 && // ' '
    (SAFE_ASCII_PART.test(part) || SAFE_PART.test(part))
  );
}

/** `id` itself when it is a safe relative path (`a.jpg`, `cams/1/a.jpg`), else undefined. */
export function safeRelativePath(id: string): string | undefined {
  if (id.length > 500) return undefined;
  if (!id.includes('/')) return isSafePart(id) ? id : undefined;
  return id.split('/').every(isSafePart) ? id : undefined;
}

/** A file name for a sample: its id when that is a safe path, else `~<seq><extension>`. */
export function sampleFileName(sample: { id: string; seq: number }): string {
  const safe = safeRelativePath(sample.id);
  if (safe) return safe;
  const extension = /\.[A-Za-z0-9]{1,5}$/.exec(sample.id)?.[0] ?? '';
  return `~${sample.seq}${extension}`;
}

/** A name as one safe path part: unsafe characters become `_` (`a/b` → `a_b`). */
export function safePart(name: string): string {
  const cleaned = name
    .replace(/[^\p{L}\p{N} ._()+,=@-]/gu, '_')
    .replace(/^[. ~]+/, '_')
    .replace(/[. ]+$/, '_')
    .slice(0, 120);
  return cleaned || '_';
}

/** One file name per split: the split's name when safe, else a cleaned one made unique. */
export class SplitFileNames {
  private readonly byName = new Map<string, string>();
  private readonly taken = new Set<string>();

  of(split: string): string {
    let token = this.byName.get(split);
    if (token !== undefined) return token;
    const base = isSafePart(split) && split.length <= 120 ? split : safePart(split);
    token = base;
    for (let n = 2; this.taken.has(token.toLowerCase()); n++) token = `${base}_${n}`;
    this.taken.add(token.toLowerCase());
    this.byName.set(split, token);
    return token;
  }
}

/** The sample's part of an object id: `img.jpg#7` of sample `img.jpg` → `7`. */
export function objectSuffix(sampleId: string, objectId: string): string {
  return objectId.startsWith(`${sampleId}#`) ? objectId.slice(sampleId.length + 1) : objectId;
}

/**
 * Reads ahead: `read` runs for up to `window` items at once while the caller consumes results
 * in order (media from S3 arrive in parallel, the archive gets them in order).
 */
export async function* readAhead<T, R>(
  items: readonly T[],
  read: (item: T) => Promise<R>,
  window = 8,
): AsyncGenerator<[T, R]> {
  const pending: Promise<R>[] = [];
  let next = 0;
  while (next < items.length && pending.length < window) pending.push(read(items[next++]!));
  for (let i = 0; i < items.length; i++) {
    const result = await pending.shift()!;
    if (next < items.length) pending.push(read(items[next++]!));
    yield [items[i]!, result];
  }
}

const MISSING_LISTED = 10_000;

/** Samples whose media could not be read: listed in `missing_media.txt` at the end. */
export class MissingMedia {
  private readonly ids: string[] = [];
  private count = 0;

  add(id: string): void {
    this.count++;
    if (this.ids.length < MISSING_LISTED) this.ids.push(id);
  }

  async write(zip: ZipWriter): Promise<void> {
    if (this.count === 0) return;
    const more = this.count - this.ids.length;
    await zip.addStream('missing_media.txt', [
      `The media of these ${this.count} samples could not be read and are not in this folder:\n`,
      ...this.ids.map((id) => `${id}\n`),
      more > 0 ? `… and ${more} more\n` : '',
    ]);
  }
}

/** Concatenates text pieces and spools into one chunk stream (one archive entry). */
export async function* joined(
  pieces: (string | AsyncIterable<Buffer | string>)[],
): AsyncGenerator<Buffer | string> {
  for (const piece of pieces) {
    if (typeof piece === 'string') yield piece;
    else yield* piece;
  }
}

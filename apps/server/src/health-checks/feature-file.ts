// A feature matrix the checks read, written to a file as its vectors are read from the database
// (docs/health-checks.md, "Snapshot"): the server never holds the matrix (784 MB at a million
// items of the default descriptor) in memory; the checks process reads the file whole and the
// server hashes it in parts for the checks' fingerprints.
import { join } from 'node:path';
import { FileArray } from '../platform/task-files.js';
import type { SentFeatureMatrix } from './snapshot.js';

/** Writes each page's rows (ascending, `vectors` row after row) where they belong in `file`. */
export function rowWriter(file: FileArray, dimension: number) {
  const width = dimension * 4;
  return (rows: Int32Array, vectors: Uint8Array): void => {
    // Runs of consecutive rows go in one write: a page in upload order is one run.
    for (let start = 0; start < rows.length;) {
      let end = start + 1;
      while (end < rows.length && rows[end] === rows[end - 1]! + 1) end++;
      file.write(rows[start]! * width, vectors.subarray(start * width, end * width));
      start = end;
    }
  };
}

/**
 * The feature `name` of `rows` items in a new file of `folder`, filled by `read` (which hands
 * each page of rows to the writer and answers which rows got a vector).
 */
export async function featureFile(
  folder: string,
  name: string,
  dimension: number,
  rows: number,
  read: (put: (rows: Int32Array, vectors: Uint8Array) => void) => Promise<Uint8Array>,
): Promise<SentFeatureMatrix> {
  const file = new FileArray(
    join(folder, `${encodeURIComponent(name)}.f32`),
    'Float32Array',
    rows * dimension,
  );
  try {
    const present = await read(rowWriter(file, dimension));
    return { name, dimension, data: file, present };
  } catch (error) {
    file.remove();
    throw error;
  }
}

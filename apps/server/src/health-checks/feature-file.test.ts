import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileArray } from '../platform/task-files.js';
import { featureFile } from './feature-file.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'feature-file-test-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** The file's floats (each part copied as it comes: the generator reuses one buffer). */
const floats = (file: FileArray) => [
  ...new Float32Array(
    new Uint8Array(Array.from(file.parts(12), (part) => [...part]).flat()).buffer,
  ),
];

describe('featureFile', () => {
  it('puts each page of rows where they belong, rows without a vector zero', async () => {
    const dimension = 2;
    const pageOf = (rows: number[]) => ({
      rows: Int32Array.from(rows),
      vectors: new Uint8Array(new Float32Array(rows.flatMap((r) => [r, -r])).buffer),
    });
    const feature = await featureFile(folder, 'image.descriptor', dimension, 7, async (put) => {
      // A run (0-2), then rows apart (4, 6): three writes in all, in any page order.
      for (const page of [pageOf([4, 6]), pageOf([0, 1, 2])]) put(page.rows, page.vectors);
      return Uint8Array.from([1, 1, 1, 0, 1, 0, 1]);
    });
    expect(feature.name).toBe('image.descriptor');
    expect([...feature.present]).toEqual([1, 1, 1, 0, 1, 0, 1]);
    const file = feature.data as FileArray;
    expect(floats(file)).toEqual([0, -0, 1, -1, 2, -2, 0, 0, 4, -4, 0, 0, 6, -6]);
    file.remove();
    expect(readdirSync(folder)).toEqual([]);
  });

  it('removes its file when the read fails', async () => {
    await expect(
      featureFile(folder, 'f', 4, 10, () => Promise.reject(new Error('database gone'))),
    ).rejects.toThrow('database gone');
    expect(readdirSync(folder)).toEqual([]);
  });
});

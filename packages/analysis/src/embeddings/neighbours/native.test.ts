import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../random.js';
import { createAnnIndex } from './ann.js';
import { createExactIndex, exactSearch } from './exact.js';
import { nativeExactSearch, nativeView } from './native.js';

const d = 12;

/** Random rows placed `before` rows into a larger buffer, with `after` rows behind them. */
function offsetRows(n: number, before: number, after: number, seed: number): Float32Array {
  const random = createRandom(seed);
  const whole = Float32Array.from({ length: (before + n + after) * d }, () => random.normal());
  return whole.subarray(before * d, (before + n) * d);
}

describe('nativeView', () => {
  it('hands over a view that starts at byte 0 and covers its whole buffer as it is', () => {
    const dense = new Float32Array(8);
    expect(nativeView(dense)).toBe(dense);
  });

  it('copies a view that starts later, ends early or lives in shared memory', () => {
    const whole = Float32Array.from({ length: 10 }, (_, i) => i);
    for (const view of [
      whole.subarray(3, 7),
      whole.subarray(0, 5),
      new Float32Array(new SharedArrayBuffer(16)).fill(2),
    ]) {
      const based = nativeView(view);
      expect(based).not.toBe(view);
      expect(based.byteOffset).toBe(0);
      expect(based.byteLength).toBe(based.buffer.byteLength);
      expect(Object.prototype.toString.call(based.buffer)).toBe('[object ArrayBuffer]');
      expect(Array.from(based)).toEqual(Array.from(view));
    }
    const keys = new BigUint64Array([1n, 2n, 3n]).subarray(1);
    expect(Array.from(nativeView(keys))).toEqual([2n, 3n]);
    expect(nativeView(keys).byteOffset).toBe(0);
  });
});

describe('native calls with offset views', () => {
  it('finds the neighbours of an offset query in an offset vector set, as the scan does', () => {
    const vectors = offsetRows(3000, 17, 5, 1);
    const queries = offsetRows(20, 3, 2, 2);
    for (const metric of ['euclidean', 'cosine'] as const) {
      const scanned = createExactIndex(vectors, { dimension: d, metric, native: false });
      const native = createExactIndex(vectors, { dimension: d, metric, native: true });
      for (let q = 0; q < 20; q++) {
        const query = queries.subarray(q * d, (q + 1) * d);
        const a = scanned.search(query, 10);
        const b = native.search(query, 10);
        expect(Array.from(b.ids)).toEqual(Array.from(a.ids));
        expect(Array.from(b.distances)).toEqual(Array.from(a.distances));
      }
      // A row of the set as the query (a view into the set's own buffer) is its own nearest.
      const row = vectors.subarray(1234 * d, 1235 * d);
      expect(native.search(row, 1).ids[0]).toBe(1234);
      expect(exactSearch(vectors, row, 1, { dimension: d, metric }).ids[0]).toBe(1234);
    }
  });

  it('asks the SIMD pass about the rows of the view, not of its buffer', () => {
    const vectors = offsetRows(50, 50, 0, 3);
    const query = vectors.slice(7 * d, 8 * d);
    const keys = nativeExactSearch(vectors, query, d, 1, 'euclidean');
    expect(Number(keys[0])).toBe(7);
    const shared = new Float32Array(new SharedArrayBuffer(vectors.byteLength));
    shared.set(vectors);
    expect(Number(nativeExactSearch(shared, query, d, 1, 'euclidean')[0])).toBe(7);
  });

  it('adds and searches offset views in the approximate index', () => {
    const vectors = offsetRows(400, 9, 4, 4);
    const index = createAnnIndex({ dimension: d, metric: 'euclidean', threads: 1 });
    const ids = new Uint32Array(410).map((_, i) => 1000 + i).subarray(10);
    index.add(ids, vectors);
    for (const i of [0, 123, 399]) {
      const found = index.search(vectors.subarray(i * d, (i + 1) * d), 1);
      expect(found.ids[0]).toBe(1010 + i);
      expect(found.distances[0]).toBeCloseTo(0, 5);
    }
  });
});

describe('the native gateway', () => {
  it('is the only module of the package that loads usearch', () => {
    const src = fileURLToPath(new URL('../../', import.meta.url));
    const loaders = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.test.ts') &&
        /from 'usearch'|\('usearch'\)/.test(readFileSync(src + file, 'utf8')),
    );
    expect(loaders).toEqual(['embeddings/neighbours/native.ts']);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../random.js';
import { createAnnIndex, loadAnnIndex } from './ann.js';
import { createExactIndex, exactSearch, NATIVE_SCAN_MIN_ROWS } from './exact.js';
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

/** `values` placed `before` values into a SharedArrayBuffer, as worker threads share memory. */
function inSharedMemory(values: Float32Array, before: number, after: number): Float32Array {
  const whole = new Float32Array(new SharedArrayBuffer((before + values.length + after) * 4));
  whole.fill(1e6);
  whole.set(values, before);
  return whole.subarray(before, before + values.length);
}

/** The k nearest rows by the definition of each distance, in float64, ties by id. */
function bruteForce(
  vectors: ArrayLike<number>,
  query: ArrayLike<number>,
  k: number,
  metric: 'cosine' | 'euclidean',
): number[] {
  const rows = [];
  for (let i = 0; i < vectors.length / d; i++) {
    let dot = 0;
    let xx = 0;
    let qq = 0;
    let squared = 0;
    for (let j = 0; j < d; j++) {
      const x = vectors[i * d + j]!;
      const q = query[j]!;
      dot += x * q;
      xx += x * x;
      qq += q * q;
      squared += (x - q) ** 2;
    }
    rows.push({ id: i, distance: metric === 'euclidean' ? squared : 1 - dot / Math.sqrt(xx * qq) });
  }
  rows.sort((a, b) => a.distance - b.distance || a.id - b.id);
  return rows.slice(0, k).map((row) => row.id);
}

describe('native calls with views into shared memory', () => {
  // As many rows as make exactSearch take the native pass by itself.
  const plainVectors = offsetRows(NATIVE_SCAN_MIN_ROWS, 0, 0, 5).slice();
  const plainQueries = offsetRows(12, 0, 0, 6).slice();
  // Odd offsets in values (not whole rows), so no row of the view starts a row of the buffer.
  const sharedVectors = inSharedMemory(plainVectors, 7 * d + 5, 3);
  const sharedQueries = inSharedMemory(plainQueries, 11, 1);
  const queryOf = (queries: Float32Array, q: number): Float32Array =>
    queries.subarray(q * d, (q + 1) * d);

  it('gives exactSearch and the native exact index the brute-force answer, as with copies', () => {
    for (const metric of ['euclidean', 'cosine'] as const) {
      const shared = createExactIndex(sharedVectors, { dimension: d, metric, native: true });
      const copied = createExactIndex(plainVectors, { dimension: d, metric, native: true });
      for (let q = 0; q < 12; q++) {
        const expected = bruteForce(plainVectors, queryOf(plainQueries, q), 10, metric);
        const found = shared.search(queryOf(sharedQueries, q), 10);
        expect(Array.from(found.ids)).toEqual(expected);
        expect(found).toEqual(copied.search(queryOf(plainQueries, q), 10));
        const once = exactSearch(sharedVectors, queryOf(sharedQueries, q), 10, {
          dimension: d,
          metric,
        });
        expect(Array.from(once.ids)).toEqual(expected);
      }
    }
  });

  it('builds and searches the approximate index from shared views as from copies', () => {
    const ids = Uint32Array.from({ length: 2500 }, (_, i) => 7 * i);
    const shared = createAnnIndex({ dimension: d, metric: 'euclidean', threads: 1 });
    shared.add(ids, sharedVectors.subarray(0, 2500 * d));
    const copied = createAnnIndex({ dimension: d, metric: 'euclidean', threads: 1 });
    copied.add(ids, plainVectors.slice(0, 2500 * d));
    for (let q = 0; q < 12; q++) {
      const found = shared.search(queryOf(sharedQueries, q), 10);
      expect(found).toEqual(copied.search(queryOf(plainQueries, q), 10));
      // The nearest by brute force is among the graph's ten (well within its recall here).
      const [nearest] = bruteForce(
        plainVectors.subarray(0, 2500 * d),
        queryOf(plainQueries, q),
        1,
        'euclidean',
      );
      expect(Array.from(found.ids)).toContain(7 * nearest!);
    }
  });

  it('loads an index from serialized bytes that sit inside a larger buffer', () => {
    const index = createAnnIndex({ dimension: d, metric: 'cosine', threads: 1 });
    index.add(
      Uint32Array.from({ length: 2500 }, (_, i) => i),
      plainVectors.subarray(0, 2500 * d),
    );
    const bytes = index.serialize();
    const whole = new Uint8Array(new SharedArrayBuffer(bytes.length + 40));
    whole.set(bytes, 13);
    const loaded = loadAnnIndex(whole.subarray(13, 13 + bytes.length));
    for (let q = 0; q < 12; q++) {
      const query = queryOf(sharedQueries, q);
      expect(loaded.search(query, 10)).toEqual(index.search(query, 10));
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

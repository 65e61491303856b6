import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../random.js';
import {
  allNearestNeighbours,
  createExactIndex,
  exactSearch,
  type DistanceMetric,
} from './exact.js';

/** Distance as the definition says, in float64, with no shortcut. */
function naiveDistance(a: ArrayLike<number>, b: ArrayLike<number>, metric: DistanceMetric): number {
  if (metric === 'euclidean') {
    let s = 0;
    for (let j = 0; j < a.length; j++) s += (a[j]! - b[j]!) ** 2;
    return Math.sqrt(s);
  }
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let j = 0; j < a.length; j++) {
    ab += a[j]! * b[j]!;
    aa += a[j]! * a[j]!;
    bb += b[j]! * b[j]!;
  }
  return aa === 0 || bb === 0 ? 1 : 1 - ab / Math.sqrt(aa * bb);
}

/** Every row's distance to the query, sorted by (distance, id): the reference answer. */
function naiveRanking(
  vectors: Float32Array,
  d: number,
  query: ArrayLike<number>,
  metric: DistanceMetric,
  exclude = -1,
): { id: number; distance: number }[] {
  const rows = [];
  for (let i = 0; i < vectors.length / d; i++) {
    if (i === exclude) continue;
    rows.push({
      id: i,
      distance: naiveDistance(vectors.subarray(i * d, (i + 1) * d), query, metric),
    });
  }
  return rows.sort((a, b) => a.distance - b.distance || a.id - b.id);
}

/**
 * Checks one answer against the reference. Euclidean distances of small integer vectors are
 * exact in float64 either way, so ids must match exactly, ties in id order. Cosine distances
 * carry rounding, so rows whose reference distances differ by less than 1e-9 may swap: we check
 * the distances in order, and that every returned id really is at its returned distance.
 */
function expectMatchesReference(
  ids: ArrayLike<number>,
  distances: ArrayLike<number>,
  reference: { id: number; distance: number }[],
  k: number,
  metric: DistanceMetric,
  vectorOf: (id: number) => Float32Array,
  query: ArrayLike<number>,
): void {
  const expected = reference.slice(0, k);
  expect(ids.length).toBe(expected.length);
  expect(new Set(Array.from(ids)).size).toBe(ids.length);
  for (let i = 0; i < expected.length; i++) {
    expect(distances[i]).toBeCloseTo(expected[i]!.distance, 5);
    expect(distances[i]).toBeCloseTo(naiveDistance(vectorOf(ids[i]!), query, metric), 5);
  }
  if (metric === 'euclidean') expect(Array.from(ids)).toEqual(expected.map((r) => r.id));
}

const metrics = fc.constantFrom<DistanceMetric>('euclidean', 'cosine');

/** Small integer vectors: plenty of exact ties and duplicates, and the odd zero vector. */
const smallSets = fc
  .record({ n: fc.integer({ min: 1, max: 40 }), d: fc.integer({ min: 1, max: 6 }) })
  .chain(({ n, d }) =>
    fc.record({
      n: fc.constant(n),
      d: fc.constant(d),
      values: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: n * d, maxLength: n * d }),
      query: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: d, maxLength: d }),
      k: fc.integer({ min: 1, max: n + 3 }),
    }),
  );

describe('exact search', () => {
  it('matches a naive reference on small sets, ties in id order', () => {
    fc.assert(
      fc.property(smallSets, metrics, ({ n, d, values, query, k }, metric) => {
        const vectors = Float32Array.from(values);
        const q = Float32Array.from(query);
        const answer = exactSearch(vectors, q, k, { dimension: d, metric });
        expectMatchesReference(
          answer.ids,
          answer.distances,
          naiveRanking(vectors, d, q, metric),
          Math.min(k, n),
          metric,
          (id) => vectors.subarray(id * d, (id + 1) * d),
          q,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('ranks rows of real-valued vectors like the reference', () => {
    const random = createRandom(1);
    const d = 37;
    const n = 1001; // not a multiple of the four rows scanned at a time
    const vectors = Float32Array.from({ length: n * d }, () => random.normal());
    for (const metric of ['euclidean', 'cosine'] as const) {
      const index = createExactIndex(vectors, { dimension: d, metric });
      expect(index.size).toBe(n);
      for (let t = 0; t < 5; t++) {
        const query = Float32Array.from({ length: d }, () => random.normal());
        const answer = index.search(query, 25);
        const reference = naiveRanking(vectors, d, query, metric).slice(0, 25);
        expect(Array.from(answer.ids)).toEqual(reference.map((r) => r.id));
      }
    }
  });

  it('answers a query that is one of the rows with that row at distance 0', () => {
    const random = createRandom(2);
    const vectors = Float32Array.from({ length: 50 * 8 }, () => random.normal());
    const query = vectors.slice(17 * 8, 18 * 8);
    for (const metric of ['euclidean', 'cosine'] as const) {
      const answer = exactSearch(vectors, query, 3, { dimension: 8, metric });
      expect(answer.ids[0]).toBe(17);
      expect(answer.distances[0]).toBeCloseTo(0, 5);
    }
  });

  it('puts a zero vector at cosine distance 1 from everything', () => {
    const vectors = Float32Array.from([0, 0, 1, 0, -1, 0]);
    const answer = exactSearch(vectors, Float32Array.from([1, 1]), 3, {
      dimension: 2,
      metric: 'cosine',
    });
    expect(Array.from(answer.ids)).toEqual([1, 0, 2]);
    expect(answer.distances[1]).toBe(1);
  });

  it('answers the same with the native candidate pass as with the scan', () => {
    const random = createRandom(5);
    const d = 24;
    const n = 3001;
    const vectors = Float32Array.from({ length: n * d }, () => random.normal());
    // Exact duplicates of row 40 (fewer than the candidate margin): ties go to the smaller ids.
    for (const row of [7, 900, 2500]) vectors.copyWithin(row * d, 40 * d, 41 * d);
    for (const metric of ['euclidean', 'cosine'] as const) {
      const scanned = createExactIndex(vectors, { dimension: d, metric, native: false });
      const native = createExactIndex(vectors, { dimension: d, metric, native: true });
      const queries = [
        vectors.slice(40 * d, 41 * d),
        ...Array.from({ length: 4 }, () => Float32Array.from({ length: d }, () => random.normal())),
      ];
      for (const query of queries) {
        for (const k of [1, 10, 50]) {
          const a = scanned.search(query, k);
          const b = native.search(query, k);
          expect(Array.from(b.ids)).toEqual(Array.from(a.ids));
          expect(Array.from(b.distances)).toEqual(Array.from(a.distances));
        }
      }
      expect(Array.from(native.search(queries[0]!, 4).ids)).toEqual([7, 40, 900, 2500]);
    }
  });

  it('rejects bad input, naming it', () => {
    const vectors = new Float32Array(6);
    expect(() => createExactIndex(vectors, { dimension: 4, metric: 'cosine' })).toThrow(
      /dimension/,
    );
    expect(() =>
      createExactIndex(vectors, { dimension: 2, metric: 'manhattan' as DistanceMetric }),
    ).toThrow(/metric/);
    const index = createExactIndex(vectors, { dimension: 2, metric: 'euclidean' });
    expect(() => index.search(new Float32Array(3), 1)).toThrow(/query/);
    expect(() => index.search(new Float32Array(2), 0)).toThrow(/k/);
  });
});

describe('allNearestNeighbours', () => {
  it('gives every row its nearest other rows like the naive reference', () => {
    fc.assert(
      fc.property(smallSets, metrics, ({ n, d, values, k }, metric) => {
        fc.pre(n >= 2);
        const kk = Math.min(k, n - 1);
        const vectors = Float32Array.from(values);
        const all = allNearestNeighbours(vectors, kk, { dimension: d, metric });
        expect(all.ids).toHaveLength(n * kk);
        for (let a = 0; a < n; a++) {
          const row = vectors.subarray(a * d, (a + 1) * d);
          expectMatchesReference(
            all.ids.subarray(a * kk, (a + 1) * kk),
            all.distances.subarray(a * kk, (a + 1) * kk),
            naiveRanking(vectors, d, row, metric, a),
            kk,
            metric,
            (id) => vectors.subarray(id * d, (id + 1) * d),
            row,
          );
        }
      }),
      { numRuns: 80 },
    );
  });

  it('agrees with one exact search per row on real-valued vectors', () => {
    const random = createRandom(3);
    const d = 16;
    const n = 301;
    const vectors = Float32Array.from({ length: n * d }, () => random.normal());
    for (const metric of ['euclidean', 'cosine'] as const) {
      const all = allNearestNeighbours(vectors, 10, { dimension: d, metric });
      const index = createExactIndex(vectors, { dimension: d, metric });
      for (const a of [0, 1, 150, 299, 300]) {
        const single = index.search(vectors.subarray(a * d, (a + 1) * d), 11);
        const others = Array.from(single.ids)
          .filter((id) => id !== a)
          .slice(0, 10);
        expect(Array.from(all.ids.subarray(a * 10, (a + 1) * 10))).toEqual(others);
      }
    }
  });

  it('needs k below the number of rows', () => {
    expect(() =>
      allNearestNeighbours(new Float32Array(6), 3, { dimension: 2, metric: 'euclidean' }),
    ).toThrow(/k must be less/);
  });
});

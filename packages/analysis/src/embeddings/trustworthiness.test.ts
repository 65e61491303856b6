import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../random.js';
import { trustworthiness } from './trustworthiness.js';

/**
 * scikit-learn's algorithm written out naively: the full distance matrix, each row argsorted
 * (self last), an inverted index of ranks, penalties max(0, rank − k) over the embedding's k
 * nearest neighbours.
 */
function referenceTrustworthiness(x: number[][], e: number[][], k: number): number {
  const n = x.length;
  const sq = (a: number[], b: number[]): number => a.reduce((s, v, c) => s + (v - b[c]!) ** 2, 0);
  const sortedOthers = (points: number[][], i: number): number[] =>
    [...Array(n).keys()]
      .filter((j) => j !== i)
      .sort((a, b) => sq(points[i]!, points[a]!) - sq(points[i]!, points[b]!) || a - b);
  let t = 0;
  for (let i = 0; i < n; i++) {
    const rank = new Map(sortedOthers(x, i).map((j, r) => [j, r + 1]));
    for (const j of sortedOthers(e, i).slice(0, k)) t += Math.max(0, rank.get(j)! - k);
  }
  return 1 - (t * 2) / (n * k * (2 * n - 3 * k - 1));
}

const flat = (rows: number[][]): Float32Array => Float32Array.from(rows.flat());

describe('trustworthiness', () => {
  it('matches a hand-computed case', () => {
    // Original (1-D) 0, 1, 3, 7, 15; embedding 0, 5, 1, 6, 20. Nearest in the embedding and its
    // original rank: p0 → p2 (rank 2), p1 → p3 (3), p2 → p0 (2), p3 → p1 (2), p4 → p3 (1).
    // Penalties 1 + 2 + 1 + 1 + 0 = 5; T = 1 − 2·5 / (5·1·(10 − 3 − 1)) = 2/3.
    const original = Float32Array.of(0, 1, 3, 7, 15);
    const embedding = Float32Array.of(0, 5, 1, 6, 20);
    expect(trustworthiness(original, 1, embedding, 1, { k: 1 })).toBeCloseTo(2 / 3, 12);
    expect(trustworthiness(original, 1, original, 1, { k: 2 })).toBe(1);
  });

  it('equals a naive O(n²) reference implementation on random data', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 7, max: 40 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer(),
        (n, k, seed) => {
          const random = createRandom(seed);
          // Integer coordinates make ties common, which exercises the tie rule.
          const x = [...Array(n)].map(() => [...Array(4)].map(() => random.int(0, 5)));
          const e = [...Array(n)].map(() => [random.next() * 10, random.next() * 10]);
          const ours = trustworthiness(flat(x), 4, flat(e), 2, { k });
          expect(ours).toBeCloseTo(referenceTrustworthiness(x, e, k), 10);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('estimates the full value from a sample of points', () => {
    const random = createRandom(3);
    const n = 1500;
    const x = new Float32Array(n * 5).map(() => random.normal());
    // A noisy projection: neighbourhoods partly kept.
    const e = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) {
      e[2 * i] = x[5 * i]! + 0.3 * random.normal();
      e[2 * i + 1] = x[5 * i + 1]! + 0.3 * random.normal();
    }
    const full = trustworthiness(x, 5, e, 2, { k: 10 });
    const sampled = trustworthiness(x, 5, e, 2, { k: 10, sample: 400, seed: 1 });
    expect(full).toBeGreaterThan(0.6);
    expect(full).toBeLessThan(0.95);
    expect(Math.abs(sampled - full)).toBeLessThan(0.01);
    expect(trustworthiness(x, 5, e, 2, { k: 10, sample: n })).toBe(full);
  });

  it('rejects a k the definition does not allow and mismatched sizes', () => {
    const x = new Float32Array(20);
    expect(() => trustworthiness(x, 2, x, 2, { k: 5 })).toThrow(
      /k must be an integer from 1 to below n \/ 2 = 5/,
    );
    expect(() => trustworthiness(x, 2, new Float32Array(18), 2)).toThrow(
      /9 points, the original 10/,
    );
    expect(() => trustworthiness(x, 2, x, 2, { k: 2, sample: 0 })).toThrow(/sample/);
  });
});

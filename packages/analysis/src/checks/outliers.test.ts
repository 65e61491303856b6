import { describe, expect, it } from 'vitest';
import { createRandom } from '../random.js';
import { exactSearchLimit, neighbourOutliers } from './outliers.js';

/**
 * Non-negative vectors (like the image descriptor) in `clusters` tight clusters over the first
 * `signal` dimensions, plus `planted` rows pointing along the remaining dimensions only: far from
 * every cluster by cosine distance. Planted rows are spread through the matrix.
 */
function plantedData(n: number, d: number, signal: number, clusters: number, planted: number[]) {
  const random = createRandom(7);
  const centres = Array.from({ length: clusters }, () =>
    Array.from({ length: signal }, () => random.next()),
  );
  const data = new Float32Array(n * d);
  const plantedSet = new Set(planted);
  for (let i = 0; i < n; i++) {
    if (plantedSet.has(i)) {
      for (let j = signal; j < d; j++) data[i * d + j] = random.next();
      continue;
    }
    const centre = centres[i % clusters]!;
    for (let j = 0; j < signal; j++) {
      data[i * d + j] = Math.abs(centre[j]! + 0.05 * random.normal());
    }
  }
  return data;
}

/**
 * Independent reference: float64 cosine distances, full sort, and the rule on log(score + the
 * median score), with median and MAD by sorting.
 */
function bruteForce(
  data: Float32Array,
  d: number,
  groups: Int32Array,
  k: number,
  z: number,
): { scores: Float64Array; outlier: Uint8Array } {
  const n = groups.length;
  const scores = new Float64Array(n).fill(NaN);
  const outlier = new Uint8Array(n);
  const row = (i: number) => Array.from(data.subarray(i * d, (i + 1) * d));
  const cosine = (a: number[], b: number[]) => {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let j = 0; j < d; j++) {
      dot += a[j]! * b[j]!;
      na += a[j]! * a[j]!;
      nb += b[j]! * b[j]!;
    }
    return na > 0 && nb > 0 ? 1 - dot / Math.sqrt(na * nb) : 1;
  };
  const sortedMedian = (values: number[]) => {
    const s = [...values].sort((a, b) => a - b);
    const m = s.length;
    return m % 2 ? s[(m - 1) / 2]! : (s[m / 2 - 1]! + s[m / 2]!) / 2;
  };
  for (const g of new Set(groups)) {
    const members = [...groups.keys()].filter((i) => groups[i] === g);
    for (const i of members) {
      const distances = members
        .filter((j) => j !== i)
        .map((j) => cosine(row(i), row(j)))
        .sort((a, b) => a - b);
      const kk = Math.min(k, members.length - 1);
      scores[i] = distances.slice(0, kk).reduce((a, b) => a + b, 0) / kk;
    }
    const shift = sortedMedian(members.map((i) => scores[i]!));
    const values = members.map((i) => Math.log(scores[i]! + shift));
    const middle = sortedMedian(values);
    const mad = sortedMedian(values.map((v) => Math.abs(v - middle)));
    const spread = Math.max(1.4826 * mad, 0.2);
    for (const i of members) {
      if (Math.log(scores[i]! + shift) > middle + z * spread) outlier[i] = 1;
    }
  }
  return { scores, outlier };
}

describe('neighbourOutliers', () => {
  it('agrees with a brute-force implementation on small splits', () => {
    const n = 240;
    const d = 16;
    const random = createRandom(3);
    const data = new Float32Array(n * d).map(() => random.next() ** 3);
    // Three splits of uneven size, one of them "no split" (−1).
    const groups = Int32Array.from({ length: n }, (_, i) =>
      i % 5 === 0 ? -1 : i % 3 === 0 ? 0 : 1,
    );
    const k = 7;
    const z = 0.8;
    const result = neighbourOutliers(
      { vectors: data, dimension: d, groups },
      { k, sensitivity: z },
    );
    const expected = bruteForce(data, d, groups, k, z);
    expect(result.approximate).toBe(false);
    expect(result.checked).toBe(n);
    for (let i = 0; i < n; i++) expect(result.scores[i]).toBeCloseTo(expected.scores[i]!, 5);
    expect(Array.from(result.outlier)).toEqual(Array.from(expected.outlier));
    // Not a vacuous agreement: the rule flags some items at this sensitivity.
    expect(expected.outlier.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(result.groups.map((g) => [g.group, g.size])).toEqual([
      [-1, 48],
      [0, 64],
      [1, 128],
    ]);
  });

  it('finds planted far points and no clustered point (exact search)', () => {
    const n = 600;
    const planted = [13, 200, 201, 377, 599];
    const data = plantedData(n, 24, 16, 4, planted);
    const groups = new Int32Array(n).map((_, i) => (i < 300 ? 0 : 1));
    const result = neighbourOutliers({ vectors: data, dimension: 24, groups });
    expect(result.approximate).toBe(false);
    const flagged = [...result.outlier.keys()].filter((i) => result.outlier[i]);
    expect(flagged).toEqual(planted);
  });

  it('finds planted far points in a large split against references (approximate)', () => {
    const n = 3000;
    const d = 196;
    const planted = [0, 999, 1500, 1501, 2999];
    const data = plantedData(n, d, 160, 6, planted);
    const groups = new Int32Array(n);
    const options = { referenceCount: 400 };
    expect(n).toBeGreaterThan(exactSearchLimit(d, 400));
    const result = neighbourOutliers({ vectors: data, dimension: d, groups }, options);
    expect(result.approximate).toBe(true);
    expect(result.groups[0]).toMatchObject({ exact: false, size: n });
    const flagged = [...result.outlier.keys()].filter((i) => result.outlier[i]);
    expect(flagged).toEqual(planted);
    // Clustered rows score near the exact search's scores (a lower bound, up to rounding).
    const exact = neighbourOutliers(
      { vectors: data, dimension: d, groups },
      { referenceCount: 10_000 },
    );
    expect(exact.approximate).toBe(false);
    const ratio = result.groups[0]!.median / exact.groups[0]!.median;
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(3);
  });

  it('skips rows without a vector and splits too small to judge; equal scores flag nothing', () => {
    const d = 4;
    const rows = [
      [1, 0, 0, 0],
      [1, 0, 0, 0],
      [1, 0, 0, 0],
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
    ];
    const data = Float32Array.from(rows.flat());
    const groups = Int32Array.from([0, 0, 0, 0, 0, 1]);
    const present = Uint8Array.from([1, 1, 1, 1, 0, 1]);
    const result = neighbourOutliers({ vectors: data, dimension: d, groups, present }, { k: 2 });
    expect(result.checked).toBe(4);
    expect(Number.isNaN(result.scores[4]!)).toBe(true);
    expect(Number.isNaN(result.scores[5]!)).toBe(true);
    expect(Array.from(result.outlier)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(result.groups).toHaveLength(1);
    expect(result.groups[0]).toMatchObject({ group: 0, size: 4, spread: 0.2, exact: true });
    // All scores 0: the median log score is log(shift), shift at its floor 10⁻⁶.
    expect(result.groups[0]!.median).toBeCloseTo(Math.log(1e-6), 9);
    expect(result.groups[0]!.threshold).toBeCloseTo(1e-6 * (Math.exp(5 * 0.2) - 1), 12);
  });

  it('rejects bad options', () => {
    const input = { vectors: new Float32Array(8), dimension: 2, groups: new Int32Array(4) };
    expect(() => neighbourOutliers(input, { k: 0 })).toThrow('k must be');
    expect(() => neighbourOutliers(input, { k: 5, referenceCount: 5 })).toThrow('referenceCount');
    expect(() => neighbourOutliers({ ...input, groups: new Int32Array(3) })).toThrow('groups');
  });
});

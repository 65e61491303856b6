import { describe, expect, it } from 'vitest';
import { createRandom } from '../../random.js';
import { CentredRows, type CentredRowsOptions } from './centred-rows.js';

// 1,000 rows (eight blocks, the last one short) of 13 values (stride 16): shifted, scaled
// columns so centring matters.
const N = 1000;
const D = 13;
const L = 5;

function data(): Float32Array {
  const random = createRandom(21);
  return Float32Array.from(
    { length: N * D },
    (_, i) => 100 + (i % D) + random.normal() * (1 + (i % 3)),
  );
}

function vectors(count: number): Float64Array {
  const random = createRandom(22);
  return Float64Array.from({ length: count * D }, () => random.normal());
}

/** Everything a PCA asks of the rows, for one way of running the passes. */
function passes(options: Partial<CentredRowsOptions>) {
  const rows = new CentredRows(data(), N, D, {
    vectors: L,
    covariance: true,
    work: 0,
    ...options,
  });
  try {
    return {
      threads: rows.threads,
      mean: rows.mean,
      totalVariance: rows.totalVariance,
      covariance: rows.covariance(),
      applied: rows.multiplyCovariance(vectors(L), L),
      projection: rows.project(vectors(3), 3),
    };
  } finally {
    rows.close();
  }
}

/** The same in plain float64. */
function reference() {
  const x = data();
  const mean = new Float64Array(D);
  for (let i = 0; i < N; i++) for (let j = 0; j < D; j++) mean[j]! += x[i * D + j]! / N;
  const centred = (i: number, j: number) => x[i * D + j]! - mean[j]!;
  const covariance = new Float64Array(D * D);
  for (let i = 0; i < N; i++) {
    for (let a = 0; a < D; a++) {
      for (let b = 0; b < D; b++)
        covariance[a * D + b]! += (centred(i, a) * centred(i, b)) / (N - 1);
    }
  }
  const z = vectors(L);
  const applied = new Float64Array(L * D);
  for (let v = 0; v < L; v++) {
    for (let a = 0; a < D; a++) {
      for (let b = 0; b < D; b++)
        applied[v * D + a]! += covariance[a * D + b]! * Math.fround(z[v * D + b]!);
    }
  }
  const dirs = vectors(3);
  const projection = new Float64Array(N * 3);
  for (let i = 0; i < N; i++) {
    for (let c = 0; c < 3; c++) {
      for (let j = 0; j < D; j++) projection[i * 3 + c]! += centred(i, j) * dirs[c * D + j]!;
    }
  }
  let totalVariance = 0;
  for (let j = 0; j < D; j++) totalVariance += covariance[j * D + j]!;
  return { mean, covariance, applied, projection, totalVariance };
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, relative: number) {
  expect(actual.length).toBe(expected.length);
  let scale = 0;
  for (let i = 0; i < expected.length; i++) scale = Math.max(scale, Math.abs(expected[i]!));
  for (let i = 0; i < expected.length; i++) {
    expect(Math.abs(actual[i]! - expected[i]!)).toBeLessThanOrEqual(relative * scale);
  }
}

describe('CentredRows', () => {
  it('computes the mean, covariance, covariance products and projections of the centred rows', () => {
    const want = reference();
    for (const simd of [true, false]) {
      const got = passes({ simd });
      expectClose(got.mean, want.mean, 1e-12);
      expect(got.totalVariance / want.totalVariance).toBeCloseTo(1, 6);
      expectClose(got.covariance, want.covariance, 1e-6);
      expectClose(got.applied, want.applied, 1e-6);
      expectClose(got.projection, want.projection, 1e-6);
    }
  });

  it('gives the same numbers streamed a block at a time as from its own copy', () => {
    const copied = passes({});
    const streamed = passes({ maxCopyBytes: 0 });
    expect(streamed).toEqual(copied);
  });

  it('gives the same numbers on worker threads as on the calling thread', () => {
    const alone = passes({ threads: 1, work: 1e12 });
    const together = passes({ threads: 3, work: 1e12 });
    expect(alone.threads).toBe(1);
    expect(together.threads).toBe(3);
    expect({ ...together, threads: 1 }).toEqual(alone);
  });

  it('starts no threads for small work', () => {
    expect(passes({ threads: 2, work: 1000 }).threads).toBe(1);
  });
});

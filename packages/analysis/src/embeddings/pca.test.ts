import { describe, expect, it } from 'vitest';
import { createRandom, type Random } from '../random.js';
import { pca, pcaPlan } from './pca.js';

/** d orthonormal directions of length d (Gram–Schmidt on Gaussian vectors). */
function randomRotation(d: number, random: Random): number[][] {
  const rows: number[][] = [];
  while (rows.length < d) {
    const v = Array.from({ length: d }, () => random.normal());
    for (const u of rows) {
      const p = dot(u, v);
      for (let j = 0; j < d; j++) v[j]! -= p * u[j]!;
    }
    const norm = Math.sqrt(dot(v, v));
    rows.push(v.map((x) => x / norm));
  }
  return rows;
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j]! * b[j]!;
  return s;
}

/** n points Σ_c std[c]·z_c·directions[c] + offset, z standard normal: covariance set by hand. */
function gaussian(
  n: number,
  directions: number[][],
  std: number[],
  random: Random,
  offset: number[],
): Float32Array {
  const d = offset.length;
  const data = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) data[i * d + j] = offset[j]!;
    for (let c = 0; c < std.length; c++) {
      const z = random.normal() * std[c]!;
      for (let j = 0; j < d; j++) data[i * d + j]! += z * directions[c]![j]!;
    }
  }
  return data;
}

function component(result: { components: Float32Array }, c: number, d: number): Float32Array {
  return result.components.subarray(c * d, (c + 1) * d);
}

/**
 * n × d float32 data whose sample covariance has eigenvalues `variances` along the rows of a
 * random rotation: X = offset + U·diag(√((n − 1)·λ))·V with U's columns orthonormal and centred.
 */
function knownSpectrum(
  n: number,
  d: number,
  variances: number[],
  random: Random,
): { data: Float32Array; directions: number[][] } {
  const columns: number[][] = [];
  while (columns.length < d) {
    const u = Array.from({ length: n }, () => random.normal());
    const mean = u.reduce((a, b) => a + b, 0) / n;
    for (let i = 0; i < n; i++) u[i]! -= mean;
    for (let pass = 0; pass < 2; pass++) {
      for (const other of columns) {
        const p = dot(u, other);
        for (let i = 0; i < n; i++) u[i]! -= p * other[i]!;
      }
    }
    const norm = Math.sqrt(dot(u, u));
    columns.push(u.map((x) => x / norm));
  }
  const directions = randomRotation(d, random);
  const data = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) {
      let value = 3 - j / 10;
      for (let c = 0; c < d; c++) {
        value += columns[c]![i]! * Math.sqrt((n - 1) * variances[c]!) * directions[c]![j]!;
      }
      data[i * d + j] = value;
    }
  }
  return { data, directions };
}

function sampleCovariance(data: Float32Array, n: number, d: number): Float64Array {
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j]! += data[i * d + j]! / n;
  const c = new Float64Array(d * d);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < d; a++) {
      for (let b = 0; b < d; b++) {
        c[a * d + b]! += ((data[i * d + a]! - mean[a]!) * (data[i * d + b]! - mean[b]!)) / (n - 1);
      }
    }
  }
  return c;
}

/** Cyclic Jacobi, the slow and sure reference: eigenvalues descending, eigenvectors as rows. */
function jacobi(matrix: Float64Array, d: number): { values: number[]; vectors: number[][] } {
  const a = matrix.slice();
  const v = new Float64Array(d * d);
  for (let i = 0; i < d; i++) v[i * d + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < d; p++) for (let q = p + 1; q < d; q++) off += a[p * d + q]! ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < d - 1; p++) {
      for (let q = p + 1; q < d; q++) {
        const apq = a[p * d + q]!;
        if (apq === 0) continue;
        const theta = (a[q * d + q]! - a[p * d + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let r = 0; r < d; r++) {
          const [arp, arq] = [a[r * d + p]!, a[r * d + q]!];
          a[r * d + p] = c * arp - s * arq;
          a[r * d + q] = s * arp + c * arq;
        }
        for (let r = 0; r < d; r++) {
          const [apr, aqr] = [a[p * d + r]!, a[q * d + r]!];
          a[p * d + r] = c * apr - s * aqr;
          a[q * d + r] = s * apr + c * aqr;
        }
        for (let r = 0; r < d; r++) {
          const [vrp, vrq] = [v[r * d + p]!, v[r * d + q]!];
          v[r * d + p] = c * vrp - s * vrq;
          v[r * d + q] = s * vrp + c * vrq;
        }
      }
    }
  }
  const order = Array.from({ length: d }, (_, i) => i).sort(
    (x, y) => a[y * d + y]! - a[x * d + x]!,
  );
  return {
    values: order.map((i) => a[i * d + i]!),
    vectors: order.map((i) => Array.from({ length: d }, (_, r) => v[r * d + i]!)),
  };
}

/** Mean squared cosine between the k reference directions and span(components). */
function subspaceCos2(
  components: Float32Array,
  reference: number[][],
  k: number,
  d: number,
): number {
  let sum = 0;
  for (let a = 0; a < k; a++) {
    for (let b = 0; b < k; b++)
      sum += dot(components.subarray(a * d, (a + 1) * d), reference[b]!) ** 2;
  }
  return sum / k;
}

describe('pca', () => {
  it('finds the direction of points on a line with noise, and its variance', () => {
    const random = createRandom(1);
    const d = 3;
    const n = 5000;
    const line = [1, 2, 3].map((x) => x / Math.sqrt(14));
    const data = new Float32Array(n * d);
    const along: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = random.normal() * 5;
      along.push(t);
      for (let j = 0; j < d; j++) data[i * d + j] = 7 + t * line[j]! + random.normal() * 0.01;
    }
    const result = pca(data, n, d, { components: 1 });
    expect(result.method).toBe('exact');
    expect(Math.abs(dot(component(result, 0, d), line))).toBeGreaterThan(0.99999);
    const meanT = along.reduce((a, b) => a + b, 0) / n;
    const varianceT = along.reduce((a, t) => a + (t - meanT) ** 2, 0) / (n - 1);
    expect(result.explainedVariance[0]).toBeCloseTo(varianceT, 2);
    expect(result.explainedVarianceRatio[0]).toBeGreaterThan(0.9999);
    // The projection is the position along the line, up to sign and the mean.
    const sign = Math.sign(dot(component(result, 0, d), line));
    for (const i of [0, 1, 2, n - 1]) {
      expect(result.projection[i]! * sign).toBeCloseTo(along[i]! - meanT, 1);
    }
  });

  it('recovers the axes and variances of an anisotropic Gaussian whose covariance is set', () => {
    const random = createRandom(2);
    const d = 6;
    const n = 40_000;
    const rotation = randomRotation(d, random);
    const std = [5, 3, 1.5, 1, 0.5, 0.2];
    const data = gaussian(n, rotation, std, random, [1, -2, 3, 0, 0, 10]);
    const result = pca(data, n, d, { components: 3 });
    const total = std.reduce((a, s) => a + s * s, 0);
    for (let c = 0; c < 3; c++) {
      expect(Math.abs(dot(component(result, c, d), rotation[c]!))).toBeGreaterThan(0.99);
      // Sampling error of a variance over n points is about √(2/n) ≈ 0.7 %.
      expect(result.explainedVariance[c]! / std[c]! ** 2).toBeGreaterThan(0.97);
      expect(result.explainedVariance[c]! / std[c]! ** 2).toBeLessThan(1.03);
      expect(result.explainedVarianceRatio[c]).toBeCloseTo(std[c]! ** 2 / total, 2);
    }
    expect(result.totalVariance / total).toBeGreaterThan(0.98);
    expect(result.totalVariance / total).toBeLessThan(1.02);
    // Components are orthonormal.
    for (let a = 0; a < 3; a++) {
      for (let b = 0; b < 3; b++) {
        expect(dot(component(result, a, d), component(result, b, d))).toBeCloseTo(
          a === b ? 1 : 0,
          5,
        );
      }
    }
  });

  it('projects onto a known plane: the 2-D coordinates keep the distances within the plane', () => {
    const random = createRandom(3);
    const d = 12;
    const n = 3000;
    const [u, v] = randomRotation(d, random);
    const data = gaussian(n, [u!, v!], [4, 2], random, new Array<number>(d).fill(3));
    for (let i = 0; i < data.length; i++) data[i]! += random.normal() * 0.001;
    const result = pca(data, n, d);
    expect(result.projection).toHaveLength(n * 2);
    for (const [a, b] of [
      [0, 1],
      [5, 900],
      [17, 2999],
    ] as const) {
      let original = 0;
      for (let j = 0; j < d; j++) original += (data[a * d + j]! - data[b * d + j]!) ** 2;
      const projected =
        (result.projection[a * 2]! - result.projection[b * 2]!) ** 2 +
        (result.projection[a * 2 + 1]! - result.projection[b * 2 + 1]!) ** 2;
      expect(Math.sqrt(projected)).toBeCloseTo(Math.sqrt(original), 2);
    }
  });

  it('projects as (x − mean) · components', () => {
    const random = createRandom(4);
    const d = 7;
    const n = 500;
    const data = Float32Array.from({ length: n * d }, () => random.normal() * 3 + 1);
    const result = pca(data, n, d, { components: 3 });
    const mean = new Array<number>(d).fill(0);
    for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j]! += data[i * d + j]! / n;
    for (const i of [0, 123, n - 1]) {
      for (let c = 0; c < 3; c++) {
        let expected = 0;
        for (let j = 0; j < d; j++) {
          expected += (data[i * d + j]! - mean[j]!) * result.components[c * d + j]!;
        }
        expect(result.projection[i * 3 + c]).toBeCloseTo(expected, 4);
      }
    }
  });

  it('gives the same answer by the exact and the randomized method when the spectrum has a gap', () => {
    const random = createRandom(5);
    const d = 40;
    const n = 5000;
    const rotation = randomRotation(d, random);
    const std = [10, 6, ...new Array<number>(d - 2).fill(0.5)];
    const data = gaussian(n, rotation, std, random, new Array<number>(d).fill(0));
    const exact = pca(data, n, d, { method: 'exact' });
    const randomized = pca(data, n, d, { method: 'randomized', seed: 9 });
    expect(exact.method).toBe('exact');
    expect(randomized.method).toBe('randomized');
    for (let c = 0; c < 2; c++) {
      // Same sign rule, so the components agree without flipping.
      expect(dot(component(exact, c, d), component(randomized, c, d))).toBeGreaterThan(0.9999);
      expect(randomized.explainedVariance[c]! / exact.explainedVariance[c]!).toBeCloseTo(1, 4);
    }
    expect(randomized.totalVariance / exact.totalVariance).toBeCloseTo(1, 6);
    for (let i = 0; i < 20; i++) {
      expect(randomized.projection[i]).toBeCloseTo(exact.projection[i]!, 1);
    }
  });

  it('is reproducible for a seed, with each component’s largest entry positive', () => {
    const random = createRandom(6);
    const d = 300;
    const n = 400;
    const data = Float32Array.from({ length: n * d }, () => random.normal());
    const first = pca(data, n, d, { method: 'randomized', seed: 3 });
    const second = pca(data, n, d, { method: 'randomized', seed: 3 });
    expect(second.projection).toEqual(first.projection);
    expect(second.components).toEqual(first.components);
    for (let c = 0; c < 2; c++) {
      const row = Array.from(component(first, c, d));
      const largest = row.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a), 0);
      expect(largest).toBeGreaterThan(0);
    }
  });

  it('chooses the randomized method when d is large against the subspace', () => {
    const random = createRandom(7);
    const small = Float32Array.from({ length: 1000 * 16 }, () => random.normal());
    expect(pca(small, 1000, 16).method).toBe('exact');
    const wide = Float32Array.from({ length: 2000 * 600 }, () => random.normal());
    expect(pca(wide, 2000, 600).method).toBe('randomized');
  });

  it('plans by multiply-adds: covariance for many components, a Krylov space for few', () => {
    // MNIST-sized: the covariance (n·d²/2) costs less than 6 passes with a 66-wide block.
    expect(pcaPlan(60_000, 784, { components: 64 })).toMatchObject({
      method: 'exact',
      block: 66,
      subspace: 396,
      powerIterations: 5,
    });
    expect(pcaPlan(60_000, 784, { components: 2 })).toMatchObject({
      method: 'randomized',
      block: 4,
      subspace: 36,
      powerIterations: 8,
    });
    expect(pcaPlan(1_000_000, 128, { components: 2 }).method).toBe('exact');
    expect(pcaPlan(10_000, 3000, { components: 2, method: 'auto' }).method).toBe('randomized');
    // Fewer steps once the block is wide: the space grows by a block a step.
    expect(pcaPlan(60_000, 784, { components: 100 }).powerIterations).toBe(5);
    expect(pcaPlan(60_000, 784, { components: 4 }).powerIterations).toBe(6);
    // The space never exceeds d: there it is the whole space, and the answer exact.
    expect(pcaPlan(200, 20, { components: 5, method: 'randomized' }).subspace).toBe(20);
    expect(pcaPlan(60_000, 784, { components: 2, powerIterations: 3 }).powerIterations).toBe(3);
    expect(pcaPlan(60_000, 784, { components: 2, method: 'exact' }).method).toBe('exact');
  });

  it('handles data of lower rank than the randomized subspace', () => {
    const random = createRandom(8);
    const d = 5;
    const n = 200;
    const [u, v] = randomRotation(d, random);
    const data = gaussian(n, [u!, v!], [3, 1], random, new Array<number>(d).fill(0));
    const result = pca(data, n, d, { method: 'randomized' });
    expect(Math.abs(dot(component(result, 0, d), u!))).toBeGreaterThan(0.999);
    expect(Math.abs(dot(component(result, 1, d), v!))).toBeGreaterThan(0.99);
    expect(result.explainedVarianceRatio[0]! + result.explainedVarianceRatio[1]!).toBeCloseTo(1, 5);
  });

  it('matches a Jacobi reference on data with a known spectrum, by both methods', () => {
    const random = createRandom(12);
    const n = 50;
    const d = 20;
    const variances = Array.from({ length: d }, (_, i) => 9 / (1 + i) ** 1.2);
    const { data } = knownSpectrum(n, d, variances, random);
    const reference = jacobi(sampleCovariance(data, n, d), d);
    for (const k of [2, 5]) {
      for (const method of ['exact', 'randomized'] as const) {
        const result = pca(data, n, d, { components: k, method, seed: 4 });
        expect(result.method).toBe(method);
        // Components are float32, so cos² is 1 to within their rounding; the randomized
        // method's Krylov space reaches all d = 20 dimensions here, so it is exact too, up to
        // its float32 passes.
        const cos2 = subspaceCos2(result.components, reference.vectors, k, d);
        expect(Math.abs(1 - cos2)).toBeLessThan(method === 'exact' ? 5e-8 : 1e-6);
        for (let c = 0; c < k; c++) {
          expect(result.explainedVariance[c]! / reference.values[c]!).toBeCloseTo(1, 6);
          // The data were built with this spectrum (up to float32 rounding).
          expect(result.explainedVariance[c]! / variances[c]!).toBeCloseTo(1, 4);
        }
      }
    }
  });

  it('reaches the exact subspace of a slowly decaying spectrum from a Krylov space far below d', () => {
    const random = createRandom(14);
    const n = 400;
    const d = 120;
    // MNIST-like decay (the benchmark's): neighbouring variances differ by only 10–20 %, where
    // plain power iteration on a 36-vector space would stop near 1 − cos² ≈ 10⁻³.
    const variances = Array.from({ length: d }, (_, i) => (1 + i / 8) ** -1.6);
    const { data, directions } = knownSpectrum(n, d, variances, random);
    for (const k of [2, 8]) {
      const plan = pcaPlan(n, d, { components: k, method: 'randomized' });
      expect(plan.subspace).toBeLessThanOrEqual(d / 2);
      const result = pca(data, n, d, { components: k, method: 'randomized', seed: 5 });
      // Float32 components put the floor near 10⁻⁸ (the exact method's, here).
      expect(1 - subspaceCos2(result.components, directions, k, d)).toBeLessThan(1e-7);
      for (let c = 0; c < k; c++) {
        expect(result.explainedVariance[c]! / variances[c]!).toBeCloseTo(1, 5);
      }
    }
  });

  it('gives the same numbers on one thread and on two', () => {
    const random = createRandom(13);
    const n = 8000;
    const d = 400;
    const rotation = randomRotation(40, random).map((row) => [
      ...row,
      ...new Array<number>(d - 40).fill(0),
    ]);
    const data = gaussian(
      n,
      rotation,
      Array.from({ length: 40 }, (_, i) => 10 / (1 + i)),
      random,
      new Array<number>(d).fill(1),
    );
    for (let i = 0; i < data.length; i++) data[i]! += random.normal() * 0.1;
    for (const method of ['exact', 'randomized'] as const) {
      const one = pca(data, n, d, { components: 3, method, threads: 1 });
      const two = pca(data, n, d, { components: 3, method, threads: 2 });
      expect(two.projection).toEqual(one.projection);
      expect(two.components).toEqual(one.components);
      expect(two.explainedVariance).toEqual(one.explainedVariance);
    }
  });

  it('reports zero variance, not NaN, for a single point or identical points', () => {
    for (const n of [1, 4]) {
      const data = new Float32Array(n * 3).fill(2.5);
      for (const method of ['exact', 'randomized'] as const) {
        const result = pca(data, n, 3, { method });
        expect(Array.from(result.projection)).toEqual(new Array<number>(n * 2).fill(0));
        expect(Array.from(result.explainedVariance)).toEqual([0, 0]);
        expect(Array.from(result.explainedVarianceRatio)).toEqual([0, 0]);
        expect(Array.from(result.mean)).toEqual([2.5, 2.5, 2.5]);
        expect(result.components.every(Number.isFinite)).toBe(true);
      }
    }
  });

  it('rejects inconsistent sizes and options, naming them', () => {
    const data = new Float32Array(12);
    expect(() => pca(data, 5, 3)).toThrow(/n · d/);
    expect(() => pca(data, 4, 3, { components: 4 })).toThrow(/components/);
    expect(() => pca(data, 4, 3, { components: 0 })).toThrow(/components/);
    expect(() => pca(data, 0, 3)).toThrow(/^n /);
    expect(() => pca(data, 4, 3, { powerIterations: -1 })).toThrow(/powerIterations/);
    expect(() => pca(data, 4, 3, { threads: 0 })).toThrow(/threads/);
  });
});

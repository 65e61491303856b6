import { describe, expect, it } from 'vitest';
import { createRandom, type Random } from '../random.js';
import { pca, symmetricEigen } from './pca.js';

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

  it('rejects inconsistent sizes and options, naming them', () => {
    const data = new Float32Array(12);
    expect(() => pca(data, 5, 3)).toThrow(/n · d/);
    expect(() => pca(data, 4, 3, { components: 4 })).toThrow(/components/);
    expect(() => pca(data, 4, 3, { components: 0 })).toThrow(/components/);
    expect(() => pca(data, 0, 3)).toThrow(/^n /);
    expect(() => pca(data, 4, 3, { powerIterations: -1 })).toThrow(/powerIterations/);
  });
});

describe('symmetricEigen', () => {
  it('decomposes a symmetric matrix into orthonormal eigenvectors', () => {
    const random = createRandom(10);
    const d = 9;
    const matrix = new Float64Array(d * d);
    for (let i = 0; i < d; i++) {
      for (let j = i; j < d; j++) {
        const value = random.normal();
        matrix[i * d + j] = value;
        matrix[j * d + i] = value;
      }
    }
    const original = matrix.slice();
    const { values, vectors } = symmetricEigen(matrix, d);
    for (let c = 0; c < d; c++) {
      for (let i = 0; i < d; i++) {
        let av = 0;
        for (let j = 0; j < d; j++) av += original[i * d + j]! * vectors[j * d + c]!;
        expect(av).toBeCloseTo(values[c]! * vectors[i * d + c]!, 10);
      }
      for (let c2 = 0; c2 < d; c2++) {
        let s = 0;
        for (let i = 0; i < d; i++) s += vectors[i * d + c]! * vectors[i * d + c2]!;
        expect(s).toBeCloseTo(c === c2 ? 1 : 0, 10);
      }
    }
    let trace = 0;
    for (let i = 0; i < d; i++) trace += original[i * d + i]!;
    expect(values.reduce((a, b) => a + b, 0)).toBeCloseTo(trace, 10);
  });
});

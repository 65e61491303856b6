import { describe, expect, it } from 'vitest';
import { clusteredVectors } from './clustered-vectors.js';
import { knnGraph } from './knn-graph.js';
import { nearestCentroidAccuracy } from './layout-test-utils.js';
import { trustworthiness } from './trustworthiness.js';
import {
  conditionalProbabilities,
  jointProbabilities,
  tsne,
  tsneGradient,
  type Affinities,
} from './tsne.js';

const clustered = clusteredVectors({
  n: 600,
  dimension: 16,
  clusters: 6,
  noiseDimensions: 4,
  seed: 12,
});

describe('jointProbabilities', () => {
  it('gives a symmetric P summing to 1 on the union of both neighbour lists', () => {
    const { data, dimension } = clustered;
    const perplexity = 10;
    const knn = knnGraph(data, dimension, { k: 31 });
    const p = jointProbabilities(knn, 31, perplexity);
    const n = knn.n;
    const entries = new Map<string, number>();
    let total = 0;
    for (let i = 0; i < n; i++) {
      for (let t = p.rowStart[i]!; t < p.rowStart[i + 1]!; t++) {
        entries.set(`${i},${p.cols[t]}`, p.values[t]!);
        total += p.values[t]!;
      }
    }
    expect(total).toBeCloseTo(1, 10);
    const asymmetric = [...entries].filter(([key, value]) => {
      const [i, j] = key.split(',');
      return entries.get(`${j},${i}`) !== value;
    });
    expect(asymmetric).toEqual([]);
    // Every directed neighbour pair appears, in both directions.
    const missing: string[] = [];
    for (let i = 0; i < n; i++) {
      for (let t = 0; t < 31; t++) {
        if (!entries.has(`${i},${knn.indices[i * 31 + t]}`)) missing.push(`${i},${t}`);
      }
    }
    expect(missing).toEqual([]);
    // Values are (p(j|i) + p(i|j)) / Σ, from the calibrated conditionals.
    const conditional = conditionalProbabilities(knn, 31, perplexity);
    const pairs = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      for (let t = 0; t < 31; t++) {
        const j = knn.indices[i * 31 + t]!;
        for (const key of [`${i},${j}`, `${j},${i}`]) {
          pairs.set(key, (pairs.get(key) ?? 0) + conditional[i * 31 + t]!);
        }
      }
    }
    const sum = [...pairs.values()].reduce((a, b) => a + b, 0);
    const wrong = [...pairs].filter(([key, v]) => Math.abs(entries.get(key)! - v / sum) > 1e-12);
    expect(wrong).toEqual([]);
  });

  it('gives conditional rows with entropy ln(perplexity)', () => {
    const { data, dimension } = clustered;
    const knn = knnGraph(data, dimension, { k: 31 });
    for (const perplexity of [1.5, 3, 10, 25]) {
      const conditional = conditionalProbabilities(knn, 31, perplexity);
      for (let i = 0; i < knn.n; i += 37) {
        const row = conditional.subarray(i * 31, i * 31 + 31);
        const sum = row.reduce((s, v) => s + v, 0);
        const entropy = -row.reduce((s, v) => (v > 0 ? s + v * Math.log(v) : s), 0);
        expect(sum).toBeCloseTo(1, 10);
        expect(entropy).toBeCloseTo(Math.log(perplexity), 4);
        // Nearer neighbours never get less probability.
        expect(row.every((v, t) => t === 0 || v <= row[t - 1]! + 1e-15)).toBe(true);
      }
    }
  });

  it('puts all the mass on the nearest neighbour when the perplexity is below 1', () => {
    // Entropy cannot be negative: the search drives β up until the nearest takes everything.
    const { data, dimension } = clustered;
    const knn = knnGraph(data, dimension, { k: 31 });
    const conditional = conditionalProbabilities(knn, 31, 0.5);
    for (let i = 0; i < knn.n; i += 37) expect(conditional[i * 31]).toBeCloseTo(1, 6);
  });

  it('spreads probability evenly over equidistant neighbours', () => {
    // p ∝ exp(−β·d²) is uniform whatever β when all distances are equal: entropy ln k ≥ target.
    const knn = {
      n: 5,
      k: 4,
      indices: Int32Array.from([1, 2, 3, 4, 0, 2, 3, 4, 0, 1, 3, 4, 0, 1, 2, 4, 0, 1, 2, 3]),
      distances: new Float32Array(20).fill(2),
      exact: true,
    };
    const conditional = conditionalProbabilities(knn, 4, 3);
    for (const v of conditional) expect(v).toBeCloseTo(0.25, 12);
  });
});

/** The t-SNE gradient by its definition, every pair summed: the reference for Barnes-Hut. */
function exactGradient(y: Float64Array, p: Affinities, exaggeration: number): Float64Array {
  const n = y.length / 2;
  let z = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i !== j)
        z += 1 / (1 + (y[2 * i]! - y[2 * j]!) ** 2 + (y[2 * i + 1]! - y[2 * j + 1]!) ** 2);
    }
  }
  const dense = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let t = p.rowStart[i]!; t < p.rowStart[i + 1]!; t++)
      dense[i * n + p.cols[t]!] = p.values[t]!;
  }
  const grad = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const dx = y[2 * i]! - y[2 * j]!;
      const dy = y[2 * i + 1]! - y[2 * j + 1]!;
      const w = 1 / (1 + dx * dx + dy * dy);
      const coefficient = (exaggeration * dense[i * n + j]! - w / z) * w;
      grad[2 * i]! += 4 * coefficient * dx;
      grad[2 * i + 1]! += 4 * coefficient * dy;
    }
  }
  return grad;
}

describe('tsneGradient', () => {
  const { data, dimension } = clustered;
  const p = jointProbabilities(knnGraph(data, dimension, { k: 31 }), 31, 10);
  // A spread-out layout with clusters, so the tree has many levels and far cells.
  const y = new Float64Array(2 * 600);
  for (let i = 0; i < 600; i++) {
    y[2 * i] = data[i * dimension]! * 3 + Math.sin(i);
    y[2 * i + 1] = data[i * dimension + 1]! * 3 + Math.cos(i * 1.7);
  }
  const reference = exactGradient(y, p, 4);
  const relativeError = (g: Float64Array): number => {
    let diff = 0;
    let norm = 0;
    for (let t = 0; t < g.length; t++) {
      diff += (g[t]! - reference[t]!) ** 2;
      norm += reference[t]! ** 2;
    }
    return Math.sqrt(diff / norm);
  };

  it('is the exact gradient when theta is 0', () => {
    expect(relativeError(tsneGradient(y, p, 0, 4))).toBeLessThan(1e-12);
  });

  it('stays close to the exact gradient at theta 0.5 and degrades gracefully at 1', () => {
    const half = relativeError(tsneGradient(y, p, 0.5, 4));
    const one = relativeError(tsneGradient(y, p, 1, 4));
    expect(half).toBeGreaterThan(0); // cells were summarised
    expect(half).toBeLessThan(0.01);
    expect(one).toBeGreaterThan(half);
    expect(one).toBeLessThan(0.05);
  });
});

describe('tsne', () => {
  it('keeps neighbourhoods and separates clusters', () => {
    const { data, dimension, labels } = clustered;
    const layout = tsne(data, dimension, { seed: 1 });
    expect(layout.coordinates).toHaveLength(1200);
    expect(layout.coordinates.every(Number.isFinite)).toBe(true);
    expect(trustworthiness(data, dimension, layout.coordinates, 2, { k: 15 })).toBeGreaterThan(0.9);
    expect(nearestCentroidAccuracy(layout.coordinates, labels)).toBeGreaterThan(0.98);
  });

  it('gives the same layout for the same seed and another for another seed', () => {
    const { data, dimension } = clustered;
    const options = { perplexity: 10, iterations: 100, explorationIterations: 50 };
    const a = tsne(data, dimension, { ...options, seed: 3 });
    const b = tsne(data, dimension, { ...options, seed: 3 });
    const c = tsne(data, dimension, { ...options, seed: 4 });
    expect(b.coordinates).toEqual(a.coordinates);
    expect(c.coordinates).not.toEqual(a.coordinates);
  });

  it('rejects out-of-range parameters with clear messages', () => {
    const { data, dimension } = clustered;
    for (const perplexity of [0, 0.05, 100.5, Number.NaN]) {
      expect(() => tsne(data, dimension, { perplexity })).toThrow(
        /perplexity must be from 0.1 to 100/,
      );
    }
    const few = data.subarray(0, 20 * dimension);
    expect(() => tsne(few, dimension)).toThrow(
      /perplexity must be less than the number of points \(20\), got 30/,
    );
    expect(() => tsne(data.subarray(0, 3 * dimension), dimension, { perplexity: 1 })).toThrow(
      /t-SNE needs at least 4 points, got 3/,
    );
    expect(() => tsne(data, dimension, { theta: 2 })).toThrow(/theta/);
    expect(() => tsne(data, dimension, { learningRate: -1 })).toThrow(/learningRate/);
  });
});

import { describe, expect, it } from 'vitest';
import { clusteredVectors } from './clustered-vectors.js';
import { knnGraph } from './knn-graph.js';
import { nearestCentroidAccuracy } from './layout-test-utils.js';
import { trustworthiness } from './trustworthiness.js';
import { conditionalProbabilities, jointProbabilities, tsne } from './tsne.js';

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
    for (const [key, value] of entries) {
      const [i, j] = key.split(',');
      expect(entries.get(`${j},${i}`)).toBe(value);
    }
    // Every directed neighbour pair appears, in both directions.
    for (let i = 0; i < n; i++) {
      for (let t = 0; t < 31; t++)
        expect(entries.has(`${i},${knn.indices[i * 31 + t]}`)).toBe(true);
    }
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

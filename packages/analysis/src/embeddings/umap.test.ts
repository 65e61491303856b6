import { describe, expect, it } from 'vitest';
import { clusteredVectors } from './clustered-vectors.js';
import { knnGraph } from './knn-graph.js';
import { nearestCentroidAccuracy } from './layout-test-utils.js';
import { trustworthiness } from './trustworthiness.js';
import { scriptTeamWorkers } from './script-team.js';
import { findAbParams, umap, UMAP_PARALLEL_FROM } from './umap.js';

const clustered = clusteredVectors({
  n: 800,
  dimension: 16,
  clusters: 8,
  noiseDimensions: 4,
  seed: 11,
});

describe('findAbParams', () => {
  it("reproduces umap-learn's curve parameters", () => {
    // umap-learn 0.5: find_ab_params(1.0, 0.1) = (1.5769434603, 0.8950608781).
    const { a, b } = findAbParams(1, 0.1);
    expect(a).toBeCloseTo(1.57694346, 4);
    expect(b).toBeCloseTo(0.89506088, 4);
    // find_ab_params(1.0, 0.5) = (0.5830300, 1.3341669).
    const wide = findAbParams(1, 0.5);
    expect(wide.a).toBeCloseTo(0.58303, 3);
    expect(wide.b).toBeCloseTo(1.33417, 3);
  });
});

describe('umap', () => {
  it('keeps neighbourhoods and separates clusters', () => {
    const { data, dimension, labels } = clustered;
    const layout = umap(data, dimension, { seed: 1 });
    expect(layout.n).toBe(800);
    expect(layout.coordinates).toHaveLength(1600);
    expect(layout.coordinates.every(Number.isFinite)).toBe(true);
    expect(trustworthiness(data, dimension, layout.coordinates, 2, { k: 15 })).toBeGreaterThan(0.9);
    expect(nearestCentroidAccuracy(layout.coordinates, labels)).toBeGreaterThan(0.98);
  });

  it('uses NN-descent graphs and the cosine metric', () => {
    const { data, dimension, labels } = clustered;
    // Scaling rows changes no cosine distance, so the clusters must still come out.
    const scaled = data.map((v, t) => v * (1 + (Math.floor(t / dimension) % 5)));
    const knn = knnGraph(scaled, dimension, { k: 9, metric: 'cosine', exactBelow: 0, seed: 2 });
    const layout = umap(scaled, dimension, { numNeighbors: 10, knn, nEpochs: 200, seed: 2 });
    expect(nearestCentroidAccuracy(layout.coordinates, labels)).toBeGreaterThan(0.95);
  });

  it('gives the same layout for the same seed and another for another seed', () => {
    const { data, dimension } = clustered;
    const options = { numNeighbors: 8, nEpochs: 50 };
    const a = umap(data, dimension, { ...options, seed: 7 });
    const b = umap(data, dimension, { ...options, seed: 7 });
    const c = umap(data, dimension, { ...options, seed: 8 });
    expect(b.coordinates).toEqual(a.coordinates);
    expect(c.coordinates).not.toEqual(a.coordinates);
  });

  it('lays out on several threads the same for any number of threads', async () => {
    const { data, dimension } = clusteredVectors({
      n: 1500,
      dimension: 12,
      clusters: 10,
      noiseDimensions: 4,
      seed: 13,
    });
    // The kNN graph's threads have their own test (knn-graph.test.ts).
    const options = { nEpochs: 60, seed: 3, parallel: true };
    const one = umap(data, dimension, { ...options, threads: 1 });
    const two = umap(data, dimension, { ...options, threads: 2 });
    const three = umap(data, dimension, { ...options, threads: 3 });
    const again = umap(data, dimension, { ...options, threads: 2 });
    expect(one.coordinates.every(Number.isFinite)).toBe(true);
    for (const layout of [two, three, again]) expect(layout.coordinates).toEqual(one.coordinates);
    const other = umap(data, dimension, { ...options, seed: 4, threads: 2 });
    expect(other.coordinates).not.toEqual(one.coordinates);
    // Every worker thread has ended.
    await expect.poll(scriptTeamWorkers).toBe(0);
  });

  it('takes the threaded path from UMAP_PARALLEL_FROM points on', async () => {
    const { data, dimension } = clusteredVectors({
      n: UMAP_PARALLEL_FROM,
      dimension: 8,
      clusters: 6,
      noiseDimensions: 2,
      seed: 14,
    });
    const options = { nEpochs: 5, seed: 3 };
    const threaded = umap(data, dimension, { ...options, threads: 2 });
    expect(umap(data, dimension, { ...options, parallel: true, threads: 1 }).coordinates).toEqual(
      threaded.coordinates,
    );
    await expect.poll(scriptTeamWorkers).toBe(0);
  });

  it('keeps neighbourhoods on several threads as well as on one', () => {
    const { data, dimension, labels } = clustered;
    const knn = knnGraph(data, dimension, { k: 14 });
    const score = (parallel: boolean) => {
      const layout = umap(data, dimension, { knn, parallel, threads: 2, seed: 5 });
      return {
        trust: trustworthiness(data, dimension, layout.coordinates, 2, { k: 15 }),
        accuracy: nearestCentroidAccuracy(layout.coordinates, labels),
      };
    };
    const sequential = score(false);
    const parallel = score(true);
    expect(parallel.trust).toBeGreaterThanOrEqual(sequential.trust - 0.005);
    expect(parallel.accuracy).toBeGreaterThan(0.98);
  });

  it('reports progress from 0 to 1', () => {
    const { data, dimension } = clustered;
    const seen: number[] = [];
    umap(data, dimension, { nEpochs: 30, onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.every((f, t) => f >= 0 && f <= 1 && (t === 0 || f >= seen[t - 1]!))).toBe(true);
    expect(seen.at(-1)).toBe(1);
  });

  it('rejects out-of-range parameters with clear messages', () => {
    const { data, dimension } = clustered;
    for (const numNeighbors of [1, 101, 2.5, Number.NaN]) {
      expect(() => umap(data, dimension, { numNeighbors })).toThrow(
        /num_neighbors must be an integer from 2 to 100/,
      );
    }
    const few = data.subarray(0, 15 * dimension);
    expect(() => umap(few, dimension)).toThrow(
      /UMAP with num_neighbors = 15 needs more than 15 points, got 15/,
    );
    expect(() => umap(data, dimension, { minDist: 2 })).toThrow(/min_dist must be from 0 to/);
    expect(() => umap(data, dimension, { nEpochs: 0 })).toThrow(/n_epochs/);
    expect(() => umap(data, dimension, { threads: 0 })).toThrow(/threads must be a positive/);
    const knn = knnGraph(data, dimension, { k: 5 });
    expect(() => umap(data, dimension, { knn })).toThrow(/at least 14 neighbours/);
  });
});

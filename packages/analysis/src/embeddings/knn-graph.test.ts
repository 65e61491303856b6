import { describe, expect, it } from 'vitest';
import { clusteredVectors } from './clustered-vectors.js';
import { knnGraph, type EmbeddingMetric, type KnnGraph } from './knn-graph.js';
import { scriptTeamWorkers } from './script-team.js';

/** Every pair's distance, then a full sort per row: the obvious O(n² log n) answer. */
function naiveNeighbours(
  data: Float32Array,
  d: number,
  k: number,
  metric: EmbeddingMetric,
): { indices: number[][]; distances: number[][] } {
  const n = data.length / d;
  const row = (i: number): number[] => Array.from(data.subarray(i * d, (i + 1) * d));
  const distance = (a: number[], b: number[]): number => {
    if (metric === 'euclidean') return Math.hypot(...a.map((x, c) => x - b[c]!));
    const dot = a.reduce((s, x, c) => s + x * b[c]!, 0);
    return 1 - dot / (Math.hypot(...a) * Math.hypot(...b));
  };
  const indices: number[][] = [];
  const distances: number[][] = [];
  for (let i = 0; i < n; i++) {
    const others = [...Array(n).keys()]
      .filter((j) => j !== i)
      .map((j) => ({ j, dist: distance(row(i), row(j)) }))
      .sort((x, y) => x.dist - y.dist)
      .slice(0, k);
    indices.push(others.map((o) => o.j));
    distances.push(others.map((o) => o.dist));
  }
  return { indices, distances };
}

function recall(approx: KnnGraph, exact: KnnGraph): number {
  let hits = 0;
  for (let i = 0; i < exact.n; i++) {
    const truth = new Set(exact.indices.subarray(i * exact.k, (i + 1) * exact.k));
    for (let t = 0; t < approx.k; t++) if (truth.has(approx.indices[i * approx.k + t]!)) hits++;
  }
  return hits / (exact.n * exact.k);
}

describe('knnGraph', () => {
  it.each(['euclidean', 'cosine'] as const)(
    'finds the exact %s neighbours by brute force',
    (metric) => {
      const { data, dimension } = clusteredVectors({
        n: 120,
        dimension: 6,
        clusters: 4,
        noiseDimensions: 2,
        seed: 5,
      });
      const graph = knnGraph(data, dimension, { k: 7, metric });
      const reference = naiveNeighbours(data, dimension, 7, metric);
      expect(graph.exact).toBe(true);
      for (let i = 0; i < 120; i++) {
        expect(Array.from(graph.indices.subarray(i * 7, i * 7 + 7))).toEqual(reference.indices[i]);
        const distances = Array.from(graph.distances.subarray(i * 7, i * 7 + 7));
        distances.forEach((dist, t) => expect(dist).toBeCloseTo(reference.distances[i]![t]!, 4));
      }
    },
  );

  it.each(['euclidean', 'cosine'] as const)(
    'NN-descent recalls at least 90 percent of the true %s neighbours',
    (metric) => {
      const { data, dimension } = clusteredVectors({
        n: 2000,
        dimension: 32,
        clusters: 20,
        noiseDimensions: 8,
        seed: 9,
      });
      const exact = knnGraph(data, dimension, { k: 15, metric });
      const approx = knnGraph(data, dimension, { k: 15, metric, exactBelow: 0, seed: 3 });
      expect(approx.exact).toBe(false);
      expect(recall(approx, exact)).toBeGreaterThanOrEqual(0.9);
      // Rows are sorted, never contain the point itself, never repeat a neighbour.
      const badRows: number[] = [];
      for (let i = 0; i < 2000; i++) {
        const row = Array.from(approx.indices.subarray(i * 15, i * 15 + 15));
        const dist = approx.distances.subarray(i * 15, i * 15 + 15);
        const sorted = dist.every((v, t) => t === 0 || v >= dist[t - 1]!);
        if (row.includes(i) || new Set(row).size !== 15 || !sorted) badRows.push(i);
      }
      expect(badRows).toEqual([]);
    },
  );

  it('gives the same graph for the same seed', () => {
    const { data, dimension } = clusteredVectors({
      n: 800,
      dimension: 16,
      noiseDimensions: 4,
      seed: 2,
    });
    const a = knnGraph(data, dimension, { k: 10, exactBelow: 0, seed: 4 });
    const b = knnGraph(data, dimension, { k: 10, exactBelow: 0, seed: 4 });
    expect(b.indices).toEqual(a.indices);
  });

  it('joins on several threads to the same graph for any number of threads', async () => {
    const { data, dimension } = clusteredVectors({
      n: 3000,
      dimension: 24,
      clusters: 15,
      noiseDimensions: 6,
      seed: 12,
    });
    const options = { k: 12, exactBelow: 0, seed: 5, parallel: true };
    const one = knnGraph(data, dimension, { ...options, threads: 1 });
    const two = knnGraph(data, dimension, { ...options, threads: 2 });
    const three = knnGraph(data, dimension, { ...options, threads: 3 });
    const again = knnGraph(data, dimension, { ...options, threads: 2 });
    for (const graph of [two, three, again]) {
      expect(graph.indices).toEqual(one.indices);
      expect(graph.distances).toEqual(one.distances);
    }
    const exact = knnGraph(data, dimension, { k: 12 });
    expect(recall(two, exact)).toBeGreaterThanOrEqual(0.9);
    // Not the single-threaded graph (its joins update heaps as they go), but as good.
    const sequential = knnGraph(data, dimension, { k: 12, exactBelow: 0, seed: 5 });
    expect(recall(two, exact)).toBeGreaterThanOrEqual(recall(sequential, exact) - 0.01);
    await expect.poll(scriptTeamWorkers).toBe(0);
  });

  it('rejects impossible requests with a clear message', () => {
    const data = new Float32Array(10 * 3);
    expect(() => knnGraph(data, 3, { k: 10 })).toThrow(
      /k = 10 neighbours need at least 11 points, got 10/,
    );
    expect(() => knnGraph(data, 3, { k: 0 })).toThrow(/k must be a positive integer/);
    expect(() => knnGraph(new Float32Array(7), 3, { k: 1 })).toThrow(
      /not a multiple of the dimension 3/,
    );
    expect(() => knnGraph(Float32Array.of(0, Number.NaN, 1, 2), 2, { k: 1 })).toThrow(/finite/);
    expect(() => knnGraph(data, 3, { k: 2, metric: 'manhattan' as EmbeddingMetric })).toThrow(
      /Unknown metric/,
    );
  });
});

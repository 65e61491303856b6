// Trustworthiness of a low-dimensional embedding (Venna & Kaski; scikit-learn's definition),
// exact, optionally over a random sample of points so it stays affordable at 60,000 points.

import { createRandom } from '../random.js';
import { normalizeRows, vectorCount, type EmbeddingMetric } from './knn-graph.js';

export interface TrustworthinessOptions {
  /** Neighbourhood size (default 5, as scikit-learn). Must be < n / 2. */
  k?: number;
  /** Metric of the original space (default 'euclidean'); the embedding is always euclidean. */
  metric?: EmbeddingMetric;
  /** Evaluate this many randomly chosen points (default: all of them). */
  sample?: number;
  seed?: number;
}

/**
 * T(k) = 1 − 2 / (m·k·(2n − 3k − 1)) · Σᵢ Σ_{j ∈ Uᵢ} (r(i, j) − k), over the m evaluated points i,
 * where Uᵢ are i's k nearest neighbours in the embedding that are not among its k nearest in the
 * original space and r(i, j) is j's rank (1 = nearest, ties by index) among all n points in the
 * original space. With every point evaluated (m = n) this is scikit-learn's value; a sample
 * estimates it without bias and costs O(m·n·d) instead of O(n²·d).
 */
export function trustworthiness(
  original: Float32Array,
  dimension: number,
  embedding: Float32Array,
  embeddingDimension: number,
  options: TrustworthinessOptions = {},
): number {
  const n = vectorCount(original, dimension);
  if (vectorCount(embedding, embeddingDimension) !== n) {
    throw new RangeError(
      `Embedding has ${embedding.length / embeddingDimension} points, the original ${n}`,
    );
  }
  const { k = 5, metric = 'euclidean', seed = 0 } = options;
  if (!Number.isInteger(k) || k < 1 || k >= n / 2) {
    throw new RangeError(`k must be an integer from 1 to below n / 2 = ${n / 2}, got ${k}`);
  }
  const m = Math.min(n, options.sample ?? n);
  if (!Number.isInteger(m) || m < 1) {
    throw new RangeError(`sample must be a positive integer, got ${options.sample}`);
  }
  const points = metric === 'cosine' ? normalizeRows(original, dimension) : original;
  const evaluated = samplePoints(n, m, seed);

  const dist = new Float64Array(n);
  const nearest = new Int32Array(k);
  const nearestDist = new Float64Array(k);
  let penalty = 0;
  for (const i of evaluated) {
    embeddingNeighbours(embedding, embeddingDimension, n, i, k, nearest, nearestDist);
    // Squared distances order the same as distances (cosine: ½‖a − b‖² on unit rows).
    const pi = i * dimension;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let c = 0, pj = j * dimension; c < dimension; c++) {
        const t = points[pi + c]! - points[pj + c]!;
        s += t * t;
      }
      dist[j] = s;
    }
    for (let t = 0; t < k; t++) {
      const j = nearest[t]!;
      const dj = dist[j]!;
      // rank = 1 + points (other than i) strictly closer, or as close with a smaller index.
      let rank = 1;
      for (let l = 0; l < n; l++) {
        if (l === i) continue;
        const dl = dist[l]!;
        if (dl < dj || (dl === dj && l < j)) rank++;
      }
      if (rank > k) penalty += rank - k;
    }
  }
  return 1 - (2 * penalty) / (m * k * (2 * n - 3 * k - 1));
}

/** m distinct indices in increasing order (all of them when m = n). */
function samplePoints(n: number, m: number, seed: number): Int32Array {
  const all = new Int32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  if (m === n) return all;
  const random = createRandom(seed);
  for (let t = 0; t < m; t++) {
    const j = t + Math.floor(random.next() * (n - t));
    const x = all[t]!;
    all[t] = all[j]!;
    all[j] = x;
  }
  return all.slice(0, m).sort();
}

/** i's k nearest other points in the embedding, exact (ties by index). */
function embeddingNeighbours(
  embedding: Float32Array,
  d: number,
  n: number,
  i: number,
  k: number,
  nearest: Int32Array,
  nearestDist: Float64Array,
): void {
  nearestDist.fill(Infinity);
  nearest.fill(-1);
  for (let j = 0; j < n; j++) {
    if (j === i) continue;
    let s = 0;
    for (let c = 0; c < d; c++) {
      const t = embedding[i * d + c]! - embedding[j * d + c]!;
      s += t * t;
    }
    if (s >= nearestDist[k - 1]!) continue;
    // Insertion into the sorted list; j increases, so equal distances keep index order.
    let pos = k - 1;
    while (pos > 0 && nearestDist[pos - 1]! > s) {
      nearestDist[pos] = nearestDist[pos - 1]!;
      nearest[pos] = nearest[pos - 1]!;
      pos--;
    }
    nearestDist[pos] = s;
    nearest[pos] = j;
  }
}

// k-nearest-neighbour graph for the UMAP and t-SNE layouts: exact brute force for small inputs,
// otherwise NN-descent (Dong, Charikar & Li 2011) seeded by random-projection trees.

import { createRandom } from '../random.js';

export type EmbeddingMetric = 'euclidean' | 'cosine';

export interface KnnGraph {
  /** Number of points. */
  n: number;
  /** Neighbours per point (the point itself is never one of them). */
  k: number;
  /** Row-major (n, k) neighbour indices, nearest first. */
  indices: Int32Array;
  /** Row-major (n, k) distances (euclidean, or 1 − cosine similarity), ascending per row. */
  distances: Float32Array;
  /** True when computed by brute force. */
  exact: boolean;
}

export interface KnnGraphOptions {
  k: number;
  /** Default 'euclidean'. */
  metric?: EmbeddingMetric;
  /** Seed of the random initialisation and sampling (default 0). */
  seed?: number;
  /** Brute force when n is at most this (default 4,096). */
  exactBelow?: number;
  /** NN-descent iterations at most (default 12). */
  maxIterations?: number;
  /** NN-descent candidates sampled per point and round (default min(60, max(k, 10))). */
  maxCandidates?: number;
  /** Called with the fraction done, from 0 to 1. */
  onProgress?: (fraction: number) => void;
}

/** Checks a row-major (n, dimension) input and returns n. */
export function vectorCount(data: Float32Array, dimension: number): number {
  if (!(data instanceof Float32Array)) throw new TypeError('Vectors must be a Float32Array');
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new RangeError(`Vector dimension must be a positive integer, got ${dimension}`);
  }
  if (data.length % dimension !== 0) {
    throw new RangeError(
      `Vector data length ${data.length} is not a multiple of the dimension ${dimension}`,
    );
  }
  for (let i = 0; i < data.length; i++) {
    if (!Number.isFinite(data[i]!)) {
      throw new RangeError(`Vectors must be finite numbers (row ${Math.floor(i / dimension)})`);
    }
  }
  return data.length / dimension;
}

/**
 * Rows scaled to unit length, so that squared euclidean distance / 2 = cosine distance and one
 * euclidean code path serves both metrics. Zero rows stay zero.
 */
export function normalizeRows(data: Float32Array, dimension: number): Float32Array {
  const out = new Float32Array(data.length);
  for (let start = 0; start < data.length; start += dimension) {
    let norm = 0;
    for (let c = 0; c < dimension; c++) norm += data[start + c]! * data[start + c]!;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let c = 0; c < dimension; c++) out[start + c] = data[start + c]! * scale;
  }
  return out;
}

function squaredDistance(data: Float32Array, d: number, a: number, b: number): number {
  let s = 0;
  let pa = a * d;
  let pb = b * d;
  const end = pa + d;
  while (pa < end) {
    const t = data[pa++]! - data[pb++]!;
    s += t * t;
  }
  return s;
}

/**
 * Fixed-size max-heaps, one per point, of the k best neighbours seen so far (root = farthest).
 * `isNew` marks entries NN-descent has not yet used for a local join.
 */
class NeighbourHeaps {
  readonly indices: Int32Array;
  readonly dists: Float64Array;
  readonly isNew: Uint8Array;
  constructor(
    readonly n: number,
    readonly k: number,
  ) {
    this.indices = new Int32Array(n * k).fill(-1);
    this.dists = new Float64Array(n * k).fill(Infinity);
    this.isNew = new Uint8Array(n * k);
  }

  /** Offers j at distance dist to point i's heap; true if it was taken. */
  push(i: number, j: number, dist: number): boolean {
    const k = this.k;
    const base = i * k;
    const dists = this.dists;
    const indices = this.indices;
    if (dist >= dists[base]!) return false;
    for (let t = base; t < base + k; t++) if (indices[t] === j) return false;
    // Replace the root and sift down.
    let pos = 0;
    for (;;) {
      const left = 2 * pos + 1;
      if (left >= k) break;
      const right = left + 1;
      let child = left;
      if (right < k && dists[base + right]! > dists[base + left]!) child = right;
      if (dists[base + child]! <= dist) break;
      dists[base + pos] = dists[base + child]!;
      indices[base + pos] = indices[base + child]!;
      this.isNew[base + pos] = this.isNew[base + child]!;
      pos = child;
    }
    dists[base + pos] = dist;
    indices[base + pos] = j;
    this.isNew[base + pos] = 1;
    return true;
  }

  /** Sorted rows with distances converted from squared euclidean to the metric. */
  toGraph(metric: EmbeddingMetric, exact: boolean): KnnGraph {
    const { n, k } = this;
    const indices = new Int32Array(n * k);
    const distances = new Float32Array(n * k);
    const order = new Int32Array(k);
    for (let i = 0; i < n; i++) {
      const base = i * k;
      for (let t = 0; t < k; t++) order[t] = t;
      order.sort((a, b) => this.dists[base + a]! - this.dists[base + b]!);
      for (let t = 0; t < k; t++) {
        const sq = this.dists[base + order[t]!]!;
        indices[base + t] = this.indices[base + order[t]!]!;
        distances[base + t] = metric === 'cosine' ? sq / 2 : Math.sqrt(sq);
      }
    }
    return { n, k, indices, distances, exact };
  }
}

/**
 * The k nearest neighbours of every point. Exact below `exactBelow` points; above, NN-descent
 * (recall typically ≥ 0.95 on clustered data, see knn-graph.test.ts).
 */
export function knnGraph(
  data: Float32Array,
  dimension: number,
  options: KnnGraphOptions,
): KnnGraph {
  const n = vectorCount(data, dimension);
  const { k, metric = 'euclidean', seed = 0, exactBelow = 4096, onProgress } = options;
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  if (k >= n) throw new RangeError(`k = ${k} neighbours need at least ${k + 1} points, got ${n}`);
  if (metric !== 'euclidean' && metric !== 'cosine') {
    throw new RangeError(`Unknown metric '${String(metric)}' (euclidean or cosine)`);
  }
  const points = metric === 'cosine' ? normalizeRows(data, dimension) : data;
  const heaps = new NeighbourHeaps(n, k);
  if (n <= exactBelow) {
    bruteForce(points, dimension, heaps, onProgress);
    onProgress?.(1);
    return heaps.toGraph(metric, true);
  }
  // NN-descent reads rows in a random order; putting the rows of one random-projection tree
  // leaf next to each other in memory turns most of those reads into cache hits.
  const random = createRandom(seed);
  const order = new Int32Array(n);
  let filled = 0;
  rpTreeLeaves(points, dimension, n, 64, random.next, (members, start, end) => {
    order.set(members.subarray(start, end), filled);
    filled += end - start;
  });
  const local = new Float32Array(n * dimension);
  for (let i = 0; i < n; i++) {
    local.set(points.subarray(order[i]! * dimension, (order[i]! + 1) * dimension), i * dimension);
  }
  nnDescent(
    local,
    dimension,
    heaps,
    seed,
    options.maxIterations ?? 12,
    options.maxCandidates ?? Math.min(60, Math.max(k, 10)),
    onProgress,
  );
  onProgress?.(1);
  const graph = heaps.toGraph(metric, false);
  const indices = new Int32Array(n * k);
  const distances = new Float32Array(n * k);
  for (let i = 0; i < n; i++) {
    const row = order[i]! * k;
    for (let t = 0; t < k; t++) {
      indices[row + t] = order[graph.indices[i * k + t]!]!;
      distances[row + t] = graph.distances[i * k + t]!;
    }
  }
  return { n, k, indices, distances, exact: false };
}

function bruteForce(
  data: Float32Array,
  d: number,
  heaps: NeighbourHeaps,
  onProgress?: (fraction: number) => void,
): void {
  const n = heaps.n;
  const k = heaps.k;
  const dists = heaps.dists;
  const total = (n * (n - 1)) / 2;
  let done = 0;
  for (let i = 0; i < n; i++) {
    const pi = i * d;
    for (let j = i + 1; j < n; j++) {
      let s = 0;
      let pa = pi;
      let pb = j * d;
      const end = pa + d;
      while (pa < end) {
        const t = data[pa++]! - data[pb++]!;
        s += t * t;
      }
      // Cheap threshold tests first: most pairs are in neither heap.
      if (s < dists[i * k]!) heaps.push(i, j, s);
      if (s < dists[j * k]!) heaps.push(j, i, s);
    }
    done += n - 1 - i;
    if (onProgress && (i & 255) === 0) onProgress(done / total);
  }
}

/** Random-projection tree leaves (index lists), each at most leafSize points. */
function rpTreeLeaves(
  data: Float32Array,
  d: number,
  n: number,
  leafSize: number,
  next: () => number,
  visit: (members: Int32Array, start: number, end: number) => void,
): void {
  const members = new Int32Array(n);
  for (let i = 0; i < n; i++) members[i] = i;
  const side = new Uint8Array(n);
  const scratch = new Int32Array(n);
  const normal = new Float64Array(d);
  const stack: number[] = [0, n];
  while (stack.length > 0) {
    const end = stack.pop()!;
    const start = stack.pop()!;
    const size = end - start;
    if (size <= leafSize) {
      visit(members, start, end);
      continue;
    }
    // Hyperplane halfway between two random members, normal along their difference.
    const a = members[start + Math.floor(next() * size)]!;
    let b = members[start + Math.floor(next() * size)]!;
    if (a === b) b = members[start + ((a - start + 1) % size)]!;
    let offset = 0;
    for (let c = 0; c < d; c++) {
      const xa = data[a * d + c]!;
      const xb = data[b * d + c]!;
      normal[c] = xa - xb;
      offset += (xa - xb) * (xa + xb) * 0.5;
    }
    let left = 0;
    for (let t = start; t < end; t++) {
      const base = members[t]! * d;
      let dot = 0;
      for (let c = 0; c < d; c++) dot += normal[c]! * data[base + c]!;
      const goesLeft = dot > offset;
      side[t - start] = goesLeft ? 1 : 0;
      if (goesLeft) left++;
    }
    if (left === 0 || left === size) {
      // Duplicates or a degenerate plane: split at random so the tree still ends.
      left = 0;
      for (let t = 0; t < size; t++) {
        side[t] = next() < 0.5 ? 1 : 0;
        left += side[t]!;
      }
      if (left === 0 || left === size) {
        side.fill(0, 0, size);
        side.fill(1, 0, size >> 1);
        left = size >> 1;
      }
    }
    // Stable in-place partition through a scratch copy of the range.
    scratch.set(members.subarray(start, end));
    let l = start;
    let r = start + left;
    for (let t = 0; t < size; t++) {
      if (side[t] === 1) members[l++] = scratch[t]!;
      else members[r++] = scratch[t]!;
    }
    stack.push(start, start + left, start + left, end);
  }
}

function nnDescent(
  data: Float32Array,
  d: number,
  heaps: NeighbourHeaps,
  seed: number,
  maxIterations: number,
  maxCandidates: number,
  onProgress?: (fraction: number) => void,
): void {
  const { n, k } = heaps;
  const random = createRandom(seed);
  const next = random.next;

  // Initialise from random-projection tree leaves (close points share leaves), then fill any
  // heap slot still empty with random points.
  // A few trees are enough: NN-descent repairs what they miss, and each costs O(n·d·log n).
  const trees = 4;
  const leafSize = Math.max(10, k);
  for (let tree = 0; tree < trees; tree++) {
    rpTreeLeaves(data, d, n, leafSize, next, (members, start, end) => {
      for (let a = start; a < end; a++) {
        const p = members[a]!;
        for (let b = a + 1; b < end; b++) {
          const q = members[b]!;
          const s = squaredDistance(data, d, p, q);
          heaps.push(p, q, s);
          heaps.push(q, p, s);
        }
      }
    });
    onProgress?.((0.3 * (tree + 1)) / trees);
  }
  for (let i = 0; i < n; i++) {
    // The root holds the farthest entry, so an empty slot (−1, infinitely far) sits there.
    while (heaps.indices[i * k]! < 0) {
      const j = Math.floor(next() * n);
      if (j !== i) heaps.push(i, j, squaredDistance(data, d, i, j));
    }
  }

  // Each round: sample up to maxCandidates new and old candidates per point, forward and
  // reverse, by reservoir sampling; then compare every new candidate with every other candidate.
  const newCand = new Int32Array(n * maxCandidates);
  const oldCand = new Int32Array(n * maxCandidates);
  const newSeen = new Int32Array(n);
  const oldSeen = new Int32Array(n);
  const offer = (cand: Int32Array, seen: Int32Array, i: number, j: number): void => {
    const c = seen[i]!;
    if (c < maxCandidates) cand[i * maxCandidates + c] = j;
    else {
      const r = Math.floor(next() * (c + 1));
      if (r < maxCandidates) cand[i * maxCandidates + r] = j;
    }
    seen[i] = c + 1;
  };
  const stopBelow = Math.max(1, 0.001 * n * k);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    newSeen.fill(0);
    oldSeen.fill(0);
    for (let i = 0; i < n; i++) {
      for (let t = i * k; t < i * k + k; t++) {
        const j = heaps.indices[t]!;
        if (j < 0) continue;
        if (heaps.isNew[t] === 1) {
          offer(newCand, newSeen, i, j);
          offer(newCand, newSeen, j, i);
        } else {
          offer(oldCand, oldSeen, i, j);
          offer(oldCand, oldSeen, j, i);
        }
      }
    }
    // Entries sampled as new candidates become old: they will have been joined this round.
    for (let i = 0; i < n; i++) {
      const count = Math.min(newSeen[i]!, maxCandidates);
      for (let t = i * k; t < i * k + k; t++) {
        if (heaps.isNew[t] !== 1) continue;
        const j = heaps.indices[t]!;
        for (let c = 0; c < count; c++) {
          if (newCand[i * maxCandidates + c] === j) {
            heaps.isNew[t] = 0;
            break;
          }
        }
      }
    }
    let updates = 0;
    const dists = heaps.dists;
    for (let i = 0; i < n; i++) {
      const newCount = Math.min(newSeen[i]!, maxCandidates);
      const oldCount = Math.min(oldSeen[i]!, maxCandidates);
      const nb = i * maxCandidates;
      for (let a = 0; a < newCount; a++) {
        const p = newCand[nb + a]!;
        for (let b = a + 1; b < newCount; b++) {
          const q = newCand[nb + b]!;
          if (p === q) continue;
          const s = squaredDistance(data, d, p, q);
          if (s < dists[p * k]! && heaps.push(p, q, s)) updates++;
          if (s < dists[q * k]! && heaps.push(q, p, s)) updates++;
        }
        for (let b = 0; b < oldCount; b++) {
          const q = oldCand[nb + b]!;
          if (p === q) continue;
          const s = squaredDistance(data, d, p, q);
          if (s < dists[p * k]! && heaps.push(p, q, s)) updates++;
          if (s < dists[q * k]! && heaps.push(q, p, s)) updates++;
        }
      }
    }
    onProgress?.(0.3 + (0.7 * (iteration + 1)) / maxIterations);
    if (updates < stopBelow) break;
  }
}

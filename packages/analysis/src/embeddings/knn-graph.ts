// k-nearest-neighbour graph for the UMAP and t-SNE layouts: exact brute force for small inputs,
// otherwise NN-descent (Dong, Charikar & Li 2011) seeded by random-projection trees.

import { createRandom } from '../random.js';
import { defaultThreads, ScriptTeam } from './script-team.js';

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
  /** NN-descent candidates sampled per point and round (default min(20, max(k, 10))). */
  maxCandidates?: number;
  /**
   * NN-descent's local joins on several threads (`threads`, default the cores, at most 8): the
   * same graph for any number of threads, though not the single-threaded one (default false).
   */
  parallel?: boolean;
  threads?: number;
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

/** Self-contained (it also runs on the join threads, see script-team.ts). */
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
 * Offers j at distance dist to point i's heap (a max-heap of k entries at i · k, root the
 * farthest); true if it was taken. Self-contained: it also runs on the join threads.
 */
function heapPush(
  indices: Int32Array,
  dists: Float64Array,
  isNew: Uint8Array,
  k: number,
  i: number,
  j: number,
  dist: number,
): boolean {
  const base = i * k;
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
    isNew[base + pos] = isNew[base + child]!;
    pos = child;
  }
  dists[base + pos] = dist;
  indices[base + pos] = j;
  isNew[base + pos] = 1;
  return true;
}

/**
 * Fixed-size max-heaps, one per point, of the k best neighbours seen so far (root = farthest).
 * `isNew` marks entries NN-descent has not yet used for a local join.
 */
class NeighbourHeaps {
  readonly indices: Int32Array;
  readonly dists: Float64Array;
  readonly isNew: Uint8Array;
  /** With `shared`, the arrays live in SharedArrayBuffers (for the join threads). */
  constructor(
    readonly n: number,
    readonly k: number,
    shared = false,
  ) {
    const buffer = (bytes: number) =>
      shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
    this.indices = new Int32Array(buffer(4 * n * k)).fill(-1);
    this.dists = new Float64Array(buffer(8 * n * k)).fill(Infinity);
    this.isNew = new Uint8Array(buffer(n * k));
  }

  /** Offers j at distance dist to point i's heap; true if it was taken. */
  push(i: number, j: number, dist: number): boolean {
    return heapPush(this.indices, this.dists, this.isNew, this.k, i, j, dist);
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
  const parallel = options.parallel === true && n > exactBelow;
  const heaps = new NeighbourHeaps(n, k, parallel);
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
  const local = new Float32Array(
    parallel ? new SharedArrayBuffer(4 * n * dimension) : new ArrayBuffer(4 * n * dimension),
  );
  for (let i = 0; i < n; i++) {
    local.set(points.subarray(order[i]! * dimension, (order[i]! + 1) * dimension), i * dimension);
  }
  nnDescent(
    local,
    dimension,
    heaps,
    seed,
    options.maxIterations ?? 12,
    // More than ~20 candidates costs much more than the recall it adds (k = 91 for t-SNE).
    options.maxCandidates ?? Math.min(20, Math.max(k, 10)),
    parallel ? (options.threads ?? defaultThreads()) : 0,
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

/**
 * Random-projection tree leaves (index lists), each at most leafSize points. Self-contained
 * (it also runs on the tree threads).
 */
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
  threads: number,
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
  const buffer = (bytes: number) =>
    threads > 0 ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
  const newCand = new Int32Array(buffer(4 * n * maxCandidates));
  const oldCand = new Int32Array(buffer(4 * n * maxCandidates));
  const newSeen = new Int32Array(buffer(4 * n));
  const oldSeen = new Int32Array(buffer(4 * n));
  const joins =
    threads > 0
      ? new ParallelJoins(
          data,
          d,
          heaps,
          maxCandidates,
          newCand,
          oldCand,
          newSeen,
          oldSeen,
          threads,
        )
      : null;
  try {
    // On threads, the trees are grown side by side, each from its own generator.
    const grown = joins?.growTrees(trees, leafSize, seed);
    for (let tree = 0; tree < trees; tree++) {
      const leaves = (visit: (members: Int32Array, start: number, end: number) => void) =>
        grown ? grown(tree, visit) : rpTreeLeaves(data, d, n, leafSize, next, visit);
      leaves((members, start, end) => {
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
      if (joins) updates = joins.round();
      else
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
  } finally {
    joins?.close();
  }
}

/** mulberry32 (as random.ts) for a seed; self-contained (it runs on the tree threads). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rows of one join block: their updates are applied before the next block's joins. */
const JOIN_BLOCK_ROWS = 1024;
/** Rows of one join slice. */
const JOIN_SLICE_ROWS = 32;
/** Most random-projection trees grown at once. */
const TREES = 8;

interface JoinShared {
  data: SharedArrayBuffer;
  d: number;
  k: number;
  maxCandidates: number;
  heapIndices: SharedArrayBuffer;
  heapDists: SharedArrayBuffer;
  heapIsNew: SharedArrayBuffer;
  newCand: SharedArrayBuffer;
  oldCand: SharedArrayBuffer;
  newSeen: SharedArrayBuffer;
  oldSeen: SharedArrayBuffer;
  /** Per slice of a block: its updates (target, other, squared distance), at most `capacity`. */
  capacity: number;
  targets: SharedArrayBuffer;
  others: SharedArrayBuffer;
  distances: SharedArrayBuffer;
  /** Int32 per slice: how many updates it found; then per apply range: how many heaps took. */
  counts: SharedArrayBuffer;
  /** Int32: the trees' member lists (n each), their leaf counts and (start, end) pairs. */
  members: SharedArrayBuffer;
  leaves: SharedArrayBuffer;
}

/**
 * The join threads' program. `join(lo, hi, slot)` compares the candidates of rows lo…hi − 1 and
 * writes every pair closer than a heap's farthest entry to the slot's update list, reading the
 * heaps but not changing them; `apply(lo, hi, slots, range)` then offers the block's updates,
 * slot by slot in list order, to the heaps of points lo…hi − 1. Every heap thus sees the same
 * offers in the same order whichever thread found or applied them.
 */
function joinProgram(shared: JoinShared) {
  const { d, k, maxCandidates, capacity } = shared;
  const data = new Float32Array(shared.data);
  const indices = new Int32Array(shared.heapIndices);
  const dists = new Float64Array(shared.heapDists);
  const isNew = new Uint8Array(shared.heapIsNew);
  const newCand = new Int32Array(shared.newCand);
  const oldCand = new Int32Array(shared.oldCand);
  const newSeen = new Int32Array(shared.newSeen);
  const oldSeen = new Int32Array(shared.oldSeen);
  const targets = new Int32Array(shared.targets);
  const others = new Int32Array(shared.others);
  const distances = new Float64Array(shared.distances);
  const counts = new Int32Array(shared.counts);
  const n = newSeen.length;
  const members = new Int32Array(shared.members);
  const leaves = new Int32Array(shared.leaves);
  return {
    /** Tree t (leaves of at most leafSize points) from its own seed. */
    tree(t: number, leafSize: number, seed: number): void {
      const base = t * (2 * n + 1);
      let at = base + 1;
      let order: Int32Array | null = null;
      rpTreeLeaves(data, d, n, leafSize, mulberry32(seed), (list, start, end) => {
        order = list;
        leaves[at++] = start;
        leaves[at++] = end;
      });
      // A leaf's range is final once visited: later splits only reorder other ranges.
      if (order) members.set(order, t * n);
      leaves[base] = (at - base - 1) / 2;
    },
    join(lo: number, hi: number, slot: number): void {
      let at = slot * capacity;
      for (let i = lo; i < hi; i++) {
        const newCount = Math.min(newSeen[i]!, maxCandidates);
        const oldCount = Math.min(oldSeen[i]!, maxCandidates);
        const nb = i * maxCandidates;
        for (let a = 0; a < newCount; a++) {
          const p = newCand[nb + a]!;
          for (let b = a + 1; b < newCount + oldCount; b++) {
            const q = b < newCount ? newCand[nb + b]! : oldCand[nb + b - newCount]!;
            if (p === q) continue;
            const s = squaredDistance(data, d, p, q);
            if (s < dists[p * k]!) {
              targets[at] = p;
              others[at] = q;
              distances[at++] = s;
            }
            if (s < dists[q * k]!) {
              targets[at] = q;
              others[at] = p;
              distances[at++] = s;
            }
          }
        }
      }
      counts[slot] = at - slot * capacity;
    },
    apply(lo: number, hi: number, slots: number, range: number): void {
      let taken = 0;
      for (let slot = 0; slot < slots; slot++) {
        for (let u = slot * capacity, end = u + counts[slot]!; u < end; u++) {
          const t = targets[u]!;
          if (t < lo || t >= hi) continue;
          if (heapPush(indices, dists, isNew, k, t, others[u]!, distances[u]!)) taken++;
        }
      }
      counts[slots + range] = taken;
    },
  };
}

/** NN-descent's local joins of one round, block by block, on a ScriptTeam. */
class ParallelJoins {
  private readonly team: ScriptTeam<JoinShared, ReturnType<typeof joinProgram>>;
  private readonly counts: Int32Array;
  private readonly members: Int32Array;
  private readonly leaves: Int32Array;
  private readonly n: number;

  constructor(
    data: Float32Array,
    d: number,
    heaps: NeighbourHeaps,
    maxCandidates: number,
    newCand: Int32Array,
    oldCand: Int32Array,
    newSeen: Int32Array,
    oldSeen: Int32Array,
    threads: number,
  ) {
    this.n = heaps.n;
    // Each row joins at most C(c, 2) new-new and c² new-old pairs, each giving up to 2 updates.
    const capacity =
      JOIN_SLICE_ROWS * (maxCandidates * (maxCandidates - 1) + 2 * maxCandidates ** 2);
    const slots = JOIN_BLOCK_ROWS / JOIN_SLICE_ROWS;
    const shared: JoinShared = {
      data: data.buffer as SharedArrayBuffer,
      d,
      k: heaps.k,
      maxCandidates,
      heapIndices: heaps.indices.buffer as SharedArrayBuffer,
      heapDists: heaps.dists.buffer as SharedArrayBuffer,
      heapIsNew: heaps.isNew.buffer as SharedArrayBuffer,
      newCand: newCand.buffer as SharedArrayBuffer,
      oldCand: oldCand.buffer as SharedArrayBuffer,
      newSeen: newSeen.buffer as SharedArrayBuffer,
      oldSeen: oldSeen.buffer as SharedArrayBuffer,
      capacity,
      targets: new SharedArrayBuffer(4 * slots * capacity),
      others: new SharedArrayBuffer(4 * slots * capacity),
      distances: new SharedArrayBuffer(8 * slots * capacity),
      counts: new SharedArrayBuffer(4 * (slots + threads)),
      members: new SharedArrayBuffer(4 * TREES * this.n),
      leaves: new SharedArrayBuffer(4 * TREES * (2 * this.n + 1)),
    };
    this.members = new Int32Array(shared.members);
    this.leaves = new Int32Array(shared.leaves);
    this.counts = new Int32Array(shared.counts);
    this.team = new ScriptTeam(joinProgram, shared, threads, {
      helpers: [squaredDistance, heapPush, rpTreeLeaves, mulberry32],
    });
  }

  /**
   * Grows `trees` random-projection trees at once, tree t from seed + t; returns a function
   * that visits tree t's leaves in the order rpTreeLeaves would.
   */
  growTrees(
    trees: number,
    leafSize: number,
    seed: number,
  ): (tree: number, visit: (members: Int32Array, start: number, end: number) => void) => void {
    if (trees > TREES) throw new RangeError(`At most ${TREES} trees`);
    const seeds = Array.from(
      { length: trees },
      (_, t) => (seed + Math.imul(t + 1, 0x9e3779b9)) | 0,
    );
    this.team.run(
      'tree',
      seeds.map((s, t) => [t, leafSize, s]),
    );
    const n = this.n;
    return (tree, visit) => {
      const members = this.members.subarray(tree * n, (tree + 1) * n);
      const base = tree * (2 * n + 1);
      for (let l = 0; l < this.leaves[base]!; l++) {
        visit(members, this.leaves[base + 1 + 2 * l]!, this.leaves[base + 2 + 2 * l]!);
      }
    };
  }

  /** One round's joins; returns how many offers the heaps took. */
  round(): number {
    const n = this.n;
    const ranges = this.team.threads;
    const bounds = Array.from({ length: ranges + 1 }, (_, r) => Math.round((r * n) / ranges));
    let taken = 0;
    for (let start = 0; start < n; start += JOIN_BLOCK_ROWS) {
      const end = Math.min(n, start + JOIN_BLOCK_ROWS);
      const slices: number[][] = [];
      for (let lo = start; lo < end; lo += JOIN_SLICE_ROWS) {
        slices.push([lo, Math.min(end, lo + JOIN_SLICE_ROWS), slices.length]);
      }
      this.team.run('join', slices);
      this.team.run(
        'apply',
        Array.from({ length: ranges }, (_, r) => [bounds[r]!, bounds[r + 1]!, slices.length, r]),
      );
      for (let r = 0; r < ranges; r++) taken += this.counts[slices.length + r]!;
    }
    return taken;
  }

  close(): void {
    this.team.close();
  }
}

// Exact nearest neighbours by brute force over n × d float32 rows (cosine or euclidean): one query
// against many rows ("find similar"), and every point's k nearest for small sets (UMAP, t-SNE).
import { nativeExactSearch, nativeView } from './native.js';

export type DistanceMetric = 'cosine' | 'euclidean';

/** Nearest first; equal distances in ascending id order. */
export interface Neighbours {
  ids: Uint32Array;
  /** Euclidean distance, or cosine distance 1 − cos (a zero vector is at distance 1 of all). */
  distances: Float32Array;
}

export interface VectorSetOptions {
  dimension: number;
  metric: DistanceMetric;
}

export interface ExactIndex {
  readonly dimension: number;
  readonly metric: DistanceMetric;
  readonly size: number;
  /** The k nearest rows (row indices as ids); fewer when the set has fewer rows. */
  search(query: Float32Array, k: number): Neighbours;
}

export function checkVectorSet(vectors: Float32Array, options: VectorSetOptions): number {
  const { dimension, metric } = options;
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new Error('dimension must be a positive integer');
  }
  if (metric !== 'cosine' && metric !== 'euclidean') {
    throw new Error(`Unknown metric: ${String(metric)}`);
  }
  if (vectors.length % dimension !== 0) {
    throw new Error(`vectors must hold a multiple of dimension = ${dimension} values`);
  }
  return vectors.length / dimension;
}

function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 1) throw new Error('k must be a positive integer');
}

/**
 * Bounded max-heap of the k best (smallest score) candidates; the root is the worst kept, so a
 * candidate costs one comparison unless it gets in. Ties on score keep the smaller id.
 */
class TopK {
  readonly scores: Float64Array;
  readonly ids: Int32Array;
  size = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(k);
    this.ids = new Int32Array(k);
  }

  /** Score a candidate must beat (strictly) to enter, when candidates come in ascending id order. */
  get bound(): number {
    return this.size < this.k ? Infinity : this.scores[0]!;
  }

  push(score: number, id: number): void {
    const { scores, ids } = this;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(score, id, scores[parent]!, ids[parent]!)) break;
        scores[i] = scores[parent]!;
        ids[i] = ids[parent]!;
        i = parent;
      }
      scores[i] = score;
      ids[i] = id;
      return;
    }
    if (!worse(scores[0]!, ids[0]!, score, id)) return;
    let i = 0;
    const size = this.size;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      const right = left + 1;
      let child = left;
      if (right < size && worse(scores[right]!, ids[right]!, scores[left]!, ids[left]!)) {
        child = right;
      }
      if (!worse(scores[child]!, ids[child]!, score, id)) break;
      scores[i] = scores[child]!;
      ids[i] = ids[child]!;
      i = child;
    }
    scores[i] = score;
    ids[i] = id;
  }

  /** Kept candidates, best first. */
  sorted(): { scores: Float64Array; ids: Int32Array } {
    const order = Array.from({ length: this.size }, (_, i) => i).sort(
      (a, b) => this.scores[a]! - this.scores[b]! || this.ids[a]! - this.ids[b]!,
    );
    return {
      scores: Float64Array.from(order, (i) => this.scores[i]!),
      ids: Int32Array.from(order, (i) => this.ids[i]!),
    };
  }
}

function worse(scoreA: number, idA: number, scoreB: number, idB: number): boolean {
  return scoreA > scoreB || (scoreA === scoreB && idA > idB);
}

/**
 * Per-row factors that turn a dot product into a score ranked like the distance, so the scan is
 * only dot products: euclidean ‖x‖² − 2 q·x (‖q‖² added back at the end), cosine −q·x / ‖x‖.
 */
function rowFactors(
  vectors: Float32Array,
  n: number,
  d: number,
  metric: DistanceMetric,
): Float64Array {
  const factors = new Float64Array(n);
  for (let i = 0, o = 0; i < n; i++, o += d) {
    let sum = 0;
    for (let j = 0; j < d; j++) sum += vectors[o + j]! * vectors[o + j]!;
    factors[i] = metric === 'euclidean' ? sum : sum > 0 ? 1 / Math.sqrt(sum) : 0;
  }
  return factors;
}

function toDistance(score: number, metric: DistanceMetric, queryFactor: number): number {
  if (metric === 'euclidean') return Math.sqrt(Math.max(0, score + queryFactor));
  return Math.min(2, Math.max(0, 1 + score * queryFactor));
}

/**
 * From this many rows a search first asks usearch's SIMD brute force (float32, one thread) for
 * candidates, then ranks them as the scan would: 3–4× faster than the JavaScript scan at 1M rows.
 */
export const NATIVE_SCAN_MIN_ROWS = 20_000;

/** Candidates the native pass keeps beyond k, so float32 rounding cannot push a true one out. */
function candidateCount(k: number, n: number): number {
  return Math.min(n, 2 * k + 32);
}

/**
 * An exact index over `vectors` (n · dimension, row-major), used as given: it is not copied, so
 * the caller must not change it. Only n row norms are kept besides. With `native` (default: from
 * NATIVE_SCAN_MIN_ROWS rows) the scan is usearch's SIMD brute force for 2k + 32 candidates,
 * re-ranked here in float64: the same neighbours and distances, except that among more than
 * k + 32 rows at exactly the same distance other ids than the smallest may be returned. The
 * native pass needs the rows at the start of their own buffer: a view into a larger (or shared)
 * buffer is copied once, when the index is made.
 */
export function createExactIndex(
  vectors: Float32Array,
  options: VectorSetOptions & { native?: boolean },
): ExactIndex {
  const n = checkVectorSet(vectors, options);
  const { dimension: d, metric } = options;
  const factors = rowFactors(vectors, n, d, metric);
  const q = new Float64Array(d);
  const native = options.native ?? n >= NATIVE_SCAN_MIN_ROWS;
  // Re-based once here rather than on every search: a view into a larger buffer is copied.
  const nativeVectors = native ? nativeView(vectors) : vectors;
  return {
    dimension: d,
    metric,
    size: n,
    search(query, k) {
      checkK(k);
      if (query.length !== d) throw new Error(`query must hold dimension = ${d} values`);
      let queryNorm = 0;
      for (let j = 0; j < d; j++) {
        q[j] = query[j]!;
        queryNorm += q[j]! * q[j]!;
      }
      const queryFactor =
        metric === 'euclidean' ? queryNorm : queryNorm > 0 ? 1 / Math.sqrt(queryNorm) : 0;
      const top = new TopK(Math.min(k, n));
      // A zero query is at distance 1 of every row by cosine: all ties, the scan's rule decides.
      if (native && !(metric === 'cosine' && queryNorm === 0)) {
        const keys = nativeExactSearch(nativeVectors, query, d, candidateCount(k, n), metric);
        rescore(vectors, d, q, factors, metric === 'euclidean', keys, top);
      } else {
        scan(vectors, n, d, q, factors, metric === 'euclidean', top);
      }
      const { scores, ids } = top.sorted();
      const distances = new Float32Array(scores.length);
      for (let i = 0; i < scores.length; i++) {
        distances[i] = toDistance(scores[i]!, metric, queryFactor);
      }
      return { ids: new Uint32Array(ids), distances };
    },
  };
}

/** One pass over all rows, four at a time so each query value loaded serves four rows. */
function scan(
  x: Float32Array,
  n: number,
  d: number,
  q: Float64Array,
  factors: Float64Array,
  euclidean: boolean,
  top: TopK,
): void {
  let bound = top.bound;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const o0 = i * d;
    const o1 = o0 + d;
    const o2 = o1 + d;
    const o3 = o2 + d;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let j = 0; j < d; j++) {
      const qj = q[j]!;
      s0 += qj * x[o0 + j]!;
      s1 += qj * x[o1 + j]!;
      s2 += qj * x[o2 + j]!;
      s3 += qj * x[o3 + j]!;
    }
    let c0: number, c1: number, c2: number, c3: number;
    if (euclidean) {
      c0 = factors[i]! - 2 * s0;
      c1 = factors[i + 1]! - 2 * s1;
      c2 = factors[i + 2]! - 2 * s2;
      c3 = factors[i + 3]! - 2 * s3;
    } else {
      c0 = -s0 * factors[i]!;
      c1 = -s1 * factors[i + 1]!;
      c2 = -s2 * factors[i + 2]!;
      c3 = -s3 * factors[i + 3]!;
    }
    // Rows arrive in ascending id order, so an equal score never displaces a kept row.
    if (c0 < bound) {
      top.push(c0, i);
      bound = top.bound;
    }
    if (c1 < bound) {
      top.push(c1, i + 1);
      bound = top.bound;
    }
    if (c2 < bound) {
      top.push(c2, i + 2);
      bound = top.bound;
    }
    if (c3 < bound) {
      top.push(c3, i + 3);
      bound = top.bound;
    }
  }
  for (; i < n; i++) {
    const o = i * d;
    let s = 0;
    for (let j = 0; j < d; j++) s += q[j]! * x[o + j]!;
    const c = euclidean ? factors[i]! - 2 * s : -s * factors[i]!;
    if (c < bound) {
      top.push(c, i);
      bound = top.bound;
    }
  }
}

/** Scores the native pass's candidates as `scan` would and offers them to `top`. */
function rescore(
  x: Float32Array,
  d: number,
  q: Float64Array,
  factors: Float64Array,
  euclidean: boolean,
  candidates: BigUint64Array,
  top: TopK,
): void {
  // In ascending id order, so equal scores keep the smaller id as the scan does.
  const ids = Uint32Array.from(candidates, (key) => Number(key)).sort();
  for (const i of ids) {
    const o = i * d;
    let s = 0;
    for (let j = 0; j < d; j++) s += q[j]! * x[o + j]!;
    const c = euclidean ? factors[i]! - 2 * s : -s * factors[i]!;
    if (c < top.bound) top.push(c, i);
  }
}

/** The k nearest rows of `vectors` (n · dimension) to one query, by brute force. */
export function exactSearch(
  vectors: Float32Array,
  query: Float32Array,
  k: number,
  options: VectorSetOptions,
): Neighbours {
  return createExactIndex(vectors, options).search(query, k);
}

/** Every row's k nearest other rows: n · k ids and distances, row-major, nearest first. */
export interface AllNeighbours {
  k: number;
  ids: Uint32Array;
  distances: Float32Array;
}

/**
 * k nearest neighbours of every row among the others (itself excluded), by brute force: each
 * pair's dot product is computed once, in 2 × 2 tiles of rows, and offered to both rows. Meant
 * for the few-ten-thousand points of UMAP and t-SNE (n²·d/2 multiply-adds). k must be < n.
 */
export function allNearestNeighbours(
  vectors: Float32Array,
  k: number,
  options: VectorSetOptions,
): AllNeighbours {
  const n = checkVectorSet(vectors, options);
  checkK(k);
  if (k >= n) throw new Error(`k must be less than the number of rows (${n})`);
  const { dimension: d, metric } = options;
  const euclidean = metric === 'euclidean';
  const factors = rowFactors(vectors, n, d, metric);
  const tops = Array.from({ length: n }, () => new TopK(k));
  const x = vectors;
  const score = (s: number, a: number, b: number): number =>
    euclidean ? factors[a]! + factors[b]! - 2 * s : -s * factors[a]! * factors[b]!;
  // Each row's current worst kept score: most pairs are rejected by this one comparison.
  const bounds = new Float64Array(n).fill(Infinity);
  const offer = (s: number, a: number, b: number): void => {
    const c = score(s, a, b);
    if (c <= bounds[a]!) {
      const top = tops[a]!;
      top.push(c, b);
      bounds[a] = top.bound;
    }
    if (c <= bounds[b]!) {
      const top = tops[b]!;
      top.push(c, a);
      bounds[b] = top.bound;
    }
  };
  const even = n - (n & 1);
  for (let a = 0; a < even; a += 2) {
    const a0 = a * d;
    const a1 = a0 + d;
    // The tile's own pair (a, a + 1).
    let own = 0;
    for (let j = 0; j < d; j++) own += x[a0 + j]! * x[a1 + j]!;
    offer(own, a, a + 1);
    for (let b = a + 2; b < even; b += 2) {
      const b0 = b * d;
      const b1 = b0 + d;
      let s00 = 0;
      let s01 = 0;
      let s10 = 0;
      let s11 = 0;
      for (let j = 0; j < d; j++) {
        const x0 = x[a0 + j]!;
        const x1 = x[a1 + j]!;
        const y0 = x[b0 + j]!;
        const y1 = x[b1 + j]!;
        s00 += x0 * y0;
        s01 += x0 * y1;
        s10 += x1 * y0;
        s11 += x1 * y1;
      }
      offer(s00, a, b);
      offer(s01, a, b + 1);
      offer(s10, a + 1, b);
      offer(s11, a + 1, b + 1);
    }
  }
  if (even < n) {
    const last = even * d;
    for (let a = 0; a < even; a++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += x[a * d + j]! * x[last + j]!;
      offer(s, a, even);
    }
  }
  const ids = new Uint32Array(n * k);
  const distances = new Float32Array(n * k);
  for (let a = 0; a < n; a++) {
    const sorted = tops[a]!.sorted();
    for (let c = 0; c < k; c++) {
      ids[a * k + c] = sorted.ids[c]!;
      // Pair scores are whole: ‖a − b‖² for euclidean, −cos for cosine.
      const s = sorted.scores[c]!;
      distances[a * k + c] = euclidean
        ? Math.sqrt(Math.max(0, s))
        : Math.min(2, Math.max(0, 1 + s));
    }
  }
  return { k, ids, distances };
}

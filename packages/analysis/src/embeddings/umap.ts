// UMAP (McInnes, Healy & Melville 2018) to 2-D for the embeddings view: fuzzy simplicial set on
// the kNN graph, spectral initialisation, SGD with negative sampling, as umap-learn's defaults.
// Large inputs run on several threads, with the same layout for any number of threads.

import { createRandom } from '../random.js';
import { knnGraph, vectorCount, type EmbeddingMetric, type KnnGraph } from './knn-graph.js';
import { defaultThreads } from './script-team.js';
import { createFastPow, optimizeLayoutParallel, ParallelHalfProduct } from './umap-layout.js';

export const UMAP_DEFAULT_NEIGHBORS = 15;
export const UMAP_MIN_NEIGHBORS = 2;
export const UMAP_MAX_NEIGHBORS = 100;

export interface UmapOptions {
  /** Neighbourhood size, 2–100, counting the point itself as umap-learn does (default 15). */
  numNeighbors?: number;
  /** Minimum distance between embedded points, 0 ≤ minDist ≤ spread (default 0.1). */
  minDist?: number;
  /** Scale of the embedded points (default 1). */
  spread?: number;
  /** SGD epochs (default 500 up to 10,000 points, else 200). */
  nEpochs?: number;
  /** Negative samples per positive one (default 5). */
  negativeSampleRate?: number;
  metric?: EmbeddingMetric;
  seed?: number;
  /** A kNN graph already computed with k ≥ numNeighbors − 1 (only its first columns are used). */
  knn?: KnnGraph;
  /**
   * Threads for inputs of at least UMAP_PARALLEL_FROM points (default: the cores, at most 8).
   * The layout is the same for any number of threads.
   */
  threads?: number;
  /** The threaded algorithms (default: from UMAP_PARALLEL_FROM points on). */
  parallel?: boolean;
  onProgress?: (fraction: number) => void;
}

/**
 * From this many points on, the kNN graph, the spectral initialisation and the SGD run on
 * several threads (docs/performance.md, "UMAP on both cores"): NN-descent joins block by block,
 * and an SGD whose vertices move against the positions of the epoch's start (umap-layout.ts).
 * Smaller inputs keep the single-threaded algorithms, which update as they go.
 */
export const UMAP_PARALLEL_FROM = 5_000;

/** Row-major (n, 2) coordinates. */
export interface Layout2d {
  n: number;
  coordinates: Float32Array;
}

const SMOOTH_K_TOLERANCE = 1e-5;
const MIN_K_DIST_SCALE = 1e-3;

export function validateUmapOptions(n: number, options: UmapOptions): void {
  const { numNeighbors = UMAP_DEFAULT_NEIGHBORS, minDist = 0.1, spread = 1 } = options;
  if (
    !Number.isInteger(numNeighbors) ||
    numNeighbors < UMAP_MIN_NEIGHBORS ||
    numNeighbors > UMAP_MAX_NEIGHBORS
  ) {
    throw new RangeError(
      `num_neighbors must be an integer from ${UMAP_MIN_NEIGHBORS} to ${UMAP_MAX_NEIGHBORS}, got ${numNeighbors}`,
    );
  }
  if (n <= numNeighbors) {
    throw new RangeError(
      `UMAP with num_neighbors = ${numNeighbors} needs more than ${numNeighbors} points, got ${n}`,
    );
  }
  if (!(spread > 0) || !Number.isFinite(spread)) {
    throw new RangeError(`spread must be a positive number, got ${spread}`);
  }
  if (!(minDist >= 0 && minDist <= spread)) {
    throw new RangeError(`min_dist must be from 0 to spread (${spread}), got ${minDist}`);
  }
  const { nEpochs, negativeSampleRate } = options;
  if (nEpochs !== undefined && (!Number.isInteger(nEpochs) || nEpochs < 1)) {
    throw new RangeError(`n_epochs must be a positive integer, got ${nEpochs}`);
  }
  if (negativeSampleRate !== undefined && !(negativeSampleRate >= 0)) {
    throw new RangeError(`negative_sample_rate must be ≥ 0, got ${negativeSampleRate}`);
  }
  const { threads } = options;
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) {
    throw new RangeError(`threads must be a positive integer, got ${threads}`);
  }
}

/** UMAP layout of n row-major vectors of the given dimension. */
export function umap(data: Float32Array, dimension: number, options: UmapOptions = {}): Layout2d {
  const n = vectorCount(data, dimension);
  validateUmapOptions(n, options);
  const {
    numNeighbors = UMAP_DEFAULT_NEIGHBORS,
    minDist = 0.1,
    spread = 1,
    negativeSampleRate = 5,
    metric = 'euclidean',
    seed = 0,
    onProgress,
  } = options;
  const nEpochs = options.nEpochs ?? (n <= 10_000 ? 500 : 200);
  const k = numNeighbors - 1;
  const parallel = options.parallel ?? n >= UMAP_PARALLEL_FROM;
  let knn = options.knn;
  if (knn) {
    if (knn.n !== n || knn.k < k) {
      throw new RangeError(`The kNN graph must have ${n} points and at least ${k} neighbours`);
    }
  } else {
    knn = knnGraph(data, dimension, {
      k,
      metric,
      seed,
      parallel,
      threads: options.threads,
      onProgress: onProgress && ((f) => onProgress(0.4 * f)),
    });
  }
  const graph = fuzzySimplicialSet(knn, k, Math.log2(numNeighbors));
  const edges = layoutEdges(graph, nEpochs);
  const random = createRandom(seed ^ 0x5eed);
  const embedding = spectralInit(
    graph,
    n,
    random,
    parallel ? (options.threads ?? defaultThreads()) : 0,
  );
  onProgress?.(0.45);
  const { a, b } = findAbParams(spread, minDist);
  const layoutProgress = (f: number) => onProgress?.(0.45 + 0.55 * f);
  if (parallel) {
    const headStart = new Int32Array(n + 1);
    for (let e = 0; e < edges.count; e++) headStart[edges.head[e]! + 1]!++;
    for (let i = 0; i < n; i++) headStart[i + 1]! += headStart[i]!;
    const layoutSeed = Math.floor(random.next() * 0xffffffff);
    optimizeLayoutParallel(
      embedding,
      n,
      { headStart, tail: edges.tail, epochsPerSample: edges.epochsPerSample },
      nEpochs,
      a,
      b,
      negativeSampleRate,
      layoutSeed,
      options.threads,
      layoutProgress,
    );
  } else {
    optimizeLayout(embedding, n, edges, nEpochs, a, b, negativeSampleRate, random, layoutProgress);
  }
  return { n, coordinates: Float32Array.from(embedding) };
}

/** Symmetric sparse graph in CSR form. */
interface SparseGraph {
  n: number;
  rowStart: Int32Array;
  cols: Int32Array;
  weights: Float64Array;
}

/**
 * Membership strengths exp(−(d − ρᵢ)/σᵢ) of each point's k neighbours, ρᵢ the nearest distance,
 * σᵢ chosen so they sum to log₂(numNeighbors); then the fuzzy union w + wᵀ − w∘wᵀ.
 */
export function fuzzySimplicialSet(knn: KnnGraph, k: number, target: number): SparseGraph {
  const n = knn.n;
  const stride = knn.k;
  const dist = knn.distances;
  let meanAll = 0;
  for (let i = 0; i < n; i++) for (let t = 0; t < k; t++) meanAll += dist[i * stride + t]!;
  meanAll /= n * k;

  const directed = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    const base = i * stride;
    let rho = 0;
    let mean = 0;
    for (let t = 0; t < k; t++) {
      const d = dist[base + t]!;
      mean += d;
      if (rho === 0 && d > 0) rho = d;
    }
    mean /= k;
    let lo = 0;
    let hi = Infinity;
    let sigma = 1;
    for (let iteration = 0; iteration < 64; iteration++) {
      let sum = 0;
      for (let t = 0; t < k; t++) {
        const d = dist[base + t]! - rho;
        sum += d > 0 ? Math.exp(-d / sigma) : 1;
      }
      if (Math.abs(sum - target) < SMOOTH_K_TOLERANCE) break;
      if (sum > target) {
        hi = sigma;
        sigma = (lo + hi) / 2;
      } else {
        lo = sigma;
        sigma = hi === Infinity ? sigma * 2 : (lo + hi) / 2;
      }
    }
    // Keep σ away from 0 where all neighbours are (nearly) at the same distance.
    sigma = Math.max(sigma, MIN_K_DIST_SCALE * (rho > 0 ? mean : meanAll));
    for (let t = 0; t < k; t++) {
      const d = dist[base + t]! - rho;
      directed[i * k + t] = d <= 0 ? 1 : Math.exp(-d / sigma);
    }
  }

  // Transpose lookup: for edge i→j find j→i by scanning j's (short) row.
  const weightOf = (i: number, j: number): number => {
    for (let t = 0; t < k; t++) if (knn.indices[i * stride + t] === j) return directed[i * k + t]!;
    return 0;
  };
  const degree = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < k; t++) {
      const j = knn.indices[i * stride + t]!;
      degree[i]!++;
      if (weightOf(j, i) === 0) degree[j]!++;
    }
  }
  const rowStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowStart[i + 1] = rowStart[i]! + degree[i]!;
  const cols = new Int32Array(rowStart[n]!);
  const weights = new Float64Array(rowStart[n]!);
  const fill = rowStart.slice(0, n);
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < k; t++) {
      const j = knn.indices[i * stride + t]!;
      const w = directed[i * k + t]!;
      const back = weightOf(j, i);
      const union = w + back - w * back;
      cols[fill[i]!] = j;
      weights[fill[i]!++] = union;
      if (back === 0) {
        cols[fill[j]!] = i;
        weights[fill[j]!++] = union;
      }
    }
  }
  return { n, rowStart, cols, weights };
}

interface Edges {
  count: number;
  head: Int32Array;
  tail: Int32Array;
  epochsPerSample: Float64Array;
}

/**
 * Directed edges (both directions) kept for the layout, sampled once per max(w)/w epochs, in
 * order of their head vertex.
 */
function layoutEdges(graph: SparseGraph, nEpochs: number): Edges {
  let maxWeight = 0;
  for (const w of graph.weights) if (w > maxWeight) maxWeight = w;
  const threshold = maxWeight / nEpochs;
  let count = 0;
  for (const w of graph.weights) if (w >= threshold) count++;
  const head = new Int32Array(count);
  const tail = new Int32Array(count);
  const epochsPerSample = new Float64Array(count);
  let e = 0;
  for (let i = 0; i < graph.n; i++) {
    for (let t = graph.rowStart[i]!; t < graph.rowStart[i + 1]!; t++) {
      const w = graph.weights[t]!;
      if (w < threshold) continue;
      head[e] = i;
      tail[e] = graph.cols[t]!;
      epochsPerSample[e++] = maxWeight / w;
    }
  }
  return { count, head, tail, epochsPerSample };
}

/**
 * Two leading non-trivial eigenvectors of the normalised adjacency D^−½WD^−½ (those of the
 * normalised Laplacian with the smallest eigenvalues) by subspace iteration, scaled to [0, 10]
 * with a little noise, as umap-learn's spectral initialisation. Exact convergence is not needed:
 * the vectors only have to place connected points near each other. With `threads` > 0 the
 * sparse products run on that many threads (the same result).
 */
function spectralInit(
  graph: SparseGraph,
  n: number,
  random: ReturnType<typeof createRandom>,
  threads: number,
): Float64Array {
  const { rowStart, cols, weights } = graph;
  const invSqrtDegree = new Float64Array(n);
  const trivial = new Float64Array(n);
  let trivialNorm = 0;
  for (let i = 0; i < n; i++) {
    let deg = 0;
    for (let t = rowStart[i]!; t < rowStart[i + 1]!; t++) deg += weights[t]!;
    invSqrtDegree[i] = deg > 0 ? 1 / Math.sqrt(deg) : 0;
    trivial[i] = Math.sqrt(deg);
    trivialNorm += deg;
  }
  trivialNorm = Math.sqrt(trivialNorm);
  for (let i = 0; i < n; i++) trivial[i]! /= trivialNorm;

  // Normalised weights wᵢⱼ/√(dᵢdⱼ), and the two vectors interleaved (v[2i], v[2i + 1]) so one
  // pass over the graph multiplies both.
  const normalised = new Float64Array(weights.length);
  for (let i = 0; i < n; i++) {
    for (let t = rowStart[i]!; t < rowStart[i + 1]!; t++) {
      normalised[t] = weights[t]! * invSqrtDegree[i]! * invSqrtDegree[cols[t]!]!;
    }
  }
  const product = threads > 0 ? new ParallelHalfProduct(rowStart, cols, normalised, threads) : null;
  let v = product ? product.pairs[0] : new Float64Array(2 * n);
  for (let i = 0; i < 2 * n; i++) v[i] = random.normal();
  let out = product ? product.pairs[1] : new Float64Array(2 * n);
  /** Orthonormalise both vectors against the trivial one and each other (Gram–Schmidt). */
  const orthonormalise = (x: Float64Array): void => {
    for (let c = 0; c < 2; c++) {
      let dot = 0;
      for (let i = 0; i < n; i++) dot += trivial[i]! * x[2 * i + c]!;
      for (let i = 0; i < n; i++) x[2 * i + c]! -= dot * trivial[i]!;
      if (c === 1) {
        let cross = 0;
        for (let i = 0; i < n; i++) cross += x[2 * i]! * x[2 * i + 1]!;
        for (let i = 0; i < n; i++) x[2 * i + 1]! -= cross * x[2 * i]!;
      }
      let norm = 0;
      for (let i = 0; i < n; i++) norm += x[2 * i + c]! * x[2 * i + c]!;
      const scale = norm > 0 ? 1 / Math.sqrt(norm) : 1;
      for (let i = 0; i < n; i++) x[2 * i + c]! *= scale;
    }
  };
  orthonormalise(v);
  // (I + A)/2 has the same eigenvectors with eigenvalues in [0, 1], so the largest dominate.
  const iterations = 100;
  try {
    for (let iteration = 0; iteration < iterations; iteration++) {
      if (product) product.half((iteration & 1) as 0 | 1);
      else
        for (let i = 0; i < n; i++) {
          let s0 = 0;
          let s1 = 0;
          for (let t = rowStart[i]!, e = rowStart[i + 1]!; t < e; t++) {
            const j = cols[t]!;
            const w = normalised[t]!;
            s0 += w * v[2 * j]!;
            s1 += w * v[2 * j + 1]!;
          }
          out[2 * i] = 0.5 * (v[2 * i]! + s0);
          out[2 * i + 1] = 0.5 * (v[2 * i + 1]! + s1);
        }
      [v, out] = [out, v];
      orthonormalise(v);
    }
  } finally {
    product?.close();
  }

  const embedding = new Float64Array(n * 2);
  let maxAbs = 0;
  for (let i = 0; i < 2 * n; i++) maxAbs = Math.max(maxAbs, Math.abs(v[i]!));
  const expansion = maxAbs > 0 ? 10 / maxAbs : 1;
  for (let c = 0; c < 2; c++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < n; i++) {
      const x = v[2 * i + c]! * expansion + 0.0001 * random.normal();
      embedding[2 * i + c] = x;
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    const scale = hi > lo ? 10 / (hi - lo) : 1;
    for (let i = 0; i < n; i++) embedding[2 * i + c] = (embedding[2 * i + c]! - lo) * scale;
  }
  return embedding;
}

/**
 * a and b of the low-dimensional similarity 1 / (1 + a·d^(2b)) fitted by least squares
 * (Levenberg–Marquardt) to 1 for d < minDist and exp(−(d − minDist)/spread) beyond, on 300
 * points in [0, 3·spread], as umap-learn's find_ab_params.
 */
export function findAbParams(spread: number, minDist: number): { a: number; b: number } {
  const count = 300;
  const xs = new Float64Array(count);
  const ys = new Float64Array(count);
  for (let t = 0; t < count; t++) {
    const x = (3 * spread * t) / (count - 1);
    xs[t] = x;
    ys[t] = x < minDist ? 1 : Math.exp(-(x - minDist) / spread);
  }
  const residual = (a: number, b: number): number => {
    let s = 0;
    for (let t = 0; t < count; t++) {
      const r = 1 / (1 + a * Math.pow(xs[t]!, 2 * b)) - ys[t]!;
      s += r * r;
    }
    return s;
  };
  let a = 1;
  let b = 1;
  let lambda = 1e-3;
  let current = residual(a, b);
  for (let iteration = 0; iteration < 200; iteration++) {
    // Normal equations JᵀJ·δ = −Jᵀr for the two parameters.
    let jaa = 0;
    let jab = 0;
    let jbb = 0;
    let ga = 0;
    let gb = 0;
    for (let t = 0; t < count; t++) {
      const x = xs[t]!;
      if (x === 0) continue;
      const u = Math.pow(x, 2 * b);
      const f = 1 / (1 + a * u);
      const r = f - ys[t]!;
      const da = -u * f * f;
      const db = -a * u * 2 * Math.log(x) * f * f;
      jaa += da * da;
      jab += da * db;
      jbb += db * db;
      ga += da * r;
      gb += db * r;
    }
    const maa = jaa * (1 + lambda);
    const mbb = jbb * (1 + lambda);
    const det = maa * mbb - jab * jab;
    if (det === 0) break;
    const stepA = -(mbb * ga - jab * gb) / det;
    const stepB = -(maa * gb - jab * ga) / det;
    const candidate = residual(a + stepA, b + stepB);
    if (a + stepA > 0 && b + stepB > 0 && candidate < current) {
      const improvement = current - candidate;
      a += stepA;
      b += stepB;
      current = candidate;
      lambda /= 10;
      if (improvement < 1e-14) break;
    } else {
      lambda *= 10;
      if (lambda > 1e12) break;
    }
  }
  return { a, b };
}

/**
 * umap-learn's optimize_layout_euclidean: each epoch, every edge due for a sample pulls its two
 * ends together and pushes its head away from a few random points; learning rate 1 → 0.
 */
function optimizeLayout(
  embedding: Float64Array,
  n: number,
  edges: Edges,
  nEpochs: number,
  a: number,
  b: number,
  negativeSampleRate: number,
  random: ReturnType<typeof createRandom>,
  onProgress: (fraction: number) => void,
): void {
  const { count, head, tail, epochsPerSample } = edges;
  // float32 as umap-learn: half the cache footprint for the random reads of negative sampling.
  const position = Float32Array.from(embedding);
  const nextSample = Float64Array.from(epochsPerSample);
  const epochsPerNegative = new Float64Array(count);
  for (let e = 0; e < count; e++) epochsPerNegative[e] = epochsPerSample[e]! / negativeSampleRate;
  const nextNegative = Float64Array.from(epochsPerNegative);
  // xorshift32: a few instructions per negative sample instead of a closure call.
  let state = (Math.floor(random.next() * 0xffffffff) | 1) >>> 0;
  const pow = createFastPow(b);
  const toIndex = n / 4294967296;
  const twoAB = 2 * a * b;
  const twoB = 2 * b;
  for (let epoch = 0; epoch < nEpochs; epoch++) {
    const alpha = 1 - epoch / nEpochs;
    for (let e = 0; e < count; e++) {
      if (nextSample[e]! > epoch) continue;
      const j = head[e]! * 2;
      const k = tail[e]! * 2;
      let cx = position[j]!;
      let cy = position[j + 1]!;
      const dx = cx - position[k]!;
      const dy = cy - position[k + 1]!;
      const d2 = dx * dx + dy * dy;
      if (d2 > 0) {
        const pb = pow(d2);
        const coeff = (-twoAB * (pb / d2)) / (a * pb + 1);
        let gx = coeff * dx;
        let gy = coeff * dy;
        gx = gx > 4 ? 4 : gx < -4 ? -4 : gx;
        gy = gy > 4 ? 4 : gy < -4 ? -4 : gy;
        cx += gx * alpha;
        cy += gy * alpha;
        position[k]! -= gx * alpha;
        position[k + 1]! -= gy * alpha;
      }
      nextSample[e]! += epochsPerSample[e]!;

      const negatives = Math.floor((epoch - nextNegative[e]!) / epochsPerNegative[e]!);
      for (let p = 0; p < negatives; p++) {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        const other = (((state >>> 0) * toIndex) | 0) * 2;
        if (other === j) continue;
        const ox = cx - position[other]!;
        const oy = cy - position[other + 1]!;
        const o2 = ox * ox + oy * oy;
        if (o2 <= 0) continue;
        const coeff = twoB / ((0.001 + o2) * (a * pow(o2) + 1));
        let gx = coeff * ox;
        let gy = coeff * oy;
        gx = gx > 4 ? 4 : gx < -4 ? -4 : gx;
        gy = gy > 4 ? 4 : gy < -4 ? -4 : gy;
        cx += gx * alpha;
        cy += gy * alpha;
      }
      position[j] = cx;
      position[j + 1] = cy;
      nextNegative[e]! += negatives * epochsPerNegative[e]!;
    }
    if ((epoch & 7) === 7) onProgress((epoch + 1) / nEpochs);
  }
  embedding.set(position);
  onProgress(1);
}

// Barnes-Hut t-SNE (van der Maaten 2014) to 2-D for the embeddings view: perplexity-calibrated
// sparse affinities on the kNN graph and gradient descent with a flat, typed-array quadtree.

import { createRandom } from '../random.js';
import { knnGraph, vectorCount, type EmbeddingMetric, type KnnGraph } from './knn-graph.js';
import type { Layout2d } from './umap.js';

export const TSNE_DEFAULT_PERPLEXITY = 30;
export const TSNE_MIN_PERPLEXITY = 0.1;
export const TSNE_MAX_PERPLEXITY = 100;

export interface TsneOptions {
  /** Effective number of neighbours, 0.1–100 and below the number of points (default 30). */
  perplexity?: number;
  /** Factor on the affinities during the first iterations (default 12). */
  earlyExaggeration?: number;
  /** Iterations with exaggeration and momentum 0.5 (default 250). */
  explorationIterations?: number;
  /** Iterations in all, including the exploration (default 1,000). */
  iterations?: number;
  /** Step size, or 'auto' = max(n / earlyExaggeration / 4, 50) as scikit-learn (default). */
  learningRate?: number | 'auto';
  /** Barnes-Hut accuracy: a cell of side s at distance r is summarised when s/r < theta (0.5). */
  theta?: number;
  metric?: EmbeddingMetric;
  seed?: number;
  /** A kNN graph already computed with k ≥ min(n − 1, ⌊3·perplexity + 1⌋). */
  knn?: KnnGraph;
  onProgress?: (fraction: number) => void;
}

export function validateTsneOptions(n: number, options: TsneOptions): void {
  const { perplexity = TSNE_DEFAULT_PERPLEXITY, theta = 0.5 } = options;
  if (
    typeof perplexity !== 'number' ||
    !(perplexity >= TSNE_MIN_PERPLEXITY && perplexity <= TSNE_MAX_PERPLEXITY)
  ) {
    throw new RangeError(
      `perplexity must be from ${TSNE_MIN_PERPLEXITY} to ${TSNE_MAX_PERPLEXITY}, got ${perplexity}`,
    );
  }
  if (n < 4) throw new RangeError(`t-SNE needs at least 4 points, got ${n}`);
  if (perplexity >= n) {
    throw new RangeError(
      `perplexity must be less than the number of points (${n}), got ${perplexity}`,
    );
  }
  if (!(theta >= 0 && theta <= 1)) throw new RangeError(`theta must be from 0 to 1, got ${theta}`);
  const { iterations, explorationIterations, learningRate, earlyExaggeration } = options;
  if (iterations !== undefined && (!Number.isInteger(iterations) || iterations < 1)) {
    throw new RangeError(`iterations must be a positive integer, got ${iterations}`);
  }
  if (
    explorationIterations !== undefined &&
    (!Number.isInteger(explorationIterations) || explorationIterations < 0)
  ) {
    throw new RangeError(
      `explorationIterations must be a non-negative integer, got ${explorationIterations}`,
    );
  }
  if (learningRate !== undefined && learningRate !== 'auto' && !(learningRate > 0)) {
    throw new RangeError(`learningRate must be a positive number or 'auto', got ${learningRate}`);
  }
  if (earlyExaggeration !== undefined && !(earlyExaggeration >= 1)) {
    throw new RangeError(`earlyExaggeration must be ≥ 1, got ${earlyExaggeration}`);
  }
}

/** Barnes-Hut t-SNE layout of n row-major vectors of the given dimension. */
export function tsne(data: Float32Array, dimension: number, options: TsneOptions = {}): Layout2d {
  const n = vectorCount(data, dimension);
  validateTsneOptions(n, options);
  const {
    perplexity = TSNE_DEFAULT_PERPLEXITY,
    earlyExaggeration = 12,
    theta = 0.5,
    metric = 'euclidean',
    seed = 0,
    onProgress,
  } = options;
  const iterations = options.iterations ?? 1000;
  const exploration = Math.min(iterations, options.explorationIterations ?? 250);
  const learningRate =
    options.learningRate === undefined || options.learningRate === 'auto'
      ? Math.max(n / earlyExaggeration / 4, 50)
      : options.learningRate;
  const k = Math.min(n - 1, Math.floor(3 * perplexity + 1));
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
      onProgress: onProgress && ((f) => onProgress(0.25 * f)),
    });
  }
  const p = jointProbabilities(knn, k, perplexity, metric);
  onProgress?.(0.27);

  const random = createRandom(seed ^ 0x75e);
  const y = new Float64Array(2 * n);
  for (let i = 0; i < 2 * n; i++) y[i] = 1e-4 * random.normal();
  const optimiser = new Optimiser(n, p, theta);
  const report = (iteration: number): void => {
    if (onProgress && (iteration & 15) === 15) onProgress(0.27 + (0.73 * iteration) / iterations);
  };
  optimiser.run(y, exploration, earlyExaggeration, 0.5, learningRate, 0, report);
  optimiser.run(y, iterations - exploration, 1, 0.8, learningRate, exploration, report);
  onProgress?.(1);
  return { n, coordinates: Float32Array.from(y) };
}

/** Symmetric joint affinities in CSR form, summing to 1. */
export interface Affinities {
  rowStart: Int32Array;
  cols: Int32Array;
  values: Float64Array;
}

/**
 * Conditional p(j|i) ∝ exp(−β·dᵢⱼ²) over i's k neighbours with β found by bisection so the
 * entropy is ln(perplexity), then P = (P + Pᵀ) / Σ. Distances are squared euclidean (cosine
 * distances as they are), as scikit-learn.
 */
export function jointProbabilities(
  knn: KnnGraph,
  k: number,
  perplexity: number,
  metric: EmbeddingMetric = 'euclidean',
): Affinities {
  const n = knn.n;
  const stride = knn.k;
  const conditional = conditionalProbabilities(knn, k, perplexity, metric);

  // P + Pᵀ on the union of both sparsity patterns.
  const lookup = (i: number, j: number): number => {
    for (let t = 0; t < k; t++)
      if (knn.indices[i * stride + t] === j) return conditional[i * k + t]!;
    return -1;
  };
  const degree = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < k; t++) {
      const j = knn.indices[i * stride + t]!;
      degree[i]!++;
      if (lookup(j, i) < 0) degree[j]!++;
    }
  }
  const rowStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowStart[i + 1] = rowStart[i]! + degree[i]!;
  const cols = new Int32Array(rowStart[n]!);
  const values = new Float64Array(rowStart[n]!);
  const fill = rowStart.slice(0, n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < k; t++) {
      const j = knn.indices[i * stride + t]!;
      const back = lookup(j, i);
      const v = conditional[i * k + t]! + Math.max(back, 0);
      cols[fill[i]!] = j;
      values[fill[i]!++] = v;
      total += v;
      if (back < 0) {
        cols[fill[j]!] = i;
        values[fill[j]!++] = v;
        total += v;
      }
    }
  }
  for (let t = 0; t < values.length; t++) values[t]! /= total;
  return { rowStart, cols, values };
}

/** Row-major (n, k) p(j|i) over each point's first k neighbours, entropy ln(perplexity). */
export function conditionalProbabilities(
  knn: KnnGraph,
  k: number,
  perplexity: number,
  metric: EmbeddingMetric = 'euclidean',
): Float64Array {
  const n = knn.n;
  const stride = knn.k;
  const target = Math.log(perplexity);
  const conditional = new Float64Array(n * k);
  const d = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < k; t++) {
      const x = knn.distances[i * stride + t]!;
      d[t] = metric === 'euclidean' ? x * x : x;
    }
    // Shifting by the nearest distance changes neither p nor the entropy, and keeps the
    // exponentials from underflowing to 0 for far-away neighbourhoods.
    const shift = d[0]!;
    for (let t = 0; t < k; t++) d[t]! -= shift;
    let beta = 1;
    let lo = -Infinity;
    let hi = Infinity;
    for (let step = 0; step < 100; step++) {
      let sum = 0;
      let weighted = 0;
      for (let t = 0; t < k; t++) {
        const e = Math.exp(-d[t]! * beta);
        sum += e;
        weighted += d[t]! * e;
      }
      const entropy = Math.log(sum) + (beta * weighted) / sum;
      const diff = entropy - target;
      if (Math.abs(diff) <= 1e-5) break;
      if (diff > 0) {
        lo = beta;
        beta = hi === Infinity ? beta * 2 : (beta + hi) / 2;
      } else {
        hi = beta;
        beta = lo === -Infinity ? beta / 2 : (beta + lo) / 2;
      }
    }
    let sum = 0;
    for (let t = 0; t < k; t++) sum += Math.exp(-d[t]! * beta);
    for (let t = 0; t < k; t++) conditional[i * k + t] = Math.exp(-d[t]! * beta) / sum;
  }

  return conditional;
}

/**
 * The t-SNE gradient of layout y (row-major (n, 2)) for affinities p, with the Barnes-Hut
 * repulsion at accuracy theta (0 = exact). Exposed for tests; `tsne` reuses one optimiser.
 */
export function tsneGradient(
  y: Float64Array,
  p: Affinities,
  theta: number,
  exaggeration = 1,
): Float64Array {
  return new Optimiser(y.length / 2, p, theta).gradient(y, exaggeration).slice();
}

/** Points per quadtree leaf: summed exactly, cheaper than more levels of cells. */
const LEAF_SIZE = 8;

/**
 * Gradient descent with momentum and per-coordinate gains (scikit-learn's _gradient_descent),
 * the repulsive forces from a quadtree rebuilt every iteration. The tree is flat typed arrays:
 * node i covers points order[start[i]..end[i]), its nonempty children are nodes
 * firstChild[i] .. firstChild[i] + childCount[i] − 1 (childCount 0 for a leaf).
 */
class Optimiser {
  private readonly n: number;
  private readonly grad: Float64Array;
  private readonly update: Float64Array;
  private readonly gains: Float64Array;
  // Quadtree
  private capacity: number;
  private comX: Float64Array;
  private comY: Float64Array;
  private mass: Float64Array;
  private side: Float64Array;
  private firstChild: Int32Array;
  private childCount: Uint8Array;
  private start: Int32Array;
  private end: Int32Array;
  private readonly order: Int32Array;
  private readonly scratch: Int32Array;
  private readonly sortedX: Float64Array;
  private readonly sortedY: Float64Array;
  /** Repulsion summed per point, in tree order (the order of sortedX). */
  private readonly repulsionX: Float64Array;
  private readonly repulsionY: Float64Array;
  private nodeCount = 0;
  private stack: Int32Array;
  /** Lower-left corner of each node's square, used while building. */
  private cornerX: Float64Array;
  private cornerY: Float64Array;
  private readonly quadrantCount = new Int32Array(4);
  private readonly quadrantStart = new Int32Array(4);
  private readonly cursor = new Int32Array(4);

  constructor(
    n: number,
    private readonly p: Affinities,
    private readonly theta: number,
  ) {
    this.n = n;
    this.grad = new Float64Array(2 * n);
    this.update = new Float64Array(2 * n);
    this.gains = new Float64Array(2 * n);
    this.capacity = Math.max(64, Math.ceil((n / LEAF_SIZE) * 3));
    this.comX = new Float64Array(this.capacity);
    this.comY = new Float64Array(this.capacity);
    this.mass = new Float64Array(this.capacity);
    this.side = new Float64Array(this.capacity);
    this.firstChild = new Int32Array(this.capacity);
    this.childCount = new Uint8Array(this.capacity);
    this.start = new Int32Array(this.capacity);
    this.end = new Int32Array(this.capacity);
    this.order = new Int32Array(n);
    this.scratch = new Int32Array(n);
    this.sortedX = new Float64Array(n);
    this.sortedY = new Float64Array(n);
    this.repulsionX = new Float64Array(n);
    this.repulsionY = new Float64Array(n);
    this.stack = new Int32Array(1024);
    this.cornerX = new Float64Array(this.capacity);
    this.cornerY = new Float64Array(this.capacity);
  }

  run(
    y: Float64Array,
    iterations: number,
    exaggeration: number,
    momentum: number,
    learningRate: number,
    offset: number,
    report: (iteration: number) => void,
  ): void {
    const { grad, update, gains } = this;
    update.fill(0);
    gains.fill(1);
    for (let it = 0; it < iterations; it++) {
      this.gradient(y, exaggeration);
      for (let t = 0; t < 2 * this.n; t++) {
        const g = grad[t]!;
        const u = update[t]!;
        let gain = gains[t]!;
        gain = u * g < 0 ? gain + 0.2 : gain * 0.8;
        if (gain < 0.01) gain = 0.01;
        gains[t] = gain;
        const next = momentum * u - learningRate * gain * g;
        update[t] = next;
        y[t]! += next;
      }
      report(offset + it + 1);
    }
  }

  /**
   * ∂KL/∂y = 4·(exaggeration·Σⱼ pᵢⱼqᵢⱼZ(yᵢ − yⱼ) − Σⱼ qᵢⱼ²Z²(yᵢ − yⱼ)/Z).
   *
   * The repulsion walks the tree once per leaf rather than once per point: a cell is summarised
   * for all the leaf's points together when s < θ·r for r the distance from the cell's centre of
   * mass to the leaf's bounding box. That is at least as strict as the per-point test (every
   * point of the leaf is at least r away), so it is as accurate as per-point Barnes-Hut while the
   * stack work and the tests are shared by the leaf's points.
   */
  gradient(y: Float64Array, exaggeration: number): Float64Array {
    const n = this.n;
    const grad = this.grad;
    this.buildTree(y);
    let sumQ = 0;
    const theta2 = this.theta * this.theta;
    const { comX, comY, mass, side, firstChild, childCount, start, end, order } = this;
    const { sortedX, sortedY, repulsionX, repulsionY } = this;
    repulsionX.fill(0);
    repulsionY.fill(0);
    for (let group = 0; group < this.nodeCount; group++) {
      if (childCount[group] !== 0) continue;
      const gs = start[group]!;
      const ge = end[group]!;
      let minX = Infinity;
      let minY = Infinity;
      let maxX = -Infinity;
      let maxY = -Infinity;
      for (let a = gs; a < ge; a++) {
        const x = sortedX[a]!;
        const v = sortedY[a]!;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (v < minY) minY = v;
        if (v > maxY) maxY = v;
      }
      let top = 0;
      let stack = this.stack;
      stack[top++] = 0;
      while (top > 0) {
        const node = stack[--top]!;
        const children = childCount[node]!;
        if (children === 0) {
          const ns = start[node]!;
          const ne = end[node]!;
          for (let a = gs; a < ge; a++) {
            const xa = sortedX[a]!;
            const ya = sortedY[a]!;
            let fx = 0;
            let fy = 0;
            for (let b = ns; b < ne; b++) {
              if (b === a) continue;
              const ex = xa - sortedX[b]!;
              const ey = ya - sortedY[b]!;
              const q = 1 / (1 + ex * ex + ey * ey);
              sumQ += q;
              const q2 = q * q;
              fx += q2 * ex;
              fy += q2 * ey;
            }
            repulsionX[a]! += fx;
            repulsionY[a]! += fy;
          }
          continue;
        }
        const cx = comX[node]!;
        const cy = comY[node]!;
        const rx = cx < minX ? minX - cx : cx > maxX ? cx - maxX : 0;
        const ry = cy < minY ? minY - cy : cy > maxY ? cy - maxY : 0;
        const s = side[node]!;
        if (s * s < theta2 * (rx * rx + ry * ry)) {
          const m = mass[node]!;
          for (let a = gs; a < ge; a++) {
            const dx = sortedX[a]! - cx;
            const dy = sortedY[a]! - cy;
            const q = 1 / (1 + dx * dx + dy * dy);
            const mq = m * q;
            sumQ += mq;
            repulsionX[a]! += mq * q * dx;
            repulsionY[a]! += mq * q * dy;
          }
        } else {
          if (top + children > stack.length) {
            const grown = new Int32Array(stack.length * 2);
            grown.set(stack);
            this.stack = stack = grown;
          }
          const first = firstChild[node]!;
          for (let c = 0; c < children; c++) stack[top++] = first + c;
        }
      }
    }
    for (let t = 0; t < n; t++) {
      const i = order[t]!;
      grad[2 * i] = repulsionX[t]!;
      grad[2 * i + 1] = repulsionY[t]!;
    }
    // Attractive forces over the sparse P, then combine with the normalised repulsion.
    const { rowStart, cols, values } = this.p;
    const repulsionScale = 1 / sumQ;
    for (let i = 0; i < n; i++) {
      const xi = y[2 * i]!;
      const yi = y[2 * i + 1]!;
      let ax = 0;
      let ay = 0;
      for (let t = rowStart[i]!, e = rowStart[i + 1]!; t < e; t++) {
        const j = cols[t]!;
        const dx = xi - y[2 * j]!;
        const dy = yi - y[2 * j + 1]!;
        const pq = values[t]! / (1 + dx * dx + dy * dy);
        ax += pq * dx;
        ay += pq * dy;
      }
      grad[2 * i] = 4 * (exaggeration * ax - grad[2 * i]! * repulsionScale);
      grad[2 * i + 1] = 4 * (exaggeration * ay - grad[2 * i + 1]! * repulsionScale);
    }
    return grad;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const f64 = (a: Float64Array): Float64Array => {
      const b = new Float64Array(capacity);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array): Int32Array => {
      const b = new Int32Array(capacity);
      b.set(a);
      return b;
    };
    this.comX = f64(this.comX);
    this.comY = f64(this.comY);
    this.mass = f64(this.mass);
    this.side = f64(this.side);
    this.cornerX = f64(this.cornerX);
    this.cornerY = f64(this.cornerY);
    this.firstChild = i32(this.firstChild);
    this.start = i32(this.start);
    this.end = i32(this.end);
    const counts = new Uint8Array(capacity);
    counts.set(this.childCount);
    this.childCount = counts;
    this.capacity = capacity;
  }

  /**
   * Top-down build: each node splits its range of `order` into its four quadrants by a counting
   * pass; nodes are numbered breadth-first so siblings are adjacent.
   */
  private buildTree(y: Float64Array): void {
    const n = this.n;
    const { order, scratch } = this;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      order[i] = i;
      const x = y[2 * i]!;
      const v = y[2 * i + 1]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (v < minY) minY = v;
      if (v > maxY) maxY = v;
    }
    const rootSide = Math.max(maxX - minX, maxY - minY) * (1 + 1e-9) + 1e-12;
    const { quadrantCount, quadrantStart, cursor } = this;
    this.cornerX[0] = minX;
    this.cornerY[0] = minY;
    this.side[0] = rootSide;
    this.start[0] = 0;
    this.end[0] = n;
    let count = 1;
    const minSide = rootSide * 1e-12;
    for (let node = 0; node < count; node++) {
      const s = this.start[node]!;
      const e = this.end[node]!;
      let sx = 0;
      let sy = 0;
      for (let t = s; t < e; t++) {
        const i = order[t]!;
        sx += y[2 * i]!;
        sy += y[2 * i + 1]!;
      }
      this.comX[node] = sx / (e - s);
      this.comY[node] = sy / (e - s);
      this.mass[node] = e - s;
      const side = this.side[node]!;
      if (e - s <= LEAF_SIZE || side < minSide) {
        this.childCount[node] = 0;
        for (let t = s; t < e; t++) {
          const i = order[t]!;
          this.sortedX[t] = y[2 * i]!;
          this.sortedY[t] = y[2 * i + 1]!;
        }
        continue;
      }
      const half = side / 2;
      const midX = this.cornerX[node]! + half;
      const midY = this.cornerY[node]! + half;
      quadrantCount.fill(0);
      for (let t = s; t < e; t++) {
        const i = order[t]!;
        const q = (y[2 * i]! >= midX ? 1 : 0) + (y[2 * i + 1]! >= midY ? 2 : 0);
        quadrantCount[q]!++;
      }
      quadrantStart[0] = s;
      for (let q = 1; q < 4; q++) quadrantStart[q] = quadrantStart[q - 1]! + quadrantCount[q - 1]!;
      cursor.set(quadrantStart);
      for (let t = s; t < e; t++) {
        const i = order[t]!;
        const q = (y[2 * i]! >= midX ? 1 : 0) + (y[2 * i + 1]! >= midY ? 2 : 0);
        scratch[cursor[q]!++] = i;
      }
      order.set(scratch.subarray(s, e), s);
      while (count + 4 > this.capacity) this.grow();
      this.firstChild[node] = count;
      let children = 0;
      for (let q = 0; q < 4; q++) {
        if (quadrantCount[q] === 0) continue;
        const child = count++;
        this.start[child] = quadrantStart[q]!;
        this.end[child] = quadrantStart[q]! + quadrantCount[q]!;
        this.side[child] = half;
        this.cornerX[child] = this.cornerX[node]! + (q & 1 ? half : 0);
        this.cornerY[child] = this.cornerY[node]! + (q & 2 ? half : 0);
        children++;
      }
      this.childCount[node] = children;
    }
    this.nodeCount = count;
  }
}

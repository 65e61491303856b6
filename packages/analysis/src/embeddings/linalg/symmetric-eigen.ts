// Eigenpairs of a real symmetric matrix, largest first, as LAPACK's dsyevx does it:
// Householder reduction to tridiagonal form, eigenvalues by bisection on Sturm counts, their
// eigenvectors by inverse iteration (re-orthogonalised within clusters of close eigenvalues),
// then back through the reflectors. O(d³) for the reduction and O(d²·k) for the rest, so the
// top k pairs of a 784 × 784 covariance take a fraction of a second.

import { createKernels, createMemory, type Kernels } from './kernels.js';

const EPSILON = 2 ** -52;
/** Inverse iterations per eigenvector (LAPACK's dstein stops by 5 as well). */
const MAX_INVERSE_ITERATIONS = 5;
/** Eigenvalues closer than this times the matrix's norm are one cluster (dstein's 1e-3). */
const CLUSTER_GAP = 1e-3;

export interface Eigenpairs {
  /** The k largest eigenvalues, descending. */
  values: Float64Array;
  /** Their unit eigenvectors as the rows of a k × d matrix. */
  vectors: Float64Array;
}

/**
 * The k largest eigenpairs of the symmetric d × d row-major `matrix` (only its upper triangle
 * is read; the matrix is left as it is).
 */
export function largestEigenpairs(matrix: Float64Array, d: number, k: number): Eigenpairs {
  if (matrix.length !== d * d) throw new Error(`matrix must hold d · d = ${d * d} values`);
  if (!Number.isInteger(k) || k < 0 || k > d) throw new Error(`k must be in [0, ${d}]`);
  // The kernels' memory: the matrix (then the reflectors), p, β, the k vectors.
  const memory = createMemory((d * d + d + 2 + k * d) * 8);
  const kernels = createKernels(memory);
  const a = new Float64Array(memory.buffer, 0, d * d);
  a.set(matrix);
  const { diagonal, offDiagonal, betas } = tridiagonalize(kernels, a, d);
  const norm = tridiagonalNorm(diagonal, offDiagonal);
  const values = largestTridiagonalEigenvalues(diagonal, offDiagonal, k, norm);
  const vectors = tridiagonalEigenvectors(diagonal, offDiagonal, values, norm);
  // vectors ← Q·vectors, Q = H_0·H_1·…·H_{d−3}: the tridiagonal's eigenvectors become A's.
  const betaAt = (d * d + d) * 8;
  const vectorsAt = betaAt + 16;
  const f64 = new Float64Array(memory.buffer);
  f64.set(vectors, vectorsAt / 8);
  for (let i = d - 3; i >= 0; i--) {
    if (betas[i] === 0) continue;
    f64[betaAt / 8] = betas[i]!;
    kernels.reflect(i * d * 8, i + 1, d, betaAt, vectorsAt, k);
  }
  vectors.set(f64.subarray(vectorsAt / 8, vectorsAt / 8 + k * d));
  return { values, vectors };
}

/**
 * All eigenpairs; eigenvalues descending, eigenvectors as the columns of a row-major d × d
 * matrix.
 */
export function symmetricEigen(
  matrix: Float64Array,
  d: number,
): { values: Float64Array; vectors: Float64Array } {
  const { values, vectors: rows } = largestEigenpairs(matrix, d, d);
  const vectors = new Float64Array(d * d);
  for (let c = 0; c < d; c++) {
    for (let i = 0; i < d; i++) vectors[i * d + c] = rows[c * d + i]!;
  }
  return { values, vectors };
}

/**
 * Householder reduction A = Q·T·Qᵀ. Step i zeroes row i right of its superdiagonal with
 * H_i = I − β_i·v_i·v_iᵀ (v_i stored in row i from column i + 2 on, its entry at i + 1 being 1).
 * Works on the upper triangle, row-major so every inner loop is contiguous; the two O(d²)
 * products of each step run as SIMD kernels (`a` lies at the start of their memory, p after it).
 */
function tridiagonalize(
  kernels: Kernels,
  a: Float64Array,
  d: number,
): { diagonal: Float64Array; offDiagonal: Float64Array; betas: Float64Array } {
  const pAt = d * d * 8;
  const p = new Float64Array(a.buffer, pAt, d);
  const diagonal = new Float64Array(d);
  const offDiagonal = new Float64Array(Math.max(0, d - 1));
  const betas = new Float64Array(Math.max(0, d - 2));
  for (let i = 0; i < d - 2; i++) {
    const row = i * d;
    const head = i + 1;
    // v = x − α·e1 for x = a[i][i+1..], scaled so v[0] = 1 (LAPACK's dlarfg).
    let tail = 0;
    for (let j = head + 1; j < d; j++) tail += a[row + j]! * a[row + j]!;
    const x0 = a[row + head]!;
    if (tail === 0) {
      offDiagonal[i] = x0;
      continue;
    }
    const alpha = -Math.sign(x0 || 1) * Math.sqrt(x0 * x0 + tail);
    const v0 = x0 - alpha;
    const beta = -v0 / alpha;
    for (let j = head + 1; j < d; j++) a[row + j]! /= v0;
    a[row + head] = 1;
    offDiagonal[i] = alpha;
    betas[i] = beta;
    // p = β·A22·v; w = p − (β·pᵀv/2)·v; A22 −= v·wᵀ + w·vᵀ (LAPACK's dsytd2).
    p.fill(0, head, d);
    kernels.symmetricProduct(0, d, head, row * 8, pAt);
    let pv = 0;
    for (let r = head; r < d; r++) {
      p[r]! *= beta;
      pv += p[r]! * a[row + r]!;
    }
    const half = (beta * pv) / 2;
    for (let r = head; r < d; r++) p[r]! -= half * a[row + r]!;
    kernels.symmetricRankTwo(0, d, head, row * 8, pAt);
  }
  for (let i = 0; i < d; i++) diagonal[i] = a[i * d + i]!;
  if (d >= 2) offDiagonal[d - 2] = a[(d - 2) * d + d - 1]!;
  return { diagonal, offDiagonal, betas };
}

function tridiagonalNorm(diagonal: Float64Array, offDiagonal: Float64Array): number {
  let norm = 0;
  for (let i = 0; i < diagonal.length; i++) {
    const row =
      Math.abs(diagonal[i]!) +
      (i > 0 ? Math.abs(offDiagonal[i - 1]!) : 0) +
      (i < offDiagonal.length ? Math.abs(offDiagonal[i]!) : 0);
    norm = Math.max(norm, row);
  }
  return norm;
}

/** Number of eigenvalues of the tridiagonal matrix below x (Sturm sequence, LAPACK's dlaebz). */
function countBelow(
  diagonal: Float64Array,
  squares: Float64Array,
  x: number,
  pivotMinimum: number,
): number {
  let count = 0;
  let q = diagonal[0]! - x;
  if (Math.abs(q) < pivotMinimum) q = -pivotMinimum;
  if (q < 0) count++;
  for (let i = 1; i < diagonal.length; i++) {
    q = diagonal[i]! - x - squares[i - 1]! / q;
    if (Math.abs(q) < pivotMinimum) q = -pivotMinimum;
    if (q < 0) count++;
  }
  return count;
}

/** The k largest eigenvalues by bisection, each to full precision, descending. */
function largestTridiagonalEigenvalues(
  diagonal: Float64Array,
  offDiagonal: Float64Array,
  k: number,
  norm: number,
): Float64Array {
  const d = diagonal.length;
  const squares = offDiagonal.map((e) => e * e);
  let largestSquare = 0;
  for (const s of squares) largestSquare = Math.max(largestSquare, s);
  const pivotMinimum = Math.max(Number.MIN_VALUE * 2 ** 60, largestSquare * 2 ** -1000);
  // Gershgorin bounds, widened so the counts at the ends are exact.
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i < d; i++) {
    const radius =
      (i > 0 ? Math.abs(offDiagonal[i - 1]!) : 0) + (i < d - 1 ? Math.abs(offDiagonal[i]!) : 0);
    low = Math.min(low, diagonal[i]! - radius);
    high = Math.max(high, diagonal[i]! + radius);
  }
  const margin = 2 * EPSILON * norm * d + 2 * pivotMinimum;
  low -= margin;
  high += margin;
  // Absolute accuracy ε·‖T‖: all that inverse iteration and the variances need.
  const tolerance = 2 * EPSILON * Math.max(norm, Number.MIN_VALUE * 2 ** 60);
  const values = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    // The (d − c)-th smallest: the largest x with fewer than d − c eigenvalues below it.
    const target = d - c;
    let lo = low;
    let hi = c > 0 ? Math.min(high, values[c - 1]! + margin) : high;
    for (let step = 0; step < 200; step++) {
      const mid = (lo + hi) / 2;
      if (hi - lo <= tolerance) break;
      if (mid <= lo || mid >= hi) break;
      if (countBelow(diagonal, squares, mid, pivotMinimum) >= target) hi = mid;
      else lo = mid;
    }
    values[c] = (lo + hi) / 2;
  }
  return values;
}

/**
 * Unit eigenvectors of the tridiagonal matrix for the given eigenvalues (descending), as rows:
 * inverse iteration with an LU of T − λI (partial pivoting), a deterministic start, and
 * modified Gram–Schmidt against the earlier vectors of the same cluster (LAPACK's dstein).
 */
function tridiagonalEigenvectors(
  diagonal: Float64Array,
  offDiagonal: Float64Array,
  values: Float64Array,
  norm: number,
): Float64Array {
  const d = diagonal.length;
  const k = values.length;
  const vectors = new Float64Array(k * d);
  if (d === 1) {
    vectors.fill(1);
    return vectors;
  }
  const scale = Math.max(norm, Number.MIN_VALUE * 2 ** 60);
  const perturbation = 10 * EPSILON * scale;
  const tiny = EPSILON * scale;
  const lu = new TridiagonalLu(d);
  const x = new Float64Array(d);
  let clusterStart = 0;
  let shift = 0;
  for (let c = 0; c < k; c++) {
    let lambda = values[c]!;
    if (c > 0) {
      if (values[c - 1]! - lambda > CLUSTER_GAP * scale) clusterStart = c;
      // Equal shifts would give equal vectors: keep consecutive ones apart.
      if (shift - lambda < perturbation) lambda = shift - perturbation;
    }
    shift = lambda;
    lu.factor(diagonal, offDiagonal, lambda, tiny);
    // A fixed start with weight on every coordinate (a Weyl sequence), different per vector.
    for (let i = 0; i < d; i++) {
      x[i] = 0.75 - (((i + 1) * 0.6180339887498949 + c * 0.4142135623730951) % 1) / 2;
    }
    normalizeVector(x);
    for (let iteration = 0; iteration < MAX_INVERSE_ITERATIONS; iteration++) {
      lu.solve(x);
      for (let pass = 0; pass < 2 && c > clusterStart; pass++) {
        for (let other = clusterStart; other < c; other++) {
          let dot = 0;
          for (let i = 0; i < d; i++) dot += x[i]! * vectors[other * d + i]!;
          for (let i = 0; i < d; i++) x[i]! -= dot * vectors[other * d + i]!;
        }
      }
      // T − λI amplifies the eigenvector by about 1/|λ error|: once that is near 1/ε, one
      // more step (dstein's rule) leaves the other directions at rounding level.
      const growth = normalizeVector(x);
      if (iteration >= 1 && growth * tiny >= 1e-3) break;
    }
    vectors.set(x, c * d);
  }
  return vectors;
}

function normalizeVector(x: Float64Array): number {
  let largest = 0;
  for (let i = 0; i < x.length; i++) largest = Math.max(largest, Math.abs(x[i]!));
  if (largest === 0) {
    x.fill(1 / Math.sqrt(x.length));
    return 0;
  }
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += (x[i]! / largest) ** 2;
  const norm = largest * Math.sqrt(sum);
  for (let i = 0; i < x.length; i++) x[i]! /= norm;
  return norm;
}

/** LU with partial pivoting of a tridiagonal T − λI (LAPACK's dgttrf) and its solve (dgttrs). */
class TridiagonalLu {
  private readonly lower: Float64Array; // multipliers
  private readonly pivots: Float64Array; // U's diagonal
  private readonly upper1: Float64Array; // U's first superdiagonal
  private readonly upper2: Float64Array; // U's second superdiagonal (from row swaps)
  private readonly swapped: Uint8Array;

  constructor(private readonly d: number) {
    this.lower = new Float64Array(d);
    this.pivots = new Float64Array(d);
    this.upper1 = new Float64Array(d);
    this.upper2 = new Float64Array(d);
    this.swapped = new Uint8Array(d);
  }

  /** Pivots smaller than `tiny` become ±tiny, so a singular T − λI still solves (to a huge x). */
  factor(diagonal: Float64Array, offDiagonal: Float64Array, lambda: number, tiny: number): void {
    const { d, lower, pivots, upper1, upper2, swapped } = this;
    for (let i = 0; i < d; i++) {
      pivots[i] = diagonal[i]! - lambda;
      upper1[i] = i < d - 1 ? offDiagonal[i]! : 0;
      lower[i] = i < d - 1 ? offDiagonal[i]! : 0;
    }
    upper2.fill(0);
    swapped.fill(0);
    for (let i = 0; i < d - 1; i++) {
      const below = lower[i]!;
      if (Math.abs(pivots[i]!) >= Math.abs(below)) {
        if (pivots[i] === 0) pivots[i] = tiny;
        const factor = below / pivots[i]!;
        lower[i] = factor;
        pivots[i + 1]! -= factor * upper1[i]!;
      } else {
        // Swap rows i and i + 1.
        const factor = pivots[i]! / below;
        pivots[i] = below;
        lower[i] = factor;
        const u = upper1[i]!;
        upper1[i] = pivots[i + 1]!;
        pivots[i + 1] = u - factor * pivots[i + 1]!;
        if (i < d - 2) {
          upper2[i] = upper1[i + 1]!;
          upper1[i + 1] = -factor * upper1[i + 1]!;
        }
        swapped[i] = 1;
      }
    }
    for (let i = 0; i < d; i++) {
      if (Math.abs(pivots[i]!) < tiny) pivots[i] = pivots[i]! < 0 ? -tiny : tiny;
    }
  }

  solve(b: Float64Array): void {
    const { d, lower, pivots, upper1, upper2, swapped } = this;
    for (let i = 0; i < d - 1; i++) {
      if (swapped[i]) {
        const t = b[i]!;
        b[i] = b[i + 1]!;
        b[i + 1] = t - lower[i]! * b[i]!;
      } else {
        b[i + 1]! -= lower[i]! * b[i]!;
      }
    }
    b[d - 1]! /= pivots[d - 1]!;
    if (d > 1) b[d - 2] = (b[d - 2]! - upper1[d - 2]! * b[d - 1]!) / pivots[d - 2]!;
    for (let i = d - 3; i >= 0; i--) {
      b[i] = (b[i]! - upper1[i]! * b[i + 1]! - upper2[i]! * b[i + 2]!) / pivots[i]!;
    }
  }
}

// Principal component analysis of n × d float32 feature vectors, for the embeddings scatter plot
// (2-D by default) and for callers wanting more components. Exact: the sample covariance in one
// pass over the rows, then its top eigenpairs (Householder tridiagonalisation, bisection,
// inverse iteration). Randomized (Musco & Musco's block Krylov iteration, in the Halko,
// Martinsson & Tropp framework): the covariance applied to a few vectors at a time without
// forming it, then the eigenpairs of the covariance on the Krylov space they span. The
// passes over the rows run as WebAssembly SIMD kernels on all cores (linalg/); see
// docs/performance.md.

import { createRandom, type Random } from '../random.js';
import { CentredRows } from './linalg/centred-rows.js';
import { largestEigenpairs, type Eigenpairs } from './linalg/symmetric-eigen.js';

export { symmetricEigen } from './linalg/symmetric-eigen.js';

export type PcaMethod = 'exact' | 'randomized';

export interface PcaOptions {
  /** Output dimensions k (default 2); 1 ≤ k ≤ d. */
  components?: number;
  /** 'auto' (default) picks the method with fewer multiply-adds for this n, d, k. */
  method?: PcaMethod | 'auto';
  /** Seed of the random start of the randomized method (default 0). */
  seed?: number;
  /** Vectors of the randomized method's block beyond k (default 2). */
  oversampling?: number;
  /**
   * Krylov steps of the randomized method, one pass over the rows each (plus one to finish):
   * default ⌈36 / block⌉ kept within [5, 8], so 8 for k = 2 (a 36-vector space) and 5 from
   * k = 6 on (4 leaves 1 − cos² near 10⁻⁵ at k = 8 on a slowly decaying spectrum, 5 near
   * 10⁻⁸).
   */
  powerIterations?: number;
  /**
   * Most threads (default: one per core, up to 4). Threads start only when the data is large
   * enough to pay for them; the result does not depend on how many run.
   */
  threads?: number;
}

export interface PcaResult {
  /** n · k projected coordinates, row-major. */
  projection: Float32Array;
  /** k · d unit principal directions, row-major, largest variance first; each one's largest
   * entry (by magnitude) is positive, so the signs are reproducible. */
  components: Float32Array;
  /** Per-dimension mean removed before projecting. */
  mean: Float32Array;
  /** Variance along each component (sample variance, divided by n − 1). */
  explainedVariance: Float64Array;
  /** explainedVariance / total variance of the data. */
  explainedVarianceRatio: Float64Array;
  /** Sum of the per-dimension sample variances. */
  totalVariance: number;
  method: PcaMethod;
}

const DEFAULT_OVERSAMPLING = 2;
/** Above this d the exact method's d × d covariance (and its copies per slice) gets too big. */
const MAX_EXACT_DIMENSION = 2048;
/**
 * Cost weights, in SIMD multiply-adds (what a pass over the rows costs each): the eigensolver's
 * d³ (half of it SIMD, half TypeScript) and the randomized method's TypeScript work on its
 * m-vector space: Gram–Schmidt (twice, dot products and updates, 2·m²·d) and Bᵀ·C·B's upper
 * triangle (m²·d/2), 2.5·m²·d multiply-adds at ≈ 16 times a SIMD one's cost.
 */
const EIGEN_WEIGHT = 5;
const KRYLOV_WEIGHT = 40;

function positiveInteger(value: number, name: string): void {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
}

export interface PcaPlan {
  components: number;
  method: PcaMethod;
  /** Vectors b in each block of the randomized method. */
  block: number;
  /** Dimension m of its Krylov space: b · (powerIterations + 1), at most d. */
  subspace: number;
  powerIterations: number;
  /** Multiply-adds the chosen method is expected to take, projection included. */
  work: number;
}

/** What `pca` will do for these sizes and options (options checked, defaults filled in). */
export function pcaPlan(n: number, d: number, options: PcaOptions = {}): PcaPlan {
  positiveInteger(n, 'n');
  positiveInteger(d, 'd');
  const k = options.components ?? 2;
  positiveInteger(k, 'components');
  if (k > d) throw new Error(`components must be at most d = ${d}`);
  const oversampling = options.oversampling ?? DEFAULT_OVERSAMPLING;
  const block = Math.min(d, k + oversampling);
  const powerIterations =
    options.powerIterations ?? Math.min(8, Math.max(5, Math.ceil(36 / block)));
  if (!Number.isInteger(oversampling) || oversampling < 0) {
    throw new Error('oversampling must be a non-negative integer');
  }
  if (!Number.isInteger(powerIterations) || powerIterations < 0) {
    throw new Error('powerIterations must be a non-negative integer');
  }
  if (options.threads !== undefined) positiveInteger(options.threads, 'threads');
  const subspace = Math.min(d, block * (powerIterations + 1));
  const costs = {
    exact: (n * d * d) / 2 + EIGEN_WEIGHT * d * d * d,
    randomized: 2 * n * d * subspace + KRYLOV_WEIGHT * subspace ** 2 * d,
  };
  const method = chooseMethod(options.method ?? 'auto', d, costs);
  return {
    components: k,
    method,
    block,
    subspace,
    powerIterations,
    work: costs[method] + n * d * k,
  };
}

export function pca(data: Float32Array, n: number, d: number, options: PcaOptions = {}): PcaResult {
  const plan = pcaPlan(n, d, options);
  if (data.length !== n * d) throw new Error(`data must hold n · d = ${n * d} values`);
  const { components: k, method, block, subspace } = plan;
  const rows = new CentredRows(data, n, d, {
    vectors: method === 'exact' ? k : block,
    covariance: method === 'exact',
    work: plan.work,
    threads: options.threads,
  });
  try {
    const { vectors: directions, values: variances } =
      method === 'exact'
        ? largestEigenpairs(rows.covariance(), d, k)
        : randomizedPca(rows, d, k, block, subspace, createRandom(options.seed ?? 0));
    for (let c = 0; c < k; c++) variances[c] = Math.max(0, variances[c]!);
    fixSigns(directions, k, d);
    const { totalVariance } = rows;
    const explainedVarianceRatio = new Float64Array(k);
    for (let c = 0; c < k; c++) {
      explainedVarianceRatio[c] = totalVariance > 0 ? variances[c]! / totalVariance : 0;
    }
    return {
      projection: rows.project(directions, k),
      components: Float32Array.from(directions),
      mean: Float32Array.from(rows.mean),
      explainedVariance: variances,
      explainedVarianceRatio,
      totalVariance,
      method,
    };
  } finally {
    rows.close();
  }
}

function chooseMethod(
  requested: PcaMethod | 'auto',
  d: number,
  costs: Record<PcaMethod, number>,
): PcaMethod {
  if (requested === 'exact' || requested === 'randomized') return requested;
  if (requested !== 'auto') throw new Error(`Unknown PCA method: ${String(requested)}`);
  if (d > MAX_EXACT_DIMENSION) return 'randomized';
  return costs.exact <= costs.randomized ? 'exact' : 'randomized';
}

/**
 * Randomized block Krylov iteration (Musco & Musco, 2015) on the covariance operator
 * C = X̃ᵀX̃/(n − 1), so that only d-wide vectors are kept: a seeded Gaussian block Z₀ of b
 * vectors, then the Krylov space span(Z₀, C·Z₀, …, C^q·Z₀) built one block at a time (each new
 * block C·Z_i re-orthonormalised against every earlier vector, twice, so no direction is lost
 * to rounding), C applied to each block in one pass over the rows, and the top k eigenpairs of
 * C restricted to the whole space (Rayleigh–Ritz). Power iteration keeps only the last block
 * and converges like (λ_{l+1}/λ_k)^q; the Krylov space holds every polynomial of degree q in
 * C, so it converges like a Chebyshev polynomial of the gap, about its square root: at
 * 60,000 × 784 → 2 a 4-wide block and 8 steps (36 vectors passed) leave 1 − cos² at
 * 10⁻¹⁴–10⁻¹¹ (by seed), where a 12-wide power iteration with 8 steps (108 vectors) left
 * 5·10⁻¹⁰. Once the space would reach d vectors it is the whole space and the answer is exact.
 */
function randomizedPca(
  rows: CentredRows,
  d: number,
  k: number,
  block: number,
  subspace: number,
  random: Random,
): Eigenpairs {
  const m = subspace;
  const basis = new Float64Array(m * d); // rows: the Krylov space's orthonormal basis
  const images = new Float64Array(m * d); // rows: C applied to each basis vector
  let filled = Math.min(block, m);
  for (let i = 0; i < filled * d; i++) basis[i] = random.normal();
  orthonormalizeRows(basis, 0, filled, d, random);
  for (let start = 0; start < m;) {
    const current = basis.subarray(start * d, filled * d);
    // The kernels use the vectors rounded to float32: so does the Rayleigh–Ritz step, so
    // that images[a] is C applied to exactly basis[a].
    for (let i = 0; i < current.length; i++) current[i] = Math.fround(current[i]!);
    const w = rows.multiplyCovariance(current, filled - start);
    images.set(w, start * d);
    const next = Math.min(m, filled + block);
    if (next > filled) {
      basis.set(w.subarray(0, (next - filled) * d), filled * d);
      orthonormalizeRows(basis, filled, next, d, random);
    }
    start = filled;
    filled = next;
  }
  // T = Bᵀ·C·B (m × m): its upper triangle, all the eigensolver reads.
  const t = new Float64Array(m * m);
  for (let x = 0; x < m; x++) {
    for (let y = x; y < m; y++) t[x * m + y] = rowDot2(basis, x * d, images, y * d, d);
  }
  const ritz = largestEigenpairs(t, m, k);
  const directions = new Float64Array(k * d);
  const values = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    for (let a = 0; a < m; a++) {
      const weight = ritz.vectors[c * m + a]!;
      for (let j = 0; j < d; j++) directions[c * d + j]! += weight * basis[a * d + j]!;
    }
    // The float32-rounded basis is orthonormal only to ≈ 10⁻⁸: dividing by the squared norm
    // makes the value the Rayleigh quotient of the unit direction itself.
    const norm = normalize(directions, c * d, d);
    values[c] = norm > 0 ? ritz.values[c]! / (norm * norm) : 0;
  }
  return { vectors: directions, values };
}

function rowDot2(a: Float64Array, ao: number, b: Float64Array, bo: number, d: number): number {
  let sum = 0;
  for (let j = 0; j < d; j++) sum += a[ao + j]! * b[bo + j]!;
  return sum;
}

function normalize(v: Float64Array, offset: number, d: number): number {
  let norm = 0;
  for (let j = 0; j < d; j++) norm += v[offset + j]! * v[offset + j]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let j = 0; j < d; j++) v[offset + j]! /= norm;
  return norm;
}

/**
 * Modified Gram–Schmidt, twice (one pass loses orthogonality when vectors are nearly
 * dependent), of rows [from, to) against every earlier row, rows before `from` being
 * orthonormal already. A row that vanishes (data of lower rank than the space) is replaced by a
 * fresh random direction, so the basis always has orthonormal rows.
 */
function orthonormalizeRows(
  z: Float64Array,
  from: number,
  to: number,
  d: number,
  random: Random,
): void {
  for (let a = from; a < to; a++) {
    const o = a * d;
    let before = Math.sqrt(rowDot(z, o, o, d));
    for (let attempt = 0; ; attempt++) {
      for (let pass = 0; pass < 2; pass++) {
        for (let b = 0; b < a; b++) {
          const projection = rowDot(z, o, b * d, d);
          for (let j = 0; j < d; j++) z[o + j]! -= projection * z[b * d + j]!;
        }
      }
      const norm = normalize(z, o, d);
      if (norm > 1e-10 * before && norm > 0) break;
      if (attempt > 10) throw new Error('Could not complete an orthonormal basis');
      for (let j = 0; j < d; j++) z[o + j] = random.normal();
      before = Math.sqrt(rowDot(z, o, o, d));
    }
  }
}

function rowDot(z: Float64Array, a: number, b: number, d: number): number {
  let sum = 0;
  for (let j = 0; j < d; j++) sum += z[a + j]! * z[b + j]!;
  return sum;
}

/** Flip each direction so its largest-magnitude entry is positive (lowest index on ties). */
function fixSigns(directions: Float64Array, k: number, d: number): void {
  for (let c = 0; c < k; c++) {
    let best = 0;
    for (let j = 1; j < d; j++) {
      if (Math.abs(directions[c * d + j]!) > Math.abs(directions[c * d + best]!)) best = j;
    }
    if (directions[c * d + best]! < 0) {
      for (let j = 0; j < d; j++) directions[c * d + j] = -directions[c * d + j]!;
    }
  }
}

// Principal component analysis of n × d float32 feature vectors, for the embeddings scatter plot
// (2-D by default) and for callers wanting more components. Exact: the sample covariance in one
// pass over the rows, then its top eigenpairs (Householder tridiagonalisation, bisection,
// inverse iteration). Randomized (Halko, Martinsson & Tropp): subspace iteration with the
// covariance applied without forming it, then the eigenpairs of a Nyström approximation. The
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
  /** Extra dimensions of the randomized subspace beyond k (default 10, Halko et al.). */
  oversampling?: number;
  /**
   * Power iterations of the randomized method, one pass over the rows each (default 8 when
   * k < 0.1 · min(n, d), else 5: one more than scikit-learn's 'auto', so the subspace is a
   * power closer to the exact one).
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

const DEFAULT_OVERSAMPLING = 10;
/** Above this d the exact method's d × d covariance (and its copies per slice) gets too big. */
const MAX_EXACT_DIMENSION = 2048;
/**
 * Cost weights, in SIMD multiply-adds (what a pass over the rows costs each): the eigensolver's
 * d³ (half of it SIMD, half TypeScript) and the randomized method's Gram–Schmidt, two passes of
 * l²·d/2 dot products and updates each in TypeScript, ≈ 20 times slower per multiply-add.
 */
const EIGEN_WEIGHT = 5;
const ORTHONORMALIZE_WEIGHT = 40;
/**
 * Smallest eigenvalue of ZᵀCZ, relative to its largest, for the Nyström step: its inverse
 * square root scales the float32-level errors of C·Z (≈ 2·10⁻⁸) by at most √1000 ≈ 32.
 */
const NYSTROM_MIN_CONDITION = 1e-3;

function positiveInteger(value: number, name: string): void {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
}

export interface PcaPlan {
  components: number;
  method: PcaMethod;
  /** Dimension l of the randomized subspace. */
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
  const powerIterations = options.powerIterations ?? (k < 0.1 * Math.min(n, d) ? 8 : 5);
  if (!Number.isInteger(oversampling) || oversampling < 0) {
    throw new Error('oversampling must be a non-negative integer');
  }
  if (!Number.isInteger(powerIterations) || powerIterations < 0) {
    throw new Error('powerIterations must be a non-negative integer');
  }
  if (options.threads !== undefined) positiveInteger(options.threads, 'threads');
  const subspace = Math.min(d, k + oversampling);
  const costs = {
    exact: (n * d * d) / 2 + EIGEN_WEIGHT * d * d * d,
    randomized:
      (powerIterations + 1) * (2 * n * d * subspace + ORTHONORMALIZE_WEIGHT * subspace ** 2 * d),
  };
  const method = chooseMethod(options.method ?? 'auto', d, costs);
  return { components: k, method, subspace, powerIterations, work: costs[method] + n * d * k };
}

export function pca(data: Float32Array, n: number, d: number, options: PcaOptions = {}): PcaResult {
  const plan = pcaPlan(n, d, options);
  if (data.length !== n * d) throw new Error(`data must hold n · d = ${n * d} values`);
  const { components: k, method, subspace, powerIterations } = plan;
  const rows = new CentredRows(data, n, d, {
    vectors: method === 'exact' ? k : subspace,
    covariance: method === 'exact',
    work: plan.work,
    threads: options.threads,
  });
  try {
    const { vectors: directions, values: variances } =
      method === 'exact'
        ? largestEigenpairs(rows.covariance(), d, k)
        : randomizedPca(rows, d, k, subspace, powerIterations, createRandom(options.seed ?? 0));
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
 * Halko, Martinsson & Tropp's randomized range finder with power iterations, on the covariance
 * operator C = X̃ᵀX̃/(n − 1) so that only l × d matrices are kept: a Gaussian start Z, then
 * Z ← orth(C·Z) `powerIterations` times (re-orthonormalised every step, so no direction is lost
 * to rounding), then one more W = C·Z and the eigenpairs of the Nyström approximation
 * W·(ZᵀW)⁻¹·Wᵀ, which lie in span(W) = span(C^(q+1)·Z₀): one power more than Rayleigh–Ritz on
 * span(Z) for the same passes, what scikit-learn's final QᵀX step gets too. When ZᵀW is close to
 * singular (data of lower rank than l), its inverse would amplify rounding, and Rayleigh–Ritz
 * on span(Z) is used instead.
 */
function randomizedPca(
  rows: CentredRows,
  d: number,
  k: number,
  l: number,
  powerIterations: number,
  random: Random,
): Eigenpairs {
  let z: Float64Array = new Float64Array(l * d); // rows are the subspace's basis vectors
  for (let i = 0; i < z.length; i++) z[i] = random.normal();
  orthonormalizeRows(z, l, d, random);
  for (let iteration = 0; iteration < powerIterations; iteration++) {
    z = rows.multiplyCovariance(z, l);
    orthonormalizeRows(z, l, d, random);
  }
  // The kernels use z rounded to float32: so do the small matrices.
  for (let i = 0; i < z.length; i++) z[i] = Math.fround(z[i]!);
  const w = rows.multiplyCovariance(z, l);
  // M = Z·C·Zᵀ (l × l), symmetrised against rounding.
  const m = smallProduct(z, w, l, d, true);
  const inner = largestEigenpairs(m, l, l);
  if (!(inner.values[l - 1]! > NYSTROM_MIN_CONDITION * inner.values[0]!)) {
    return combine(z, inner.vectors.subarray(0, k * l), inner.values.subarray(0, k), l, d);
  }
  // With M = U·diag(m)·Uᵀ and S = U·diag(m^−½): the top eigenpairs (μ, u) of Sᵀ·(W·Wᵀ)·S give
  // directions W·S·u with variance μ.
  const s = new Float64Array(l * l); // S as rows of Sᵀ: s[c][a] = U[a][c] / √m_c
  for (let c = 0; c < l; c++) {
    const scale = 1 / Math.sqrt(inner.values[c]!);
    for (let a = 0; a < l; a++) s[c * l + a] = inner.vectors[c * l + a]! * scale;
  }
  const g = smallProduct(w, w, l, d, false);
  const h = new Float64Array(l * l);
  for (let a = 0; a < l; a++) {
    for (let b = a; b < l; b++) {
      let sum = 0;
      for (let x = 0; x < l; x++) {
        let row = 0;
        for (let y = 0; y < l; y++) row += g[x * l + y]! * s[b * l + y]!;
        sum += s[a * l + x]! * row;
      }
      h[a * l + b] = sum;
      h[b * l + a] = sum;
    }
  }
  const outer = largestEigenpairs(h, l, k);
  const weights = new Float64Array(k * l); // S·u for each of the k eigenvectors u
  for (let c = 0; c < k; c++) {
    for (let a = 0; a < l; a++) {
      for (let b = 0; b < l; b++) weights[c * l + b]! += outer.vectors[c * l + a]! * s[a * l + b]!;
    }
  }
  return combine(w, weights, outer.values, l, d);
}

/** a·bᵀ for l rows of d each (l × l); `symmetrise` averages it with its transpose. */
function smallProduct(
  a: Float64Array,
  b: Float64Array,
  l: number,
  d: number,
  symmetrise: boolean,
): Float64Array {
  const out = new Float64Array(l * l);
  for (let x = 0; x < l; x++) {
    for (let y = x; y < l; y++) {
      let value = rowDot2(a, x * d, b, y * d, d);
      if (symmetrise) value = (value + rowDot2(a, y * d, b, x * d, d)) / 2;
      out[x * l + y] = value;
      out[y * l + x] = value;
    }
  }
  return out;
}

/** Unit directions Σ_b weights[c][b]·basis_b for each of the k weight rows, with their values. */
function combine(
  basis: Float64Array,
  weights: Float64Array,
  values: Float64Array,
  l: number,
  d: number,
): Eigenpairs {
  const k = values.length;
  const directions = new Float64Array(k * d);
  for (let c = 0; c < k; c++) {
    for (let b = 0; b < l; b++) {
      const weight = weights[c * l + b]!;
      for (let j = 0; j < d; j++) directions[c * d + j]! += weight * basis[b * d + j]!;
    }
    normalize(directions, c * d, d);
  }
  return { vectors: directions, values: Float64Array.from(values) };
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
 * Modified Gram–Schmidt, twice (one pass loses orthogonality when columns are nearly
 * dependent). A row that vanishes (data of lower rank than the subspace) is replaced by a fresh
 * random direction, so the basis always has l orthonormal rows.
 */
function orthonormalizeRows(z: Float64Array, l: number, d: number, random: Random): void {
  for (let a = 0; a < l; a++) {
    const o = a * d;
    let before = 0;
    for (let j = 0; j < d; j++) before += z[o + j]! * z[o + j]!;
    before = Math.sqrt(before);
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

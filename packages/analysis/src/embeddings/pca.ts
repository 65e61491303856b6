// Principal component analysis of n × d float32 feature vectors, for the embeddings scatter plot
// (2-D by default): exact (covariance + Jacobi) for small d, randomized subspace iteration otherwise.

import { createRandom, type Random } from '../random.js';

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
  /** Power iterations of the randomized method (default 4). */
  powerIterations?: number;
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
const DEFAULT_POWER_ITERATIONS = 4;
/** Rows per covariance block: the block is transposed so each covariance entry is one long dot. */
const COVARIANCE_BLOCK = 256;
/** Jacobi sweeps are O(d³); above this d the exact method would spend longer on them than on data. */
const MAX_EXACT_DIMENSION = 2048;

function positiveInteger(value: number, name: string): void {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
}

export function pca(data: Float32Array, n: number, d: number, options: PcaOptions = {}): PcaResult {
  positiveInteger(n, 'n');
  positiveInteger(d, 'd');
  if (data.length !== n * d) throw new Error(`data must hold n · d = ${n * d} values`);
  const k = options.components ?? 2;
  positiveInteger(k, 'components');
  if (k > d) throw new Error(`components must be at most d = ${d}`);
  const oversampling = options.oversampling ?? DEFAULT_OVERSAMPLING;
  const powerIterations = options.powerIterations ?? DEFAULT_POWER_ITERATIONS;
  if (!Number.isInteger(oversampling) || oversampling < 0) {
    throw new Error('oversampling must be a non-negative integer');
  }
  if (!Number.isInteger(powerIterations) || powerIterations < 0) {
    throw new Error('powerIterations must be a non-negative integer');
  }
  const subspace = Math.min(d, k + oversampling);
  const method = chooseMethod(options.method ?? 'auto', n, d, subspace, powerIterations);

  const mean = columnMeans(data, n, d);
  let directions: Float64Array; // k · d
  let variances: Float64Array; // k
  let totalVariance: number;
  if (method === 'exact') {
    const covariance = covarianceMatrix(data, n, d, mean);
    totalVariance = 0;
    for (let j = 0; j < d; j++) totalVariance += covariance[j * d + j]!;
    ({ directions, variances } = topEigenpairs(covariance, d, k));
  } else {
    const random = createRandom(options.seed ?? 0);
    ({ directions, variances, totalVariance } = randomizedPca(
      data,
      n,
      d,
      mean,
      k,
      subspace,
      powerIterations,
      random,
    ));
  }
  fixSigns(directions, k, d);

  const explainedVarianceRatio = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    explainedVarianceRatio[c] = totalVariance > 0 ? variances[c]! / totalVariance : 0;
  }
  return {
    projection: project(data, n, d, mean, directions, k),
    components: Float32Array.from(directions),
    mean: Float32Array.from(mean),
    explainedVariance: variances,
    explainedVarianceRatio,
    totalVariance,
    method,
  };
}

function chooseMethod(
  requested: PcaMethod | 'auto',
  n: number,
  d: number,
  subspace: number,
  powerIterations: number,
): PcaMethod {
  if (requested === 'exact' || requested === 'randomized') return requested;
  if (requested !== 'auto') throw new Error(`Unknown PCA method: ${String(requested)}`);
  if (d > MAX_EXACT_DIMENSION) return 'randomized';
  // Multiply-adds: the covariance's upper triangle plus Jacobi sweeps, against one pass of
  // x·Z and xᵀy per power iteration and one more for the final Rayleigh–Ritz step.
  const exact = (n * d * d) / 2 + 10 * d * d * d;
  const randomized = (powerIterations + 1) * 2 * n * d * subspace;
  return exact <= randomized ? 'exact' : 'randomized';
}

function columnMeans(data: Float32Array, n: number, d: number): Float64Array {
  const sums = new Float64Array(d);
  for (let i = 0, base = 0; i < n; i++, base += d) {
    for (let j = 0; j < d; j++) sums[j]! += data[base + j]!;
  }
  for (let j = 0; j < d; j++) sums[j]! /= n;
  return sums;
}

/** Sample covariance (d × d, row-major) in one blocked pass over the rows. */
function covarianceMatrix(
  data: Float32Array,
  n: number,
  d: number,
  mean: Float64Array,
): Float64Array {
  const B = COVARIANCE_BLOCK;
  const dd = Math.ceil(d / 4) * 4; // pad so every tile is 4 × 4; padding columns stay zero
  const block = new Float64Array(dd * B); // transposed, centred block: block[j·B + r]
  const sums = new Float64Array(dd * dd);
  for (let start = 0; start < n; start += B) {
    const rows = Math.min(B, n - start);
    for (let r = 0; r < rows; r++) {
      const base = (start + r) * d;
      for (let j = 0; j < d; j++) block[j * B + r] = data[base + j]! - mean[j]!;
    }
    if (rows < B) {
      for (let j = 0; j < d; j++) block.fill(0, j * B + rows, (j + 1) * B);
    }
    // Upper triangle in 4 × 4 tiles: sixteen running sums share each eight loads (V8 does not
    // vectorise, so loads per multiply-add are what limit this loop).
    for (let i = 0; i < dd; i += 4) {
      const a0 = i * B;
      const a1 = a0 + B;
      const a2 = a1 + B;
      const a3 = a2 + B;
      for (let j = i; j < dd; j += 4) {
        const b0 = j * B;
        const b1 = b0 + B;
        const b2 = b1 + B;
        const b3 = b2 + B;
        let s00 = 0,
          s01 = 0,
          s02 = 0,
          s03 = 0;
        let s10 = 0,
          s11 = 0,
          s12 = 0,
          s13 = 0;
        let s20 = 0,
          s21 = 0,
          s22 = 0,
          s23 = 0;
        let s30 = 0,
          s31 = 0,
          s32 = 0,
          s33 = 0;
        for (let r = 0; r < B; r++) {
          const x0 = block[a0 + r]!;
          const x1 = block[a1 + r]!;
          const x2 = block[a2 + r]!;
          const x3 = block[a3 + r]!;
          const y0 = block[b0 + r]!;
          const y1 = block[b1 + r]!;
          const y2 = block[b2 + r]!;
          const y3 = block[b3 + r]!;
          s00 += x0 * y0;
          s01 += x0 * y1;
          s02 += x0 * y2;
          s03 += x0 * y3;
          s10 += x1 * y0;
          s11 += x1 * y1;
          s12 += x1 * y2;
          s13 += x1 * y3;
          s20 += x2 * y0;
          s21 += x2 * y1;
          s22 += x2 * y2;
          s23 += x2 * y3;
          s30 += x3 * y0;
          s31 += x3 * y1;
          s32 += x3 * y2;
          s33 += x3 * y3;
        }
        let o = i * dd + j;
        sums[o]! += s00;
        sums[o + 1]! += s01;
        sums[o + 2]! += s02;
        sums[o + 3]! += s03;
        o += dd;
        sums[o]! += s10;
        sums[o + 1]! += s11;
        sums[o + 2]! += s12;
        sums[o + 3]! += s13;
        o += dd;
        sums[o]! += s20;
        sums[o + 1]! += s21;
        sums[o + 2]! += s22;
        sums[o + 3]! += s23;
        o += dd;
        sums[o]! += s30;
        sums[o + 1]! += s31;
        sums[o + 2]! += s32;
        sums[o + 3]! += s33;
      }
    }
  }
  const scale = 1 / Math.max(1, n - 1);
  const covariance = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = i; j < d; j++) {
      const value = sums[i * dd + j]! * scale;
      covariance[i * d + j] = value;
      covariance[j * d + i] = value;
    }
  }
  return covariance;
}

/**
 * Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations (robust, and accurate for
 * small eigenvalues). The matrix is overwritten; returns eigenvalues (unsorted) and the
 * eigenvectors as the columns of a row-major d × d matrix.
 */
export function symmetricEigen(
  matrix: Float64Array,
  d: number,
): { values: Float64Array; vectors: Float64Array } {
  const a = matrix;
  const v = new Float64Array(d * d);
  for (let i = 0; i < d; i++) v[i * d + i] = 1;
  let frobenius = 0;
  for (let i = 0; i < d * d; i++) frobenius += a[i]! * a[i]!;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < d; p++) {
      for (let q = p + 1; q < d; q++) off += a[p * d + q]! * a[p * d + q]!;
    }
    if (off <= 1e-30 * frobenius || off === 0) break;
    for (let p = 0; p < d - 1; p++) {
      for (let q = p + 1; q < d; q++) {
        const apq = a[p * d + q]!;
        if (apq === 0) continue;
        const app = a[p * d + p]!;
        const aqq = a[q * d + q]!;
        const theta = (aqq - app) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let r = 0; r < d; r++) {
          const arp = a[r * d + p]!;
          const arq = a[r * d + q]!;
          a[r * d + p] = c * arp - s * arq;
          a[r * d + q] = s * arp + c * arq;
        }
        for (let r = 0; r < d; r++) {
          const apr = a[p * d + r]!;
          const aqr = a[q * d + r]!;
          a[p * d + r] = c * apr - s * aqr;
          a[q * d + r] = s * apr + c * aqr;
        }
        for (let r = 0; r < d; r++) {
          const vrp = v[r * d + p]!;
          const vrq = v[r * d + q]!;
          v[r * d + p] = c * vrp - s * vrq;
          v[r * d + q] = s * vrp + c * vrq;
        }
      }
    }
  }
  const values = new Float64Array(d);
  for (let i = 0; i < d; i++) values[i] = a[i * d + i]!;
  return { values, vectors: v };
}

/** The k largest eigenpairs; directions as rows (k · d). Ties keep the lower index first. */
function topEigenpairs(
  matrix: Float64Array,
  d: number,
  k: number,
): { directions: Float64Array; variances: Float64Array } {
  const { values, vectors } = symmetricEigen(matrix, d);
  const order = Array.from({ length: d }, (_, i) => i).sort(
    (x, y) => values[y]! - values[x]! || x - y,
  );
  const directions = new Float64Array(k * d);
  const variances = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    const column = order[c]!;
    variances[c] = Math.max(0, values[column]!);
    for (let j = 0; j < d; j++) directions[c * d + j] = vectors[j * d + column]!;
  }
  return { directions, variances };
}

/**
 * Halko, Martinsson & Tropp's randomized range finder with power iterations, applied to the
 * covariance operator C = X̃ᵀX̃/(n − 1) (X̃ centred) so that only d × l matrices are kept: a
 * Gaussian start Z, then Z ← orth(C·Z) a few times, then Rayleigh–Ritz on span(Z).
 */
function randomizedPca(
  data: Float32Array,
  n: number,
  d: number,
  mean: Float64Array,
  k: number,
  l: number,
  powerIterations: number,
  random: Random,
): { directions: Float64Array; variances: Float64Array; totalVariance: number } {
  let z: Float64Array = new Float64Array(l * d); // rows are the subspace's basis vectors
  for (let i = 0; i < z.length; i++) z[i] = random.normal();
  orthonormalizeRows(z, l, d, random);
  for (let iteration = 0; iteration < powerIterations; iteration++) {
    z = applyCovariance(data, n, d, mean, z, l).w;
    orthonormalizeRows(z, l, d, random);
  }
  const { w, totalVariance } = applyCovariance(data, n, d, mean, z, l);
  // T = Zᵀ C Z (l × l), symmetrised against rounding.
  const t = new Float64Array(l * l);
  for (let a = 0; a < l; a++) {
    for (let b = a; b < l; b++) {
      let sum = 0;
      for (let j = 0; j < d; j++) sum += z[a * d + j]! * w[b * d + j]!;
      let sum2 = 0;
      for (let j = 0; j < d; j++) sum2 += z[b * d + j]! * w[a * d + j]!;
      t[a * l + b] = (sum + sum2) / 2;
      t[b * l + a] = (sum + sum2) / 2;
    }
  }
  const small = topEigenpairs(t, l, k);
  const directions = new Float64Array(k * d);
  for (let c = 0; c < k; c++) {
    for (let b = 0; b < l; b++) {
      const weight = small.directions[c * l + b]!;
      for (let j = 0; j < d; j++) directions[c * d + j]! += weight * z[b * d + j]!;
    }
    normalize(directions, c * d, d);
  }
  return { directions, variances: small.variances, totalVariance };
}

/**
 * W = C·Z as rows (l · d) in one pass over the data, and the total variance for free. Per block
 * of rows: Y = X̃_b·Zᵀ, then W += Yᵀ·X̃_b, both as 4 × 4 tiles of dot products (the centred block
 * is kept row-major for the first and transposed for the second, so every dot is contiguous).
 */
function applyCovariance(
  data: Float32Array,
  n: number,
  d: number,
  mean: Float64Array,
  z: Float64Array,
  l: number,
): { w: Float64Array; totalVariance: number } {
  const B = COVARIANCE_BLOCK;
  const dp = Math.ceil(d / 4) * 4; // zero padding, so every tile is whole
  const lp = Math.ceil(l / 4) * 4;
  const zp = new Float64Array(lp * dp);
  for (let a = 0; a < l; a++) zp.set(z.subarray(a * d, (a + 1) * d), a * dp);
  const rows = new Float64Array(B * dp); // centred block, row-major
  const columns = new Float64Array(dp * B); // the same, transposed
  const y = new Float64Array(lp * B); // y[a·B + r] = x̃_r · z_a
  const wp = new Float64Array(lp * dp);
  let squares = 0;
  for (let start = 0; start < n; start += B) {
    const count = Math.min(B, n - start);
    for (let r = 0; r < count; r++) {
      const base = (start + r) * d;
      const o = r * dp;
      for (let j = 0; j < d; j++) {
        const value = data[base + j]! - mean[j]!;
        rows[o + j] = value;
        columns[j * B + r] = value;
        squares += value * value;
      }
    }
    if (count < B) {
      rows.fill(0, count * dp);
      for (let j = 0; j < d; j++) columns.fill(0, j * B + count, (j + 1) * B);
    }
    y.fill(0);
    for (let r = 0; r < B; r += 4) {
      for (let a = 0; a < lp; a += 4)
        dot4x4(rows, r * dp, dp, zp, a * dp, dp, dp, y, a * B + r, 1, B);
    }
    for (let a = 0; a < lp; a += 4) {
      for (let j = 0; j < dp; j += 4)
        dot4x4(y, a * B, B, columns, j * B, B, B, wp, a * dp + j, dp, 1);
    }
  }
  const scale = 1 / Math.max(1, n - 1);
  const w = new Float64Array(l * d);
  for (let a = 0; a < l; a++) {
    for (let j = 0; j < d; j++) w[a * d + j] = wp[a * dp + j]! * scale;
  }
  return { w, totalVariance: squares * scale };
}

/**
 * out[o + i·oi + k·ok] += Σ_t a[a0 + i·as + t] · b[b0 + k·bs + t] for i, k < 4 and t < length:
 * sixteen running sums share each eight loads.
 */
function dot4x4(
  a: Float64Array,
  a0: number,
  as: number,
  b: Float64Array,
  b0: number,
  bs: number,
  length: number,
  out: Float64Array,
  o: number,
  oi: number,
  ok: number,
): void {
  const a1 = a0 + as;
  const a2 = a1 + as;
  const a3 = a2 + as;
  const b1 = b0 + bs;
  const b2 = b1 + bs;
  const b3 = b2 + bs;
  let s00 = 0,
    s01 = 0,
    s02 = 0,
    s03 = 0;
  let s10 = 0,
    s11 = 0,
    s12 = 0,
    s13 = 0;
  let s20 = 0,
    s21 = 0,
    s22 = 0,
    s23 = 0;
  let s30 = 0,
    s31 = 0,
    s32 = 0,
    s33 = 0;
  for (let t = 0; t < length; t++) {
    const x0 = a[a0 + t]!;
    const x1 = a[a1 + t]!;
    const x2 = a[a2 + t]!;
    const x3 = a[a3 + t]!;
    const y0 = b[b0 + t]!;
    const y1 = b[b1 + t]!;
    const y2 = b[b2 + t]!;
    const y3 = b[b3 + t]!;
    s00 += x0 * y0;
    s01 += x0 * y1;
    s02 += x0 * y2;
    s03 += x0 * y3;
    s10 += x1 * y0;
    s11 += x1 * y1;
    s12 += x1 * y2;
    s13 += x1 * y3;
    s20 += x2 * y0;
    s21 += x2 * y1;
    s22 += x2 * y2;
    s23 += x2 * y3;
    s30 += x3 * y0;
    s31 += x3 * y1;
    s32 += x3 * y2;
    s33 += x3 * y3;
  }
  const o1 = o + oi;
  const o2 = o1 + oi;
  const o3 = o2 + oi;
  out[o]! += s00;
  out[o + ok]! += s01;
  out[o + 2 * ok]! += s02;
  out[o + 3 * ok]! += s03;
  out[o1]! += s10;
  out[o1 + ok]! += s11;
  out[o1 + 2 * ok]! += s12;
  out[o1 + 3 * ok]! += s13;
  out[o2]! += s20;
  out[o2 + ok]! += s21;
  out[o2 + 2 * ok]! += s22;
  out[o2 + 3 * ok]! += s23;
  out[o3]! += s30;
  out[o3 + ok]! += s31;
  out[o3 + 2 * ok]! += s32;
  out[o3 + 3 * ok]! += s33;
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

function project(
  data: Float32Array,
  n: number,
  d: number,
  mean: Float64Array,
  directions: Float64Array,
  k: number,
): Float32Array {
  const out = new Float32Array(n * k);
  const offsets = new Float64Array(k); // mean · direction, subtracted instead of centring rows
  for (let c = 0; c < k; c++) {
    for (let j = 0; j < d; j++) offsets[c]! += mean[j]! * directions[c * d + j]!;
  }
  for (let i = 0, base = 0; i < n; i++, base += d) {
    // Two components a pass, so each value read serves both (k = 2 is the common case).
    let c = 0;
    for (; c + 1 < k; c += 2) {
      const o0 = c * d;
      const o1 = o0 + d;
      let s0 = 0;
      let s1 = 0;
      for (let j = 0; j < d; j++) {
        const value = data[base + j]!;
        s0 += value * directions[o0 + j]!;
        s1 += value * directions[o1 + j]!;
      }
      out[i * k + c] = s0 - offsets[c]!;
      out[i * k + c + 1] = s1 - offsets[c + 1]!;
    }
    if (c < k) {
      const o = c * d;
      let s = 0;
      for (let j = 0; j < d; j++) s += data[base + j]! * directions[o + j]!;
      out[i * k + c] = s - offsets[c]!;
    }
  }
  return out;
}

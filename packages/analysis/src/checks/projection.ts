// Rows of a feature projected to a few dimensions for approximate neighbour searches in the
// health checks (docs/health-checks.md, "Outliers", "Label quality"): unit rows on their top
// principal directions, fitted on a sample, plus the length the projection leaves out.
import { pca } from '../embeddings/pca.js';
import type { createRandom } from '../random.js';

/** Rows the principal directions are fitted on (a sample of the groups' rows). */
const PCA_SAMPLE_ROWS = 20_000;

/** Rows of the approximate search: c coordinates per input row (only the large groups' rows). */
export interface Projection {
  c: number;
  /** n × c, row-major; zeros for rows outside the large groups. */
  data: Float32Array;
  /** The principal directions (c − 1 rows of d) and the mean they were fitted with; none when d < c. */
  fit?: ProjectionFit;
}

export interface ProjectionFit {
  mean: Float32Array;
  directions: Float32Array;
}

/**
 * Rows `rows` of `vectors` projected as projectUnitRows does with `fit` (null: d < c, the unit
 * rows padded), into `out` at `at(x)` (the x-th row's slot).
 */
export function projectRowsWith(
  vectors: Float32Array,
  d: number,
  rows: ArrayLike<number>,
  c: number,
  fit: ProjectionFit | null,
  out: Float32Array,
  at: (x: number) => number,
): void {
  const unit = new Float64Array(d);
  for (let x = 0; x < rows.length; x++) {
    const row = rows[x]!;
    const o = at(x) * c;
    let norm = 0;
    for (let j = 0; j < d; j++) norm += vectors[row * d + j]! * vectors[row * d + j]!;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let j = 0; j < d; j++) unit[j] = vectors[row * d + j]! * scale;
    if (!fit) {
      for (let j = 0; j < d; j++) out[o + j] = unit[j]!;
      continue;
    }
    const { mean, directions } = fit;
    const components = c - 1;
    let length = 0;
    for (let j = 0; j < d; j++) {
      unit[j] = unit[j]! - mean[j]!;
      length += unit[j]! * unit[j]!;
    }
    let kept = 0;
    for (let p = 0; p < components; p++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += unit[j]! * directions[p * d + j]!;
      out[o + p] = s;
      kept += s * s;
    }
    out[o + components] = Math.sqrt(Math.max(0, length - kept));
  }
}

/**
 * Unit-length rows projected on their top c − 1 principal directions (fitted on a sample), plus
 * the length of what the projection leaves out as a last coordinate. Half the squared euclidean
 * distance between two projected rows is then at most their cosine distance, and close to it:
 * the left-out parts enter by their lengths' difference, so an item unlike any principal
 * direction still lands far from the others.
 */
export function projectUnitRows(
  vectors: Float32Array,
  d: number,
  groups: Int32Array[],
  c: number,
  random: ReturnType<typeof createRandom>,
): Projection {
  const n = vectors.length / d;
  const data = new Float32Array(n * c);
  const unit = new Float64Array(d);
  const unitRow = (row: number): void => {
    let norm = 0;
    for (let j = 0; j < d; j++) norm += vectors[row * d + j]! * vectors[row * d + j]!;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let j = 0; j < d; j++) unit[j] = vectors[row * d + j]! * scale;
  };
  if (d < c) {
    // Few dimensions: the unit rows themselves (padded), so distances are exact.
    for (const rows of groups) {
      for (const row of rows) {
        unitRow(row);
        for (let j = 0; j < d; j++) data[row * c + j] = unit[j]!;
      }
    }
    return { c, data };
  }
  const total = groups.reduce((sum, rows) => sum + rows.length, 0);
  const sampleSize = Math.min(total, PCA_SAMPLE_ROWS);
  const sample = new Float32Array(sampleSize * d);
  // Reservoir-free sampling: each row joins with probability sampleSize / total, topped up in order.
  let taken = 0;
  let seen = 0;
  for (const rows of groups) {
    for (const row of rows) {
      const remaining = total - seen++;
      if (random.next() * remaining < sampleSize - taken) {
        unitRow(row);
        for (let j = 0; j < d; j++) sample[taken * d + j] = unit[j]!;
        taken++;
      }
    }
  }
  const components = c - 1;
  const fitted = pca(sample, sampleSize, d, { components, seed: 1 });
  const fit = { mean: fitted.mean, directions: fitted.components };
  for (const rows of groups) projectRowsWith(vectors, d, rows, c, fit, data, (x) => rows[x]!);
  return { c, data, fit };
}

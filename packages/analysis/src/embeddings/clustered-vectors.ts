// Seeded synthetic feature vectors (Gaussian clusters plus noise dimensions) for the layout tests
// and benchmarks: data whose neighbourhoods a good 2-D layout should keep.

import { createRandom } from '../random.js';

export interface ClusteredVectorsOptions {
  n: number;
  /** Total dimension (default 64). */
  dimension?: number;
  /** Number of clusters (default 30). */
  clusters?: number;
  /** Trailing dimensions that are pure noise, the same for every cluster (default 16). */
  noiseDimensions?: number;
  seed?: number;
}

export interface ClusteredVectors {
  /** Row-major (n, dimension). */
  data: Float32Array;
  dimension: number;
  /** Cluster of each row. */
  labels: Int32Array;
}

/**
 * Cluster centres ~ N(0, 4²) in the signal dimensions; each cluster has its own spread, uniform
 * in [0.5, 2], and its own size (weights uniform in [0.5, 1.5]); noise dimensions ~ N(0, 0.5²).
 * Rows are shuffled so cluster members are not contiguous.
 */
export function clusteredVectors(options: ClusteredVectorsOptions): ClusteredVectors {
  const { n, dimension = 64, clusters = 30, noiseDimensions = 16, seed = 1 } = options;
  const signal = dimension - noiseDimensions;
  if (signal < 1) throw new RangeError('clusteredVectors needs at least one signal dimension');
  const random = createRandom(seed);
  const centres = new Float64Array(clusters * signal);
  for (let i = 0; i < centres.length; i++) centres[i] = 4 * random.normal();
  const spreads = new Float64Array(clusters);
  const weights = new Float64Array(clusters);
  let total = 0;
  for (let c = 0; c < clusters; c++) {
    spreads[c] = 0.5 + 1.5 * random.next();
    weights[c] = 0.5 + random.next();
    total += weights[c]!;
  }
  const labels = new Int32Array(n);
  let row = 0;
  for (let c = 0; c < clusters; c++) {
    const size = c === clusters - 1 ? n - row : Math.round((n * weights[c]!) / total);
    for (let t = 0; t < size && row < n; t++) labels[row++] = c;
  }
  for (; row < n; row++) labels[row] = clusters - 1;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    const t = labels[i]!;
    labels[i] = labels[j]!;
    labels[j] = t;
  }
  const data = new Float32Array(n * dimension);
  for (let i = 0; i < n; i++) {
    const c = labels[i]!;
    for (let j = 0; j < signal; j++) {
      data[i * dimension + j] = centres[c * signal + j]! + spreads[c]! * random.normal();
    }
    for (let j = signal; j < dimension; j++) data[i * dimension + j] = 0.5 * random.normal();
  }
  return { data, dimension, labels };
}

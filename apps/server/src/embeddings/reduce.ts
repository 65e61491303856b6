// 2-D layouts of feature vectors for the scatter plot: the chosen method's call into
// @loupe/analysis, with the parameter checks that depend on the number of points.
import type { DimensionalityReductionSetting } from '@loupe/contracts';
import { pca, tsne, umap } from '@loupe/analysis';

/** Same inputs, same picture: layouts are seeded. */
const SEED = 42;

/** The stored layout's key part for a method and its parameters. */
export function methodKey(setting: DimensionalityReductionSetting): string {
  if (setting.method === 'UMAP') return `UMAP:${setting.num_neighbors}`;
  if (setting.method === 'TSNE') return `TSNE:${setting.perplexity}`;
  return 'PCA';
}

/** A layout that cannot be computed from these inputs; retrying would not help. */
export class ReductionRefused extends Error {}

/**
 * n · 2 coordinates (row-major) for n vectors of `dimension` values. Small n that a method
 * cannot handle get a trivial layout (UMAP's neighbourhood shrinks to n − 1); t-SNE refuses a
 * perplexity that is not below the number of points, like its reference implementation.
 */
export function reduceTo2d(
  data: Float32Array,
  dimension: number,
  setting: DimensionalityReductionSetting,
  onProgress: (fraction: number) => void = () => {},
): Float32Array {
  const n = data.length / dimension;
  if (n <= 2) {
    // One or two points: nothing to reduce; put them apart on a line.
    const out = new Float32Array(n * 2);
    if (n === 2) out[2] = 1;
    return out;
  }
  if (setting.method === 'PCA') {
    const result = pca(data, n, dimension, { components: Math.min(2, dimension), seed: SEED });
    onProgress(1);
    if (dimension >= 2) return result.projection;
    const out = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) out[i * 2] = result.projection[i]!;
    return out;
  }
  if (setting.method === 'TSNE') {
    if (setting.perplexity >= n)
      throw new ReductionRefused(
        `t-SNE with perplexity ${setting.perplexity} needs more than ${setting.perplexity} points; this feature has ${n}.`,
      );
    return tsne(data, dimension, { perplexity: setting.perplexity, seed: SEED, onProgress })
      .coordinates;
  }
  return umap(data, dimension, {
    numNeighbors: Math.min(setting.num_neighbors, n - 1),
    metric: 'cosine',
    seed: SEED,
    onProgress,
  }).coordinates;
}

// The layout adapter's edge cases: tiny feature sets, 1-D vectors and parameters that depend on
// the number of points.
import { describe, expect, it } from 'vitest';
import { methodKey, reduceTo2d, ReductionRefused } from './reduce.js';

describe('reduceTo2d', () => {
  it('places one or two points without running a method', () => {
    expect(Array.from(reduceTo2d(new Float32Array([1, 2, 3]), 3, { method: 'PCA' }))).toEqual([
      0, 0,
    ]);
    expect(
      Array.from(
        reduceTo2d(new Float32Array([1, 2, 3, 4]), 2, { method: 'UMAP', num_neighbors: 15 }),
      ),
    ).toEqual([0, 0, 1, 0]);
  });

  it('lays out 1-D vectors on the x axis with PCA', () => {
    const coords = reduceTo2d(new Float32Array([0, 1, 2, 3]), 1, { method: 'PCA' });
    const xs = [0, 1, 2, 3].map((i) => coords[i * 2]!);
    const sign = Math.sign(xs[3]!);
    xs.forEach((x, i) => expect(x * sign).toBeCloseTo(i - 1.5, 5));
    [0, 1, 2, 3].forEach((i) => expect(coords[i * 2 + 1]).toBe(0));
  });

  it('shrinks the UMAP neighbourhood to the points there are', () => {
    const data = new Float32Array(Array.from({ length: 6 * 3 }, (_, i) => Math.sin(i * 1.7)));
    const coords = reduceTo2d(data, 3, { method: 'UMAP', num_neighbors: 15 });
    expect(coords).toHaveLength(12);
    expect(Array.from(coords).every(Number.isFinite)).toBe(true);
  });

  it('refuses a t-SNE perplexity that is not below the number of points', () => {
    const data = new Float32Array(Array.from({ length: 10 * 2 }, (_, i) => Math.cos(i)));
    expect(() => reduceTo2d(data, 2, { method: 'TSNE', perplexity: 10 })).toThrow(ReductionRefused);
  });

  it('names each method with its parameters', () => {
    expect(methodKey({ method: 'UMAP', num_neighbors: 15 })).toBe('UMAP:15');
    expect(methodKey({ method: 'TSNE', perplexity: 30 })).toBe('TSNE:30');
    expect(methodKey({ method: 'PCA' })).toBe('PCA');
  });
});

import { describe, expect, it } from 'vitest';
import { heatmapPixels, jet } from './heatmap-image.js';

describe('jet', () => {
  it('runs dark blue, blue, cyan, yellow, red, dark red at its stops', () => {
    expect([0, 0.125, 0.375, 0.625, 0.875, 1].map(jet)).toEqual([
      [0, 0, 128],
      [0, 0, 255],
      [0, 255, 255],
      [255, 255, 0],
      [255, 0, 0],
      [128, 0, 0],
    ]);
    expect(jet(-1)).toEqual(jet(0));
    expect(jet(2)).toEqual(jet(1));
  });
});

describe('heatmapPixels', () => {
  const pixel = (rgba: Uint8Array, i: number) => [...rgba.subarray(i * 4, i * 4 + 4)];

  it('scales from the minimum to the maximum; non-finite values and short rows are transparent', () => {
    const { width, height, rgba } = heatmapPixels([[-2, 2, Number.NaN], [0]]);
    expect([width, height]).toEqual([3, 2]);
    expect(pixel(rgba, 0)).toEqual([...jet(0), 255]);
    expect(pixel(rgba, 1)).toEqual([...jet(1), 255]);
    expect(pixel(rgba, 2)).toEqual([0, 0, 0, 0]);
    expect(pixel(rgba, 3)).toEqual([...jet(0.5), 255]);
    expect(pixel(rgba, 4)).toEqual([0, 0, 0, 0]);
  });

  it('draws a constant grid at the bottom of the scale and an empty one as one clear pixel', () => {
    expect(pixel(heatmapPixels([[3, 3]]).rgba, 1)).toEqual([...jet(0), 255]);
    const empty = heatmapPixels([]);
    expect([empty.width, empty.height, ...empty.rgba]).toEqual([1, 1, 0, 0, 0, 0]);
  });
});

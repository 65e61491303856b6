import { describe, expect, it } from 'vitest';
import {
  labelMapClasses,
  labelMapPalette,
  paintLabelMap,
  parseRgb,
  type LabelMapPixels,
} from './labelMap';

// A 4 × 3 label map: background (0), road (1) on the left, car (2) on the right, one unnamed 7.
const pixels: LabelMapPixels = {
  width: 4,
  height: 3,
  values: Uint8Array.from([1, 1, 2, 2, 1, 1, 2, 2, 0, 0, 0, 7]),
};
const labelMap = { '0': 'background', '1': 'road', '2': 'car' };
const colours: Record<string, string> = { road: '#808080', car: '#ff0000' };
const colorOf = (name: string) => colours[name]!;

/** The value under each painted pixel, '.' where nothing is painted. */
function paintedValues(data: Uint8ClampedArray): string {
  let out = '';
  for (let i = 0; i < pixels.values.length; i++)
    out += data[i * 4 + 3] === 255 ? String(pixels.values[i]) : '.';
  return out;
}

describe('label map overlays', () => {
  it('lists the drawn classes with their share of the picture, without background or unnamed values', () => {
    expect(Object.fromEntries(labelMapClasses(pixels, labelMap))).toEqual({
      road: 4 / 12,
      car: 4 / 12,
    });
  });

  it('paints every named class in its colour and leaves the rest clear', () => {
    const { data, painted } = paintLabelMap(pixels, labelMapPalette(labelMap, colorOf, new Set()));
    expect(paintedValues(data)).toBe('11221122....');
    expect(painted).toBe(8);
    expect(Array.from(data.slice(8, 12))).toEqual([255, 0, 0, 255]); // (2, 0) is a car
  });

  it('hiding a class removes its pixels and only its pixels', () => {
    const palette = labelMapPalette(labelMap, colorOf, new Set(['car']));
    expect([...palette.keys()]).toEqual([1]);
    const { data, painted } = paintLabelMap(pixels, palette);
    expect(paintedValues(data)).toBe('11..11......');
    expect(painted).toBe(4);
    // Hiding every class leaves nothing drawn.
    const none = paintLabelMap(
      pixels,
      labelMapPalette(labelMap, colorOf, new Set(['car', 'road'])),
    );
    expect(none.painted).toBe(0);
  });

  it('as an outline, paints only the band along each region’s edge', () => {
    const big: LabelMapPixels = { width: 5, height: 5, values: new Uint8Array(25).fill(1) };
    const palette = new Map([[1, [1, 2, 3] as const]]);
    const { data, painted } = paintLabelMap(big, palette, { outline: 1, fillAlpha: 0 });
    // One region filling the picture: its edge is the picture's, so the outer ring is painted
    // and the inner 3 × 3 stays clear.
    expect(painted).toBe(16);
    expect(data[(2 * 5 + 2) * 4 + 3]).toBe(0);
    expect(data[(1 * 5 + 1) * 4 + 3]).toBe(0);
    expect(data[(0 * 5 + 2) * 4 + 3]).toBe(255);
    // Filled too: the inside at the fill's opacity, the edge opaque.
    const both = paintLabelMap(big, palette, { outline: 1, fillAlpha: 0.5 });
    expect(both.painted).toBe(25);
    expect(both.data[(2 * 5 + 2) * 4 + 3]).toBe(128);
    expect(both.data[(0 * 5 + 2) * 4 + 3]).toBe(255);
  });

  it('reads hex and rgb() colours, and leaves other forms to the caller', () => {
    expect(parseRgb('#ff8000')).toEqual([255, 128, 0]);
    expect(parseRgb('#f80')).toEqual([255, 136, 0]);
    expect(parseRgb('rgb(1, 2, 3)')).toEqual([1, 2, 3]);
    expect(parseRgb('rgba(10 20 30 / 0.5)')).toEqual([10, 20, 30]);
    expect(parseRgb('hsl(10, 50%, 50%)')).toBeNull();
    expect(parseRgb('tomato')).toBeNull();
  });
});

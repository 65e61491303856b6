import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { categoricalColor, categoricalColorMap, hslToHex } from './palette.js';

function rgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}
const distance = (a: string, b: string) => {
  const [x, y] = [rgb(a), rgb(b)];
  return Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
};

describe('categorical palette', () => {
  it('converts HSL like CSS does', () => {
    expect(hslToHex(0, 1, 0.5)).toBe('#ff0000');
    expect(hslToHex(120, 1, 0.5)).toBe('#00ff00');
    expect(hslToHex(240, 1, 0.25)).toBe('#000080');
    expect(hslToHex(0, 0, 1)).toBe('#ffffff');
    expect(hslToHex(60, 1, 0.5)).toBe('#ffff00');
  });

  it('gives 300 classes 300 different colours, neighbours clearly apart', () => {
    const colors = Array.from({ length: 300 }, (_, i) => categoricalColor(i));
    expect(new Set(colors).size).toBe(300);
    for (const color of colors) expect(color).toMatch(/^#[0-9a-f]{6}$/);
    // Consecutive classes (often shown side by side) differ by a visible amount.
    for (let i = 1; i < colors.length; i++)
      expect(distance(colors[i - 1]!, colors[i]!), `${i}`).toBeGreaterThan(60);
    // The first ten are pairwise distinct enough to tell apart on a chart.
    for (let i = 0; i < 10; i++)
      for (let j = i + 1; j < 10; j++) expect(distance(colors[i]!, colors[j]!)).toBeGreaterThan(40);
  });

  it('maps labels in order, first occurrence wins, any index gives a colour', () => {
    fc.assert(fc.property(fc.nat(1_000_000), (i) => /^#[0-9a-f]{6}$/.test(categoricalColor(i))));
    expect(categoricalColorMap(['cat', 'dog', 'cat'])).toEqual({
      cat: categoricalColor(0),
      dog: categoricalColor(1),
    });
    expect(() => categoricalColor(-1)).toThrow(RangeError);
  });
});

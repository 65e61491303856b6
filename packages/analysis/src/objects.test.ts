import { describe, expect, it } from 'vitest';
import { boxStatistics, countObjectsByLabel } from './objects.js';

describe('boxStatistics', () => {
  it('gives area, relative area and aspect ratio of a box inside the image', () => {
    expect(boxStatistics([10, 20, 40, 20], 100, 50)).toEqual({
      area: 800,
      relative_area: 800 / 5000,
      aspect_ratio: 2,
    });
  });

  it('counts only the part inside the image, but the aspect ratio of the box as drawn', () => {
    // [−10, 90) × [40, 60) clipped to 100×50 → [0, 90) × [40, 50) = 900 px.
    expect(boxStatistics([-10, 40, 100, 20], 100, 50)).toEqual({
      area: 900,
      relative_area: 900 / 5000,
      aspect_ratio: 5,
    });
    expect(boxStatistics([200, 0, 10, 10], 100, 50).area).toBe(0);
    expect(boxStatistics([0, 0, 100, 50], 100, 50).relative_area).toBe(1);
  });

  it('has no aspect ratio for a zero-height box and rejects invalid boxes', () => {
    expect(boxStatistics([1, 1, 5, 0], 10, 10)).toEqual({
      area: 0,
      relative_area: 0,
      aspect_ratio: null,
    });
    expect(() => boxStatistics([0, 0, -1, 2], 10, 10)).toThrow(/negative size/);
    expect(() => boxStatistics([0, 0, 1], 10, 10)).toThrow(/four finite numbers/);
    expect(() => boxStatistics([0, 0, 1, Number.NaN], 10, 10)).toThrow(/four finite numbers/);
    expect(() => boxStatistics([0, 0, 1, 1], 0, 10)).toThrow(/Image size/);
  });
});

describe('countObjectsByLabel', () => {
  it('counts each label, sorted, with the total', () => {
    const counts = countObjectsByLabel(['dog', 'cat', 'dog', 'bird', 'dog']);
    expect(counts).toEqual({ total: 5, by_label: { bird: 1, cat: 1, dog: 3 } });
    expect(Object.keys(counts.by_label)).toEqual(['bird', 'cat', 'dog']);
    expect(countObjectsByLabel([])).toEqual({ total: 0, by_label: {} });
  });

  it('keeps labels that look like object internals as ordinary counts', () => {
    const { by_label } = countObjectsByLabel(['__proto__', 'constructor', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(by_label, '__proto__')?.value).toBe(2);
    expect(by_label.constructor).toBe(1);
  });
});

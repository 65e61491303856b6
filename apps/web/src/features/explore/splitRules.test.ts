import fc from 'fast-check';
import { expect, test } from 'vitest';
import { SPLIT_DEFAULT, SPLIT_MAX, SPLIT_MIN, clampSplit, splitAt } from './splitRules';

test('dragging follows the pointer inside 33–66 percent and stops at the limits', () => {
  const box = { left: 100, width: 1000 };
  expect(splitAt(600, box)).toBe(50);
  expect(splitAt(500, box)).toBe(40);
  expect(splitAt(200, box)).toBe(33);
  expect(splitAt(-50, box)).toBe(33);
  expect(splitAt(900, box)).toBe(66);
  expect(splitAt(5000, box)).toBe(66);
});

test('a box without width and a non-number fall back to the default', () => {
  expect(splitAt(10, { left: 0, width: 0 })).toBe(SPLIT_DEFAULT);
  expect(clampSplit(Number.NaN)).toBe(50);
});

test('the share is always within the limits', () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true }), (percent) => {
      const clamped = clampSplit(percent);
      expect(clamped).toBeGreaterThanOrEqual(SPLIT_MIN);
      expect(clamped).toBeLessThanOrEqual(SPLIT_MAX);
      if (percent >= SPLIT_MIN && percent <= SPLIT_MAX) expect(clamped).toBe(percent);
    }),
  );
});

import { expect, test } from 'vitest';
import { selectionPreview } from './selectionPreview';

test.each([
  // length, shown, more
  [0, 0, 0],
  [1, 1, 0],
  [3, 3, 0],
  [4, 4, 0],
  [5, 3, 2],
  [7, 3, 4],
  [8, 8, 0],
  [10, 7, 3],
  [12, 12, 0],
  [15, 11, 4],
  [16, 16, 0],
  [17, 15, 2],
  [1000, 15, 985],
])('%i selected: %i thumbnails and +%i', (length, shown, more) => {
  expect(selectionPreview(length)).toEqual({ shown, more });
});

test('thumbnails plus the indicator never exceed 16 slots and account for every item', () => {
  for (let length = 0; length <= 200; length++) {
    const { shown, more } = selectionPreview(length);
    expect(shown + more).toBe(length);
    expect(shown + (more > 0 ? 1 : 0)).toBeLessThanOrEqual(16);
    if (more > 0) expect((shown + 1) % 4).toBe(0);
  }
});

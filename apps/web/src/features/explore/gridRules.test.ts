import { describe, expect, test } from 'vitest';
import { EMPTY_SELECTION, batchesFor, clampCardWidth, clickSelect, columnsFor } from './gridRules';

describe('grid geometry', () => {
  test('columns = floor(width / card width), at least one, card width never below 120', () => {
    expect(columnsFor(1000, 192)).toBe(5);
    expect(columnsFor(100, 192)).toBe(1);
    expect(columnsFor(0, 192)).toBe(1);
    expect(columnsFor(1000, 60)).toBe(8);
    expect(clampCardWidth(50)).toBe(120);
    expect(clampCardWidth(Number.NaN)).toBe(192);
  });
  test('visible positions are fetched in aligned batches of 120', () => {
    expect(batchesFor(0, 50, 1000)).toEqual([0]);
    expect(batchesFor(100, 250, 1000)).toEqual([0, 120, 240]);
    expect(batchesFor(950, 2000, 1000)).toEqual([840, 960]);
    expect(batchesFor(0, 10, 0)).toEqual([]);
  });
});

describe('selection', () => {
  const rows = new Uint32Array([40, 41, 42, 43, 44, 45]);
  test('a click toggles an item', () => {
    const once = clickSelect(EMPTY_SELECTION, rows, 2, false);
    expect([...once.rows]).toEqual([42]);
    expect([...clickSelect(once, rows, 2, false).rows]).toEqual([]);
  });
  test('Shift+click selects the range between the last clicked and the current, either way', () => {
    const first = clickSelect(EMPTY_SELECTION, rows, 1, false);
    expect([...clickSelect(first, rows, 4, true).rows].sort()).toEqual([41, 42, 43, 44]);
    const fromEnd = clickSelect(EMPTY_SELECTION, rows, 5, false);
    expect([...clickSelect(fromEnd, rows, 3, true).rows].sort()).toEqual([43, 44, 45]);
  });
  test('Shift+click without a previous click toggles just that item', () => {
    expect([...clickSelect(EMPTY_SELECTION, rows, 3, true).rows]).toEqual([43]);
  });
});

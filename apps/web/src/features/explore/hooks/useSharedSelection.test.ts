// The selection shared by grid and map: a lasso's rows count only for the grid's table version,
// and lock the data level while they stand.
import { act, renderHook } from '@testing-library/react';
import { expect, test } from 'vitest';
import { exploreStrings as strings } from '../strings';
import { useSharedSelection } from './useSharedSelection';

const rows = new Uint32Array([10, 11, 12]);

test("a lasso selects rows of the grid's table version and locks the level until cleared", () => {
  const view = renderHook(() =>
    useSharedSelection({ rows, version: 3, dataLevel: 'image', subsetId: null }),
  );
  act(() => view.result.current.onMapSelection([11, 12], 2));
  expect(view.result.current.selection.rows.size).toBe(0);
  expect(view.result.current.levelLock).toBeUndefined();

  act(() => view.result.current.onMapSelection([11, 12], 3));
  expect([...view.result.current.selection.rows]).toEqual([11, 12]);
  expect(view.result.current.levelLock).toBe(strings.levelLockedByMap);

  // A click in the grid makes the selection the grid's again: the level is free.
  act(() => view.result.current.select(0, false));
  expect(view.result.current.levelLock).toBeUndefined();
  act(() => view.result.current.clear());
  expect(view.result.current.selection.rows.size).toBe(0);
});

test('a subset locks the level whatever the selection', () => {
  const view = renderHook(() =>
    useSharedSelection({ rows, version: 3, dataLevel: 'image', subsetId: 's1' }),
  );
  expect(view.result.current.levelLock).toBe(strings.levelLockedBySubset);
});

test('select all takes every row of the result, as a grid selection', () => {
  const view = renderHook(() =>
    useSharedSelection({ rows, version: 3, dataLevel: 'image', subsetId: null }),
  );
  act(() => view.result.current.onMapSelection([11], 3));
  act(() => view.result.current.selectAll());
  expect([...view.result.current.selection.rows]).toEqual([10, 11, 12]);
  expect(view.result.current.levelLock).toBeUndefined();
});

// The selection between the map and its owner, in item-table rows of one version.
import { act, renderHook } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { DecodedPoints } from '../points';
import { useMapSelection } from './useMapSelection';

const parsed: DecodedPoints = {
  rows: new Uint32Array([40, 41, 42, 43]),
  version: 5,
  x: new Float32Array(4),
  y: new Float32Array(4),
  colors: null,
};

test("the owner's rows are drawn selected only when the tables agree", () => {
  const onSelectionChange = vi.fn();
  const view = renderHook(
    (props: { tableVersion?: number }) =>
      useMapSelection({
        parsed,
        selectedRows: new Set([41, 43, 99]),
        tableVersion: props.tableVersion,
        onSelectionChange,
      }),
    { initialProps: { tableVersion: 5 } },
  );
  expect(view.result.current.selectedIndices).toEqual([1, 3]);
  expect(view.result.current.selectedList).toEqual([41, 43]);
  view.rerender({ tableVersion: 6 });
  expect(view.result.current.selectedIndices).toEqual([]);
});

test("a lasso reports its points' rows and version; clearing reports none", () => {
  const onSelectionChange = vi.fn();
  const view = renderHook(() =>
    useMapSelection({ parsed, selectedRows: new Set(), tableVersion: 5, onSelectionChange }),
  );
  act(() => view.result.current.onLasso([0, 2]));
  expect(onSelectionChange).toHaveBeenLastCalledWith([40, 42], 5);
  act(() => view.result.current.onDeselect());
  expect(onSelectionChange).toHaveBeenLastCalledWith([], 5);
});

// The explorer's selection (docs/product.md, Datasets §4), as rows of the item table: click toggles,
// Shift+click selects a range, Ctrl/Cmd+A selects the whole result, a lasso on the map replaces
// it. It is cleared on demand (Escape too), when the data level changes and when the item table
// changes (rows are only meaningful within one table version). `source` says whether the map
// made it: the data level is then locked (§5).
import { useCallback, useEffect, useState } from 'react';
import { EMPTY_SELECTION, clickSelect, type Selection } from '../gridRules';

export type SelectionSource = 'grid' | 'map';

export function useSelection(rows: Uint32Array | undefined, resetKey: unknown) {
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [source, setSource] = useState<SelectionSource>('grid');
  useEffect(() => setSelection(EMPTY_SELECTION), [resetKey]);
  const select = useCallback(
    (position: number, shift: boolean) => {
      setSource('grid');
      setSelection((current) => (rows ? clickSelect(current, rows, position, shift) : current));
    },
    [rows],
  );
  const replace = useCallback((next: Iterable<number>, from: SelectionSource) => {
    setSource(from);
    setSelection({ rows: new Set(next), anchor: null });
  }, []);
  const clear = useCallback(() => setSelection(EMPTY_SELECTION), []);
  /** Every row of the result (Ctrl/Cmd+A). */
  const selectAll = useCallback(() => {
    if (!rows) return;
    setSource('grid');
    setSelection({ rows: new Set(rows), anchor: null });
  }, [rows]);
  return { selection, source, select, replace, clear, selectAll };
}

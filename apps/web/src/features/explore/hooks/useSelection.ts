// The grid's selection (dataset-side.md §4): click toggles, Shift+click selects a range; it is
// cleared on demand, when the data level changes and when the item table changes (rows are only
// meaningful within one table version).
import { useCallback, useEffect, useState } from 'react';
import { EMPTY_SELECTION, clickSelect, type Selection } from '../gridRules';

export function useSelection(rows: Uint32Array | undefined, resetKey: unknown) {
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  useEffect(() => setSelection(EMPTY_SELECTION), [resetKey]);
  const select = useCallback(
    (position: number, shift: boolean) =>
      setSelection((current) => (rows ? clickSelect(current, rows, position, shift) : current)),
    [rows],
  );
  const clear = useCallback(() => setSelection(EMPTY_SELECTION), []);
  return { selection, select, clear };
}

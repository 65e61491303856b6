// The subset page's selection of item ids: click toggles, Shift+click adds the range from the
// last click; cleared on demand and when the subset's items change.
import { useCallback, useEffect, useState } from 'react';
import { NO_SELECTION, clickSelect, type IdSelection } from '../subsetRules';

export function useItemSelection(itemIds: readonly string[]) {
  const [selection, setSelection] = useState<IdSelection>(NO_SELECTION);
  useEffect(() => setSelection(NO_SELECTION), [itemIds]);
  const select = useCallback(
    (position: number, shift: boolean) =>
      setSelection((current) => clickSelect(current, itemIds, position, shift)),
    [itemIds],
  );
  const clear = useCallback(() => setSelection(NO_SELECTION), []);
  return { selection, select, clear };
}

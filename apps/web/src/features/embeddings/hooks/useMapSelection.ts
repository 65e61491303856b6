// The selection between the map and its owner, in rows of the item table: the owner's selected
// rows as point indices to draw (none when the tables differ), a lasso's points as rows, and
// clearing (double click, Escape, Clear).
import { useCallback, useMemo } from 'react';
import type { DecodedPoints } from '../points';

export function useMapSelection(args: {
  parsed: DecodedPoints | null;
  /** The owner's selection, as rows of the table of `tableVersion`. */
  selectedRows: ReadonlySet<number>;
  tableVersion?: number;
  onSelectionChange(rows: number[], version: number): void;
}) {
  const { parsed, selectedRows, tableVersion, onSelectionChange } = args;
  // The owner's selected rows among the points; rows of another table version mean nothing here.
  const selectedIndices = useMemo(() => {
    const out: number[] = [];
    if (!parsed || selectedRows.size === 0) return out;
    if (tableVersion !== undefined && tableVersion !== parsed.version) return out;
    const { rows } = parsed;
    for (let i = 0; i < rows.length; i++) if (selectedRows.has(rows[i]!)) out.push(i);
    return out;
  }, [selectedRows, tableVersion, parsed]);
  const selectedList = useMemo(
    () => (parsed ? selectedIndices.map((i) => parsed.rows[i]!) : []),
    [selectedIndices, parsed],
  );
  const onLasso = useCallback(
    (indices: number[]) => {
      if (!parsed) return;
      onSelectionChange(
        indices.map((i) => parsed.rows[i]!),
        parsed.version,
      );
    },
    [parsed, onSelectionChange],
  );
  const onDeselect = useCallback(
    () => onSelectionChange([], parsed?.version ?? tableVersion ?? 0),
    [onSelectionChange, parsed, tableVersion],
  );
  return { selectedIndices, selectedList, onLasso, onDeselect };
}

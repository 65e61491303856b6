// Which item the viewer shows: the URL names it by id (?item=); its position in the result is
// known when it was opened from the grid, else looked up by fetching the item (it carries its
// row) and finding that row in the result.
import type { DataLevel, ExploreComparison } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { itemsQuery } from '../../../api/queries/explore';

export function useOpenItemPosition(args: {
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  comparison?: ExploreComparison;
  itemId: string | null;
  rows: Uint32Array | undefined;
  /** The position the grid or the viewer last reported for an item id. */
  known: { id: string | null; position: number } | null;
}): number | null {
  const { datasetId, dataLevel, predictionsId, comparison, itemId, rows, known } = args;
  const knownHere = known !== null && (known.id === itemId || known.id === null) && itemId !== null;
  const lookup = useQuery({
    ...itemsQuery(datasetId, {
      data_level: dataLevel,
      item_ids: itemId === null ? [] : [itemId],
      predictions_id: predictionsId,
      ...(comparison ? { comparison } : {}),
    }),
    enabled: itemId !== null && !knownHere,
  });
  const row = lookup.data?.items[0]?.row;
  return useMemo(() => {
    if (itemId === null || !rows) return null;
    if (knownHere) return known.position;
    if (row === undefined) return null;
    const position = rows.indexOf(row);
    return position < 0 ? null : position;
  }, [itemId, rows, knownHere, known, row]);
}

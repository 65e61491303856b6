// The selected items for the curation actions (see selectionItems.ts), loaded when a selection
// stands; null while loading or when the rows no longer match (the table changed).
import type { DataLevel } from '@loupe/contracts';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ItemRowsQuery } from '../../../api/explore';
import { itemIdsQuery, itemsQuery } from '../../../api/queries/explore';
import type { ActionItem } from '../../curation';
import { pairIdsWithRows } from '../idRows';
import {
  ROWS_PER_ITEMS_CALL,
  actionItem,
  chunks,
  lookUpByIds,
  sampleActionItem,
  selectedInResultOrder,
} from '../selectionItems';

export function useSelectionItems(args: {
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  rows: Uint32Array | undefined;
  version: number | undefined;
  /** The query that produced `rows`. */
  rowsQuery: ItemRowsQuery | undefined;
  selectedRows: ReadonlySet<number>;
}): { items: ActionItem[] | null; error: unknown } {
  const { datasetId, dataLevel, predictionsId, rows, version, rowsQuery, selectedRows } = args;
  const ordered = useMemo(
    () => (rows ? selectedInResultOrder(rows, selectedRows) : []),
    [rows, selectedRows],
  );
  const byIds = lookUpByIds(dataLevel, ordered.length);

  const ids = useQuery({
    ...itemIdsQuery(datasetId, rowsQuery ?? { data_level: dataLevel, sort: [], filter: null }),
    enabled: byIds && rowsQuery !== undefined,
  });
  const batches = useQueries({
    queries:
      byIds || version === undefined
        ? []
        : chunks(ordered, ROWS_PER_ITEMS_CALL).map((chunk) =>
            itemsQuery(datasetId, {
              data_level: dataLevel,
              rows: chunk,
              version,
              predictions_id: predictionsId,
              ...(rowsQuery?.comparison ? { comparison: rowsQuery.comparison } : {}),
            }),
          ),
  });

  const error = byIds ? ids.error : (batches.find((batch) => batch.error)?.error ?? null);
  const loaded = batches.every((batch) => batch.data);
  const stamp = batches.map((batch) => batch.dataUpdatedAt).join(',');
  const items = useMemo((): ActionItem[] | null => {
    if (ordered.length === 0) return [];
    if (byIds) {
      if (!ids.data || !rows) return null;
      const pairs = pairIdsWithRows(rows, ids.data);
      return pairs && ordered.map((row) => sampleActionItem(pairs.idByRow.get(row)!));
    }
    if (!loaded) return null;
    return batches.flatMap((batch) => batch.data!.items.map(actionItem));
    // `batches` is a new array every render; its answers change with `stamp`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ordered, byIds, ids.data, rows, loaded, stamp]);
  return { items, error };
}

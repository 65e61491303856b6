// The subset's items for the visible part of its grid: its item ids cut into aligned batches of
// 120 and asked for by id (the server leaves out ids of items deleted meanwhile), cached by
// TanStack Query.
import type { DataLevel, ExploreItem } from '@loupe/contracts';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ITEMS_BATCH, itemsQuery } from '../../../api/queries/explore';

/** Batch starts (multiples of 120) covering positions [first, last] of `total`. */
export function batchStarts(first: number, last: number, total: number): number[] {
  if (total <= 0 || last < first) return [];
  const lo = Math.max(0, first);
  const hi = Math.min(total - 1, last);
  const starts: number[] = [];
  for (let start = lo - (lo % ITEMS_BATCH); start <= hi; start += ITEMS_BATCH) starts.push(start);
  return starts;
}

export function useSubsetItems(args: {
  datasetId: string;
  dataLevel: DataLevel;
  itemIds: readonly string[];
  starts: number[];
  predictionsId?: string;
}) {
  const { datasetId, dataLevel, itemIds, starts, predictionsId } = args;
  const results = useQueries({
    queries: starts.map((start) =>
      itemsQuery(datasetId, {
        data_level: dataLevel,
        item_ids: itemIds.slice(start, start + ITEMS_BATCH),
        predictions_id: predictionsId,
      }),
    ),
  });
  const loaded = results.filter((result) => result.data).length;
  const error = results.find((result) => result.error)?.error ?? null;
  // Stable identity while the loaded batches are the same, so cards do not re-render needlessly.
  const key = `${starts.join(',')}:${results.map((r) => r.dataUpdatedAt).join(',')}`;
  const items = useMemo(() => {
    const byId = new Map<string, ExploreItem>();
    for (const result of results) result.data?.items.forEach((item) => byId.set(item.id, item));
    return byId;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  /** Ids whose batch answered: an id among them without an item is no longer in the dataset. */
  const answered = useMemo(() => {
    const ids = new Set<string>();
    results.forEach((result, index) => {
      if (!result.data) return;
      const start = starts[index]!;
      for (const id of itemIds.slice(start, start + ITEMS_BATCH)) ids.add(id);
    });
    return ids;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, itemIds]);
  return { items, answered, error, loading: loaded < starts.length };
}

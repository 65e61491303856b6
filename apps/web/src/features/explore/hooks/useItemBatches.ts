// The items of the visible part of the grid, fetched in aligned batches of ≤ 120 rows and cached
// by TanStack Query (`itemBatchQuery`: an answer saying the row indices are stale — 409, the
// item table changed — refetches the rows).
import type { ExploreItem } from '@loupe/contracts';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { itemBatchQuery, type BatchContext } from '../../../api/queries/explore';

export type { BatchContext } from '../../../api/queries/explore';

/** Items by result position for the given batch starts; missing positions are still loading. */
export function useItemBatches(context: BatchContext | null, starts: number[]) {
  const results = useQueries({
    queries: context ? starts.map((start) => itemBatchQuery(context, start)) : [],
  });
  const items = new Map<number, ExploreItem>();
  let error: unknown = null;
  results.forEach((result, index) => {
    if (result.error) error = result.error;
    result.data?.forEach((item, offset) => items.set(starts[index]! + offset, item));
  });
  const loaded = results.filter((result) => result.data).length;
  // Stable identity while the loaded batches are the same, so cards do not re-render needlessly.
  const key = `${starts.join(',')}:${loaded}:${results.map((r) => r.dataUpdatedAt).join(',')}`;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const stable = useMemo(() => items, [key]);
  return { items: stable, error, loading: loaded < starts.length };
}

// The items of the visible part of the grid, fetched in aligned batches of ≤ 120 rows and cached
// by TanStack Query. An answer saying the row indices are stale (409: the item table changed)
// refetches the rows.
import type { DataLevel, ExploreItem } from '@loupe/contracts';
import { useQueries, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ApiError } from '../../../api/ApiError';
import { exploreApi } from '../../../api/explore';
import { queryKeys } from '../../../api/queryKeys';
import { ITEMS_BATCH } from '../gridRules';
import { itemRowsKey, type ItemRowsQuery } from './useItemRows';

export interface BatchContext {
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  rowsQuery: ItemRowsQuery;
  rows: Uint32Array;
  version: number;
}

export function itemBatchOptions(context: BatchContext, start: number, queryClient: QueryClient) {
  const { datasetId, dataLevel, predictionsId, rowsQuery, rows, version } = context;
  return {
    queryKey: queryKeys.explore.items(datasetId, { rowsQuery, version, start }),
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      try {
        const answer = await exploreApi.items(
          datasetId,
          {
            data_level: dataLevel,
            rows: Array.from(rows.subarray(start, start + ITEMS_BATCH)),
            version,
            predictions_id: predictionsId,
          },
          signal,
        );
        return answer.items;
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          void queryClient.invalidateQueries({ queryKey: itemRowsKey(datasetId, rowsQuery) });
        }
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  };
}

/** Items by result position for the given batch starts; missing positions are still loading. */
export function useItemBatches(context: BatchContext | null, starts: number[]) {
  const queryClient = useQueryClient();
  const results = useQueries({
    queries: context ? starts.map((start) => itemBatchOptions(context, start, queryClient)) : [],
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

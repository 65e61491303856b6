// The open item and its neighbours: the window around `index` (10 each side), fetched by row in
// batches of 120 so stepping through a result costs one items call per 120 items.
import type { DataLevel, ExploreComparison, ExploreItem } from '@loupe/contracts';
import { useQueries } from '@tanstack/react-query';
import { itemsQuery } from '../../../api/queries/explore';
import { batchesForWindow, batchRange, BATCH_SIZE, windowRange } from '../lib/viewerWindow';

export interface ViewerItemsInput {
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  /** In a comparison of two models, items carry the other model's prediction too. */
  comparison?: ExploreComparison;
  rows: Uint32Array;
  version: number;
  index: number;
}

export interface ViewerItems {
  /** Item at each result position that is loaded. */
  itemAt(position: number): ExploreItem | undefined;
  window: [number, number];
  current: ExploreItem | undefined;
  currentError: unknown;
  currentLoading: boolean;
}

export function useViewerItems(input: ViewerItemsInput): ViewerItems {
  const { datasetId, dataLevel, predictionsId, comparison, rows, version, index } = input;
  const total = rows.length;
  const batches = batchesForWindow(index, total);
  const results = useQueries({
    queries: batches.map((batch) => {
      const [start, end] = batchRange(batch, total);
      const batchRows = Array.from(rows.subarray(start, end));
      const body = {
        data_level: dataLevel,
        rows: batchRows,
        version,
        predictions_id: predictionsId,
        ...(comparison ? { comparison } : {}),
      };
      // A batch of one table version never changes: cached for as long as the page lives.
      return { ...itemsQuery(datasetId, body), staleTime: Infinity };
    }),
  });

  // At most two batches of 120: indexing them on each render is cheaper than memoising.
  const byBatch = new Map<
    number,
    { items: Map<number, ExploreItem>; error: unknown; loading: boolean }
  >();
  batches.forEach((batch, i) => {
    const result = results[i]!;
    const items = new Map<number, ExploreItem>();
    for (const item of result.data?.items ?? []) items.set(item.row, item);
    byBatch.set(batch, { items, error: result.error, loading: result.isPending });
  });

  const itemAt = (position: number) => {
    if (position < 0 || position >= total) return undefined;
    return byBatch.get(Math.floor(position / BATCH_SIZE))?.items.get(rows[position]!);
  };
  const currentBatch = byBatch.get(Math.floor(index / BATCH_SIZE));
  const current = itemAt(index);
  return {
    itemAt,
    window: windowRange(index, total),
    current,
    currentError: current ? null : (currentBatch?.error ?? null),
    currentLoading: !current && (currentBatch?.loading ?? true),
  };
}

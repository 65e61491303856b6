// Items for previews (hover cards, selection strips, result cards) through the explorer's items call.
import type { DataLevel, ExploreItem } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { exploreApi } from '../explore';
import { queryKeys } from '../queryKeys';

export function useItemPreviews(
  datasetId: string,
  dataLevel: DataLevel,
  itemIds: readonly string[],
  predictionsId?: string,
) {
  const body = { data_level: dataLevel, item_ids: [...itemIds], predictions_id: predictionsId };
  return useQuery({
    queryKey: queryKeys.explore.items(datasetId, body),
    queryFn: async ({ signal }) => {
      const { items } = await exploreApi.items(datasetId, body, signal);
      return new Map<string, ExploreItem>(items.map((item) => [item.id, item]));
    },
    enabled: itemIds.length > 0,
    staleTime: 60_000,
  });
}

/**
 * The same for item-table rows of one table version (the map's points), keyed by row. A version
 * that is no longer current answers 409; the map refetches its points then.
 */
export function useItemPreviewsByRows(
  datasetId: string,
  dataLevel: DataLevel,
  rows: readonly number[],
  version: number,
  predictionsId?: string,
) {
  const body = { data_level: dataLevel, rows: [...rows], version, predictions_id: predictionsId };
  return useQuery({
    queryKey: queryKeys.explore.items(datasetId, body),
    queryFn: async ({ signal }) => {
      const { items } = await exploreApi.items(datasetId, body, signal);
      return new Map<number, ExploreItem>(items.map((item) => [item.row, item]));
    },
    enabled: rows.length > 0,
    staleTime: 60_000,
  });
}

// Items for previews (hover cards, selection strips, result cards) through the explorer's items call.
import type { DataLevel, ExploreItem, ItemsRequest } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { exploreApi } from '../explore';
import { queryKeys } from '../queryKeys';

function useItemsBy<K>(
  datasetId: string,
  body: ItemsRequest,
  count: number,
  keyOf: (item: ExploreItem) => K,
) {
  return useQuery({
    queryKey: queryKeys.explore.items(datasetId, body),
    queryFn: async ({ signal }) => {
      const { items } = await exploreApi.items(datasetId, body, signal);
      return new Map<K, ExploreItem>(items.map((item) => [keyOf(item), item]));
    },
    enabled: count > 0,
    staleTime: 60_000,
  });
}

/** Items by id, keyed by id. */
export function useItemPreviews(
  datasetId: string,
  dataLevel: DataLevel,
  itemIds: readonly string[],
  predictionsId?: string,
) {
  const body = { data_level: dataLevel, item_ids: [...itemIds], predictions_id: predictionsId };
  return useItemsBy(datasetId, body, itemIds.length, (item) => item.id);
}

/**
 * Items by row of one item-table version (the map's points), keyed by row. A version that is no
 * longer current answers 409; the map refetches its points then.
 */
export function useItemPreviewsByRows(
  datasetId: string,
  dataLevel: DataLevel,
  rows: readonly number[],
  version: number,
  predictionsId?: string,
) {
  const body = { data_level: dataLevel, rows: [...rows], version, predictions_id: predictionsId };
  return useItemsBy(datasetId, body, rows.length, (item) => item.row);
}

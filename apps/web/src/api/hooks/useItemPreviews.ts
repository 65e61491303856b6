// Items for previews (hover cards, selection strips, result cards) through the explorer's items call.
import type {
  DataLevel,
  ExploreComparison,
  ExploreItem,
  ItemsRequest,
  ItemsResponse,
} from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { itemsQuery } from '../queries/explore';

// Module-level selectors: TanStack Query re-runs a select only when the data or the function
// changes, so each answer is indexed once.
const byId = ({ items }: ItemsResponse) =>
  new Map<string, ExploreItem>(items.map((item) => [item.id, item]));
const byRow = ({ items }: ItemsResponse) =>
  new Map<number, ExploreItem>(items.map((item) => [item.row, item]));

/** Items by id, keyed by id. */
export function useItemPreviews(
  datasetId: string,
  dataLevel: DataLevel,
  itemIds: readonly string[],
  predictionsId?: string,
) {
  const body: ItemsRequest = {
    data_level: dataLevel,
    item_ids: [...itemIds],
    predictions_id: predictionsId,
  };
  return useQuery({ ...itemsQuery(datasetId, body), enabled: itemIds.length > 0, select: byId });
}

/**
 * Items by row of one item-table version (the map's points), keyed by row. A version that is no
 * longer current answers 409; the map refetches its points then. With a comparison, each item
 * carries the other model's prediction too (`compared_prediction`).
 */
export function useItemPreviewsByRows(
  datasetId: string,
  dataLevel: DataLevel,
  rows: readonly number[],
  version: number,
  predictionsId?: string,
  comparison?: ExploreComparison,
) {
  const body: ItemsRequest = {
    data_level: dataLevel,
    rows: [...rows],
    version,
    predictions_id: predictionsId,
    ...(comparison ? { comparison } : {}),
  };
  return useQuery({ ...itemsQuery(datasetId, body), enabled: rows.length > 0, select: byRow });
}

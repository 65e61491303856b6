// The current query's result as row indices, fetched once per data level, sort and filter.
import type { DataLevel, Filter, SortEntry } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { exploreApi, type ItemRows } from '../../../api/explore';
import { queryKeys } from '../../../api/queryKeys';

export interface ItemRowsQuery {
  data_level: DataLevel;
  sort: SortEntry[];
  filter: Filter | null;
  subset_id?: string;
  predictions_id?: string;
}

export const itemRowsKey = (datasetId: string, query: ItemRowsQuery) =>
  queryKeys.explore.itemRows(datasetId, query);

export function useItemRows(datasetId: string, query: ItemRowsQuery, enabled = true) {
  return useQuery({
    queryKey: itemRowsKey(datasetId, query),
    // Items missing a sort key are kept (they sort last), so sorting never hides items.
    // The answer carries the query it answers: while a new query runs, the previous answer is
    // shown, and its items must be fetched and cached under its own query.
    queryFn: async ({ signal }): Promise<ItemRows & { query: ItemRowsQuery }> => ({
      ...(await exploreApi.itemRows(datasetId, { ...query, include_missing: true }, signal)),
      query,
    }),
    enabled,
    // Keep showing the previous result while a new sort or filter is computed
    // (not across data levels: those are different items).
    placeholderData: (previous) =>
      previous?.query.data_level === query.data_level ? previous : undefined,
  });
}

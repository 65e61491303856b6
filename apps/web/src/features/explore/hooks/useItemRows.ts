// The current query's result as row indices, fetched once per data level, sort and filter.
import { useQuery } from '@tanstack/react-query';
import type { ItemRowsQuery } from '../../../api/explore';
import { itemRowsQuery } from '../../../api/queries/explore';

export type { ItemRowsQuery } from '../../../api/explore';

export function useItemRows(datasetId: string, query: ItemRowsQuery, enabled = true) {
  return useQuery({
    ...itemRowsQuery(datasetId, query),
    enabled,
    // Keep showing the previous result while a new sort or filter is computed
    // (not across data levels: those are different items).
    placeholderData: (previous) =>
      previous?.query.data_level === query.data_level ? previous : undefined,
  });
}

// The current result's item ids, aligned with its rows, fetched on demand (Find similar sends
// ids): one 'ids' answer of the same query maps rows to ids and back.
import { queryOptions } from '@tanstack/react-query';
import { exploreApi } from '../../../api/explore';
import { queryKeys } from '../../../api/queryKeys';
import type { ItemRowsQuery } from './useItemRows';

export interface IdRows {
  idByRow: Map<number, string>;
  rowById: Map<string, number>;
}

export const itemIdsOptions = (datasetId: string, query: ItemRowsQuery) =>
  queryOptions({
    queryKey: queryKeys.explore.itemIds(datasetId, query),
    queryFn: ({ signal }) =>
      exploreApi.itemIds(datasetId, { ...query, include_missing: true }, signal),
    staleTime: 60_000,
  });

/** Pairs rows and ids of the same result; null when they disagree (the table changed). */
export function pairIdsWithRows(rows: Uint32Array, ids: readonly string[]): IdRows | null {
  if (rows.length !== ids.length) return null;
  const idByRow = new Map<number, string>();
  const rowById = new Map<string, number>();
  rows.forEach((row, i) => {
    idByRow.set(row, ids[i]!);
    rowById.set(ids[i]!, row);
  });
  return { idByRow, rowById };
}

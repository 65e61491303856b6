// Find similar on the grid's selection (docs/product.md, Datasets §4): the selected rows' ids,
// in result order, fetched on demand with the result's ids, open the Similar items page.
import type { DataLevel } from '@loupe/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { ItemRowsQuery } from '../../../api/explore';
import { itemIdsQuery } from '../../../api/queries/explore';
import { pairIdsWithRows } from '../idRows';

export function useFindSimilar(args: {
  datasetId: string;
  dataLevel: DataLevel;
  rows: Uint32Array | undefined;
  /** The query that produced `rows`. */
  rowsQuery: ItemRowsQuery | undefined;
  selectedRows: ReadonlySet<number>;
}) {
  const { datasetId, dataLevel, rows, rowsQuery, selectedRows } = args;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    if (!rows || !rowsQuery) return;
    const pairs = pairIdsWithRows(
      rows,
      await queryClient.fetchQuery(itemIdsQuery(datasetId, rowsQuery)),
    );
    if (!pairs) return;
    // In result order, so the query items read like the grid.
    const ids = [...rows]
      .filter((row) => selectedRows.has(row))
      .map((row) => pairs.idByRow.get(row)!);
    const search = new URLSearchParams({ sample_ids: ids.join(',') });
    if (dataLevel === 'image_object') search.set('data_level', dataLevel);
    navigate(
      `/datasets/${datasetId}/subsets/selection/similar?${search.toString().replaceAll('%2C', ',')}`,
    );
  }, [rows, rowsQuery, queryClient, datasetId, selectedRows, dataLevel, navigate]);
}

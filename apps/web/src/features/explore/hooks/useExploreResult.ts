// The current result: the query (level, sort, filter, subset, prediction set, comparison) as rows,
// and the context the grid and the viewer fetch its items with. Rows of the previous query stay
// while a new one is computed, and carry the query that produced them.
import type { DataLevel, ExploreComparison, Filter, SortEntry } from '@loupe/contracts';
import { useMemo } from 'react';
import type { BatchContext } from './useItemBatches';
import { useItemRows, type ItemRowsQuery } from './useItemRows';

export function useExploreResult(args: {
  datasetId: string;
  dataLevel: DataLevel;
  sort: SortEntry[];
  filter: Filter | null;
  subsetId: string | null;
  predictionsId?: string;
  comparison?: ExploreComparison;
}) {
  const { datasetId, dataLevel, sort, filter, subsetId, predictionsId, comparison } = args;
  const rowsQuery: ItemRowsQuery = useMemo(
    () => ({
      data_level: dataLevel,
      sort,
      filter,
      ...(subsetId ? { subset_id: subsetId } : {}),
      ...(predictionsId ? { predictions_id: predictionsId } : {}),
      ...(comparison ? { comparison } : {}),
    }),
    [dataLevel, sort, filter, subsetId, predictionsId, comparison],
  );
  const itemRows = useItemRows(datasetId, rowsQuery);
  const rows = itemRows.data?.rows;
  const version = itemRows.data?.version;
  const context: BatchContext | null = useMemo(
    () =>
      rows && version !== undefined
        ? {
            datasetId,
            dataLevel: itemRows.data!.query.data_level,
            predictionsId,
            rowsQuery: itemRows.data!.query,
            rows,
            version,
          }
        : null,
    [rows, version, datasetId, predictionsId, itemRows.data],
  );
  return { itemRows, rows, version, context };
}

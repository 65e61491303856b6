// The datasets list (GET /api/datasets). The endpoint arrives with the datasets issue; until
// then the list is empty, with the same query shape, so the navigation already plugs into it.
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../api/queryKeys';
import type { DatasetSummary } from '../types';

export function useDatasets() {
  return useQuery({
    queryKey: queryKeys.datasets.list(),
    queryFn: async (): Promise<DatasetSummary[]> => [],
  });
}

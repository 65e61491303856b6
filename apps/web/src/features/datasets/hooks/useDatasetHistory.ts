// The version history of a dataset, newest first (GET /api/datasets/{id}/history).
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../api/queryKeys';
import { datasetsApi } from '../api';

export function useDatasetHistory(datasetId: string) {
  return useQuery({
    queryKey: queryKeys.datasets.history(datasetId),
    queryFn: ({ signal }) => datasetsApi.getHistory(datasetId, signal),
  });
}

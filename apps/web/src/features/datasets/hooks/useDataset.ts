// One dataset (GET /api/datasets/{id}); polled while thumbnails are being generated.
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../api/queryKeys';
import { datasetsApi } from '../api';

export function useDataset(datasetId: string, { pollMs }: { pollMs?: number } = {}) {
  return useQuery({
    queryKey: queryKeys.datasets.detail(datasetId),
    queryFn: ({ signal }) => datasetsApi.getDataset(datasetId, signal),
    refetchInterval: pollMs ?? false,
  });
}

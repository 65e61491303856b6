// The prediction sets (models) of one dataset (GET /api/dataset/models).
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/endpoints';
import { queryKeys } from '../../../api/queryKeys';

export function useDatasetModels(datasetId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.datasets.models(datasetId ?? ''),
    queryFn: ({ signal }) => api.getDatasetModels(datasetId ?? '', signal),
    enabled: Boolean(datasetId),
  });
}

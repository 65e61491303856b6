// The prediction sets of one dataset (GET /api/dataset/models). Empty until the models issue
// adds the endpoint; the shape stays the same.
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../api/queryKeys';
import type { PredictionSetSummary } from '../types';

export function useDatasetModels(datasetId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.datasets.models(datasetId ?? ''),
    queryFn: async (): Promise<PredictionSetSummary[]> => [],
    enabled: Boolean(datasetId),
  });
}

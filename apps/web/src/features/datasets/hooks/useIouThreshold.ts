// The IoU threshold of a detection or instance segmentation dataset.
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../api/queryKeys';
import { datasetsApi } from '../api';

export function useIouThreshold(datasetId: string) {
  return useQuery({
    queryKey: queryKeys.datasets.iouThreshold(datasetId),
    queryFn: ({ signal }) => datasetsApi.getIouThreshold(datasetId, signal),
  });
}

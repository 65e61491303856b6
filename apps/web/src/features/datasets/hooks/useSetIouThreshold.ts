// Saves a new IoU threshold; results computed with the old one are stale afterwards.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { datasetsApi } from '../../../api/datasets';
import { iouThresholdQuery } from '../../../api/queries/datasets';
import { queryKeys } from '../../../api/queryKeys';

export function useSetIouThreshold(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: number) => datasetsApi.setIouThreshold(datasetId, value),
    onSuccess: (answer) => {
      queryClient.setQueryData(iouThresholdQuery(datasetId).queryKey, answer);
      void queryClient.invalidateQueries({ queryKey: queryKeys.datasets.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.models.list() });
    },
  });
}

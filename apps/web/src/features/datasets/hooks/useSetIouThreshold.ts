// Saves a new IoU threshold; results computed with the old one are stale afterwards.
import { api } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { iouThresholdQuery } from '../../../api/queries/datasets';
import { queryKeys } from '../../../api/queryKeys';

export function useSetIouThreshold(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: number) =>
      call(api.datasets.setIouThreshold, {
        params: { id: datasetId },
        body: { iou_threshold: value },
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(iouThresholdQuery(datasetId).queryKey, answer);
      void queryClient.invalidateQueries({ queryKey: queryKeys.datasets.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.models.list() });
    },
  });
}

// Turns thumbnails on (queues their generation) or off (deletes them all).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../api/queryKeys';
import { datasetsApi } from '../api';

export function useSetThumbnails(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => datasetsApi.setThumbnails(datasetId, enabled),
    onSuccess: (config) => {
      queryClient.setQueryData(queryKeys.datasets.thumbnails(datasetId), config);
      void queryClient.invalidateQueries({ queryKey: queryKeys.datasets.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.activities.all() });
    },
  });
}

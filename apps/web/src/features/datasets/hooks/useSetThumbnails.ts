// Turns thumbnails on (queues their generation) or off (deletes them all).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { datasetsApi } from '../../../api/datasets';
import { thumbnailsQuery } from '../../../api/queries/datasets';
import { queryKeys } from '../../../api/queryKeys';

export function useSetThumbnails(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => datasetsApi.setThumbnails(datasetId, enabled),
    onSuccess: (config) => {
      queryClient.setQueryData(thumbnailsQuery(datasetId).queryKey, config);
      void queryClient.invalidateQueries({ queryKey: queryKeys.datasets.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.activities.all() });
    },
  });
}

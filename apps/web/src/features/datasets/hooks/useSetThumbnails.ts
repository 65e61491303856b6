// Turns thumbnails on (queues their generation) or off (deletes them all).
import { api } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { thumbnailsQuery } from '../../../api/queries/datasets';
import { queryKeys } from '../../../api/queryKeys';

export function useSetThumbnails(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      call(api.datasets.setThumbnails, { params: { id: datasetId }, body: { enabled } }),
    onSuccess: (config) => {
      queryClient.setQueryData(thumbnailsQuery(datasetId).queryKey, config);
      void queryClient.invalidateQueries({ queryKey: queryKeys.datasets.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.activities.all() });
    },
  });
}

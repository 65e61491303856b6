// Deletes a dataset with its media and predictions, then refreshes every list.
import { api } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

export function useDeleteDataset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (datasetId: string) => call(api.datasets.delete, { params: { id: datasetId } }),
    onSuccess: (_answer, datasetId) => {
      queryClient.removeQueries({ queryKey: queryKeys.datasets.one(datasetId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.datasets.list() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.models.list() });
    },
  });
}

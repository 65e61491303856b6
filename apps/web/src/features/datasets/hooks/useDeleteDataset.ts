// Deletes a dataset with its media and predictions, then refreshes every list.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../api/queryKeys';
import { datasetsApi } from '../api';

export function useDeleteDataset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (datasetId: string) => datasetsApi.deleteDataset(datasetId),
    onSuccess: (_answer, datasetId) => {
      queryClient.removeQueries({ queryKey: ['datasets', datasetId] });
      void queryClient.invalidateQueries({ queryKey: queryKeys.datasets.list() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.models.list() });
    },
  });
}

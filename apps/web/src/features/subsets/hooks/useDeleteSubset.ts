// Deletes a subset (its items stay in the dataset), then refreshes the subsets, the dataset, and
// the explorer's metadata and item lists, which may name the subset.
import { api } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

export function useDeleteSubset(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subsetId: string) =>
      call(api.subsets.delete, { params: { id: datasetId, subsetId } }),
    onSuccess: (_answer, subsetId) => {
      queryClient.removeQueries({ queryKey: queryKeys.subsets.detail(datasetId, subsetId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.subsets.all(datasetId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.datasets.detail(datasetId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.explore.all(datasetId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.embeddings.all(datasetId) });
    },
  });
}

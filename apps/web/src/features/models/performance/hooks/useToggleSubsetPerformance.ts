// Shows or hides a subset's performance, or chooses its metric (PUT …/subsets/{id}/performance);
// the subsets list and every performance read of the dataset are stale afterwards.
import { api, type SubsetPerformanceToggleRequest } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../../api/client';
import { queryKeys } from '../../../../api/queryKeys';

export function useToggleSubsetPerformance(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      subsetId,
      change,
    }: {
      subsetId: string;
      change: SubsetPerformanceToggleRequest;
    }) => call(api.performance.toggleSubset, { params: { id: datasetId, subsetId }, body: change }),
    onSuccess: () =>
      Promise.all(
        [queryKeys.subsets.all(datasetId), queryKeys.performance.dataset(datasetId)].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

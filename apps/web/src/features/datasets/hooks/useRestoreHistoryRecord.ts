// Restores the items a delete record deleted (POST …/history/{recordId}/restore); the history,
// the dataset's counts and every item read of the dataset are stale afterwards.
import { api } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

export function useRestoreHistoryRecord(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recordId: string) =>
      call(api.curation.restore, { params: { id: datasetId, recordId } }),
    onSuccess: () =>
      Promise.all(
        [
          queryKeys.datasets.one(datasetId),
          queryKeys.datasets.list(),
          queryKeys.explore.all(datasetId),
          queryKeys.embeddings.all(datasetId),
          queryKeys.subsets.all(datasetId),
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}

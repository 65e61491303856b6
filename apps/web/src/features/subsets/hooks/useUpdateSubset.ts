// Changes one subset: its name, description or performance toggle, or items removed (Delete All,
// Remove from subset). The cached list shows a rename or a toggle at once and takes it back if
// the server refuses; item changes also refresh the explorer's lists.
import { api, type Subset, type UpdateSubsetRequest } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

export interface SubsetChange {
  subsetId: string;
  change: UpdateSubsetRequest;
}

const changesItems = (change: UpdateSubsetRequest) =>
  Boolean(change.added_item_ids?.length || change.removed_item_ids?.length);

export function useUpdateSubset(datasetId: string) {
  const queryClient = useQueryClient();
  const listKey = queryKeys.subsets.list(datasetId);
  return useMutation({
    mutationFn: ({ subsetId, change }: SubsetChange) =>
      call(api.subsets.update, { params: { id: datasetId, subsetId }, body: change }),
    onMutate: async ({ subsetId, change }) => {
      await queryClient.cancelQueries({ queryKey: listKey });
      const before = queryClient.getQueryData<Subset[]>(listKey);
      const shown: Partial<Subset> = {};
      if (change.name !== undefined) shown.name = change.name.trim();
      if (change.description !== undefined) shown.description = change.description ?? null;
      if (change.enabled_for_performance !== undefined)
        shown.enabled_for_performance = change.enabled_for_performance;
      if (before && Object.keys(shown).length > 0) {
        queryClient.setQueryData<Subset[]>(
          listKey,
          before.map((subset) => (subset.id === subsetId ? { ...subset, ...shown } : subset)),
        );
      }
      return { before };
    },
    onError: (_error, _variables, context) => {
      if (context?.before) queryClient.setQueryData(listKey, context.before);
    },
    onSettled: (_answer, _error, { change }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.subsets.all(datasetId) });
      if (changesItems(change)) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.explore.all(datasetId) });
        // The map of a subset (subset_id in its points request) shows its items.
        void queryClient.invalidateQueries({ queryKey: queryKeys.embeddings.all(datasetId) });
      }
    },
  });
}

// The writes of the health-check pages (docs/health-checks.md, API): run, create a custom check,
// configure params, enable or disable, delete, and ignore or re-enable items (check_ignore_items
// through PUT /api/actions, applied at once). Each refreshes the dataset's health-check reads.
import { api, type CheckParamValue, type CreateCheckRequest } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

function useRefresh(datasetId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.healthChecks.all(datasetId) });
}

export function useRunChecks(datasetId: string) {
  const refresh = useRefresh(datasetId);
  return useMutation({
    mutationFn: () => call(api.healthChecks.run, { params: { id: datasetId } }),
    onSuccess: refresh,
  });
}

export function useCreateCheck(datasetId: string) {
  const refresh = useRefresh(datasetId);
  return useMutation({
    mutationFn: (body: CreateCheckRequest) =>
      call(api.healthChecks.create, { params: { id: datasetId }, body }),
    onSuccess: refresh,
  });
}

export function useConfigureCheck(datasetId: string) {
  const refresh = useRefresh(datasetId);
  return useMutation({
    mutationFn: ({
      checkId,
      params,
    }: {
      checkId: string;
      params: Record<string, CheckParamValue>;
    }) =>
      call(api.healthChecks.configure, { params: { id: datasetId, checkId }, body: { params } }),
    onSuccess: refresh,
  });
}

export function useCheckSettings(datasetId: string) {
  const refresh = useRefresh(datasetId);
  return useMutation({
    mutationFn: ({
      checkId,
      enabled,
      predictionsId,
    }: {
      checkId: string;
      enabled: boolean;
      predictionsId?: string;
    }) =>
      call(api.healthChecks.settings, {
        params: { id: datasetId, checkId },
        body: { enabled, ...(predictionsId ? { predictions_id: predictionsId } : {}) },
      }),
    onSuccess: refresh,
  });
}

export function useDeleteCheck(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (checkId: string) =>
      call(api.healthChecks.remove, { params: { id: datasetId, checkId } }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: queryKeys.healthChecks.lists(datasetId) }),
  });
}

/** Ignores (or re-enables) items of a check at once; the explorer's check fields change too. */
export function useIgnoreItems(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      checkId,
      itemIds,
      ignore,
      predictionsId,
    }: {
      checkId: string;
      itemIds: string[];
      ignore: boolean;
      predictionsId?: string;
    }) =>
      call(api.curation.applyActions, {
        body: {
          actions: [
            {
              type: 'check_ignore_items',
              dataset_id: datasetId,
              check_id: checkId,
              ignore,
              item_ids: itemIds,
              ...(predictionsId ? { predictions_id: predictionsId } : {}),
            },
          ],
        },
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.healthChecks.all(datasetId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.explore.all(datasetId) });
    },
  });
}

// Query factories for data health checks (docs/health-checks.md): a dataset's checks (polled every
// CHECK_LIST_POLL_MS while any is computing) and one check with its evaluation (polled every
// CHECK_POLL_MS while it is computing). The keys sit under the dataset's, so every applied edit
// (which invalidates queryKeys.datasets.one) makes them stale too.
import { api, CHECK_LIST_POLL_MS, CHECK_POLL_MS } from '@loupe/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { queryKeys } from '../queryKeys';

export const healthChecksQuery = (datasetId: string, predictionsId?: string) =>
  queryOptions({
    queryKey: queryKeys.healthChecks.list(datasetId, predictionsId),
    queryFn: ({ signal }) =>
      call(
        api.healthChecks.list,
        { params: { id: datasetId }, query: { predictions_id: predictionsId } },
        { signal },
      ),
    refetchInterval: (query) =>
      query.state.data?.computing ||
      query.state.data?.checks.some((check) => check.status.type === 'pending_check')
        ? CHECK_LIST_POLL_MS
        : false,
  });

export const healthCheckQuery = (datasetId: string, checkId: string, predictionsId?: string) =>
  queryOptions({
    queryKey: queryKeys.healthChecks.detail(datasetId, checkId, predictionsId),
    queryFn: ({ signal }) =>
      call(
        api.healthChecks.get,
        { params: { id: datasetId, checkId }, query: { predictions_id: predictionsId } },
        { signal },
      ),
    refetchInterval: (query) =>
      query.state.data?.check.status.type === 'pending_check' ? CHECK_POLL_MS : false,
  });

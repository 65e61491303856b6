// Query factories of the model comparison page (docs/model-comparison.md): the job-computed
// comparison of two models (POST, asked again every 2 s while the server computes it) and the
// subsets comparison (asked again while some subsets are pending). Their keys sit under the
// dataset's performance keys, so an edit of the dataset, a new IoU threshold or a subset toggled
// for performance makes them stale together with the performance reads.
import { api, type ComparisonRequest, type SubsetsComparisonQuery } from '@loupe/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { queryKeys } from '../queryKeys';
import { PERFORMANCE_POLL_MS } from './performance';

export const comparisonQuery = (datasetId: string, body: ComparisonRequest) =>
  queryOptions({
    queryKey: queryKeys.performance.comparison(datasetId, body),
    queryFn: ({ signal }) =>
      call(api.comparison.compare, { params: { id: datasetId }, body }, { signal }),
    refetchInterval: (query) =>
      query.state.data?.status === 'computing' ? PERFORMANCE_POLL_MS : false,
  });

export const subsetsComparisonQuery = (datasetId: string, query: SubsetsComparisonQuery) =>
  queryOptions({
    queryKey: queryKeys.performance.comparisonSubsets(datasetId, query),
    queryFn: ({ signal }) =>
      call(api.comparison.subsets, { params: { id: datasetId }, query }, { signal }),
    refetchInterval: (state) =>
      (state.state.data?.pending_subsets.length ?? 0) > 0 ? PERFORMANCE_POLL_MS : false,
  });

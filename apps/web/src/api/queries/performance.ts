// Query factories for a model's performance (docs/model-performance.md): the job-computed
// statistics, overall table, fine-grained curves and subset entries, asked again every 2 s while
// the server is still computing them, and the synchronous metadata performance.
import {
  api,
  ALL_SPLITS,
  type ComputeStatus,
  type MetadataPerformanceRequest,
} from '@loupe/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { queryKeys } from '../queryKeys';

/** How often a page asks again while a report is being computed (docs/product.md, Models §4). */
export const PERFORMANCE_POLL_MS = 2000;
/** Statistics stay fresh for 5 minutes (docs/product.md, Models §9). */
export const STATISTICS_STALE_MS = 5 * 60_000;

const whileComputing = (data: { status: ComputeStatus } | undefined) =>
  data?.status === 'computing' ? PERFORMANCE_POLL_MS : false;

export const performanceStatisticsQuery = (datasetId: string, predictionSetId: string) =>
  queryOptions({
    queryKey: queryKeys.performance.statistics(datasetId, predictionSetId),
    queryFn: ({ signal }) =>
      call(api.performance.statistics, { params: { id: datasetId, predictionSetId } }, { signal }),
    staleTime: STATISTICS_STALE_MS,
    refetchInterval: (query) => whileComputing(query.state.data),
  });

export const overallPerformanceQuery = (datasetId: string, predictionSetId: string) =>
  queryOptions({
    queryKey: queryKeys.performance.overall(datasetId, predictionSetId),
    queryFn: ({ signal }) =>
      call(api.performance.overall, { params: { id: datasetId, predictionSetId } }, { signal }),
    refetchInterval: (query) => whileComputing(query.state.data),
  });

export const finegrainedPerformanceQuery = (datasetId: string, predictionSetId: string) =>
  queryOptions({
    queryKey: queryKeys.performance.finegrained(datasetId, predictionSetId),
    queryFn: ({ signal }) =>
      call(api.performance.finegrained, { params: { id: datasetId, predictionSetId } }, { signal }),
    refetchInterval: (query) => whileComputing(query.state.data),
  });

/** The enabled subsets' performance in one split; asked again while some are pending. */
export const subsetsPerformanceQuery = (
  datasetId: string,
  predictionSetId: string,
  split: string = ALL_SPLITS,
) =>
  queryOptions({
    queryKey: queryKeys.performance.subsets(datasetId, predictionSetId, split),
    queryFn: ({ signal }) =>
      call(
        api.performance.subsets,
        { params: { id: datasetId, predictionSetId }, query: { split } },
        { signal },
      ),
    refetchInterval: (query) =>
      (query.state.data?.pending_subsets.length ?? 0) > 0 ? PERFORMANCE_POLL_MS : false,
  });

/** Metrics per bin of one metadata field (computed on request, no polling). */
export const metadataPerformanceQuery = (
  datasetId: string,
  predictionSetId: string,
  body: MetadataPerformanceRequest,
) =>
  queryOptions({
    queryKey: queryKeys.performance.metadata(datasetId, predictionSetId, body),
    queryFn: ({ signal }) =>
      call(
        api.performance.metadata,
        { params: { id: datasetId, predictionSetId }, body },
        { signal },
      ),
  });

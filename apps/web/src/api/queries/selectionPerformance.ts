// Query factory for the performance of the explorer's current selection, filter or subset
// (POST /api/datasets/{id}/predictions/{predictionSetId}/performance/items_summary): the task's
// slice metrics over those items, computed on request. A selection above
// MAX_SELECTION_PERFORMANCE_ITEMS answers 413, which is not retried.
import { api, type ItemsSummaryRequest } from '@loupe/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { queryKeys } from '../queryKeys';

export interface SelectionPerformanceRequest {
  body: ItemsSummaryRequest;
  /**
   * What identifies the body in the query key. A selection can hold 100,000 ids, which the key
   * would hash on every render; a digest of them stands in (see the explorer's
   * performance/selectionPerformanceRules.ts).
   */
  identity: unknown;
}

export const selectionPerformanceQuery = (
  datasetId: string,
  predictionSetId: string,
  request: SelectionPerformanceRequest,
) =>
  queryOptions({
    queryKey: queryKeys.performance.itemsSummary(datasetId, predictionSetId, request.identity),
    queryFn: ({ signal }) =>
      call(
        api.performance.itemsSummary,
        { params: { id: datasetId, predictionSetId }, body: request.body },
        { signal },
      ),
  });

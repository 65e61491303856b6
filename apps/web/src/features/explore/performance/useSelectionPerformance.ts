// The performance numbers of the explorer's selection (or filter, or subset) for one model: the
// request waits until the selection or the filter has stood still for SUMMARY_DEBOUNCE_MS, and
// the last numbers stay (marked stale) while new ones load.
import { ApiError } from '../../../api/ApiError';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { selectionPerformanceQuery } from '../../../api/queries/selectionPerformance';
import type { SummaryPlan } from './selectionPerformanceRules';

/** How long a selection or a filter must stand before its performance is asked. */
export const SUMMARY_DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const isTooLarge = (error: unknown) => error instanceof ApiError && error.status === 413;

export function useSelectionPerformance(args: {
  datasetId: string;
  predictionSetId: string;
  plan: SummaryPlan;
}) {
  const { datasetId, predictionSetId, plan } = args;
  const request = plan.kind === 'ask' ? plan.request : null;
  const settled = useDebounced(request, SUMMARY_DEBOUNCE_MS);
  const query = useQuery({
    ...selectionPerformanceQuery(
      datasetId,
      predictionSetId,
      settled ?? { body: { data_level: 'image' }, identity: null },
    ),
    enabled: settled !== null,
    placeholderData: keepPreviousData,
  });
  const tooMany = plan.kind === 'too-many' || (request !== null && isTooLarge(query.error));
  return {
    summary: request === null || query.isError ? undefined : query.data,
    /** The numbers shown are not (yet) those of the current selection or filter. */
    stale:
      plan.kind === 'waiting' ||
      (request !== null && (settled !== request || query.isPlaceholderData || query.isFetching)),
    tooMany,
    error: tooMany || request === null ? null : query.error,
    retry: () => void query.refetch(),
  };
}

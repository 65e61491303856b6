// A dataset's health checks (docs/health-checks.md): polled every CHECK_LIST_POLL_MS while any
// is computing (the query factory's refetchInterval).
import { useQuery } from '@tanstack/react-query';
import { healthChecksQuery } from '../../../api/queries/healthChecks';

export function useHealthChecks(datasetId: string, predictionsId?: string) {
  return useQuery(healthChecksQuery(datasetId, predictionsId));
}

// One health check with its evaluation: polled every CHECK_POLL_MS while it is computing.
import { useQuery } from '@tanstack/react-query';
import { healthCheckQuery } from '../../../api/queries/healthChecks';

export function useHealthCheck(datasetId: string, checkId: string, predictionsId?: string) {
  return useQuery(healthCheckQuery(datasetId, checkId, predictionsId));
}

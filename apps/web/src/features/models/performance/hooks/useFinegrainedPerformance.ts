// A model's curves or error distributions, asked again while being computed.
import { useQuery } from '@tanstack/react-query';
import { finegrainedPerformanceQuery } from '../../../../api/queries/performance';

export function useFinegrainedPerformance(datasetId: string, predictionSetId: string) {
  return useQuery(finegrainedPerformanceQuery(datasetId, predictionSetId));
}

// The enabled subsets' performance in a split, asked again while some are pending.
import { useQuery } from '@tanstack/react-query';
import { subsetsPerformanceQuery } from '../../../../api/queries/performance';

export function useSubsetsPerformance(datasetId: string, predictionSetId: string, split: string) {
  return useQuery(subsetsPerformanceQuery(datasetId, predictionSetId, split));
}

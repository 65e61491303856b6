// A model's performance per class, word or value name, asked again while being computed.
import { useQuery } from '@tanstack/react-query';
import { overallPerformanceQuery } from '../../../../api/queries/performance';

export function useOverallPerformance(datasetId: string, predictionSetId: string) {
  return useQuery(overallPerformanceQuery(datasetId, predictionSetId));
}

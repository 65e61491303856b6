// A model's statistics per split, asked again every 2 s while they are being computed.
import { useQuery } from '@tanstack/react-query';
import { performanceStatisticsQuery } from '../../../../api/queries/performance';

export function usePerformanceStatistics(datasetId: string, predictionSetId: string) {
  return useQuery(performanceStatisticsQuery(datasetId, predictionSetId));
}

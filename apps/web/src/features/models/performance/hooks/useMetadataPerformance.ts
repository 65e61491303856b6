// Metrics per bin of a metadata field; nothing is asked until a field and a metric are chosen.
import type { DataLevel } from '@loupe/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { metadataPerformanceQuery } from '../../../../api/queries/performance';

export function useMetadataPerformance(
  datasetId: string,
  predictionSetId: string,
  request: { dataLevel: DataLevel; metadataId: string | undefined; metrics: readonly string[] },
) {
  const { dataLevel, metadataId, metrics } = request;
  return useQuery({
    ...metadataPerformanceQuery(datasetId, predictionSetId, {
      data_level: dataLevel,
      metadata_id: metadataId ?? '',
      metrics: [...metrics],
    }),
    enabled: metadataId !== undefined && metrics.length > 0,
    placeholderData: keepPreviousData,
  });
}

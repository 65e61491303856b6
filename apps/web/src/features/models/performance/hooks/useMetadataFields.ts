// The metadata fields of a data level as the model's explorer has them (asked again every 3 s
// while one is pending).
import type { DataLevel } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { metadataInfoQuery } from '../../../../api/queries/explore';

export function useMetadataFields(
  datasetId: string,
  dataLevel: DataLevel,
  predictionSetId: string,
) {
  return useQuery(metadataInfoQuery(datasetId, dataLevel, predictionSetId));
}

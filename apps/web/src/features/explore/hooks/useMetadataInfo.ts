// The metadata fields at a data level (docs/product.md, Datasets §7), through the one
// `metadataInfoQuery`: polled every 3 s while any field is pending; not found means no fields.
import type { DataLevel, ExploreComparison } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { metadataInfoQuery } from '../../../api/queries/explore';

export function useMetadataInfo(
  datasetId: string,
  dataLevel: DataLevel,
  predictionsId?: string,
  comparison?: ExploreComparison,
) {
  return useQuery(metadataInfoQuery(datasetId, dataLevel, predictionsId, comparison));
}

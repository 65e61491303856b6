// The metadata fields of one data level, through the explorer's `metadataInfoQuery` (polled
// every 3000 ms while any field is being recomputed; docs/product.md, Datasets §4, §9).
import type { DataLevel } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { metadataInfoQuery } from '../../../api/queries/explore';

export function useMetadataFields(datasetId: string, dataLevel: DataLevel | undefined) {
  return useQuery({
    ...metadataInfoQuery(datasetId, dataLevel ?? 'image'),
    enabled: dataLevel !== undefined,
  });
}

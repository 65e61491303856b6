// The metadata fields of one data level; polled every 3000 ms while any field is being
// recomputed (docs/product.md, Datasets §4, §9).
import type { DataLevel } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { exploreApi } from '../../api/explore';
import { queryKeys } from '../../api/queryKeys';

export const METADATA_POLL_MS = 3000;

export function useMetadataFields(datasetId: string, dataLevel: DataLevel | undefined) {
  return useQuery({
    queryKey: queryKeys.explore.metadataInfo(datasetId, dataLevel ?? 'image'),
    queryFn: ({ signal }) =>
      exploreApi.metadataInfo(datasetId, { data_level: dataLevel ?? 'image' }, signal),
    enabled: dataLevel !== undefined,
    refetchInterval: (query) =>
      query.state.data?.metadata_config.some((field) => field.state === 'pending')
        ? METADATA_POLL_MS
        : false,
  });
}

// The metadata fields at a data level (docs/product.md, Datasets §7): polled every 3 s while any field is
// still being computed; a not-found answer means no fields, other errors fail the query.
import type { DataLevel, MetadataInfoResponse } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../api/ApiError';
import { exploreApi } from '../../../api/explore';
import { queryKeys } from '../../../api/queryKeys';

export const METADATA_POLL_MS = 3000;

export function useMetadataInfo(datasetId: string, dataLevel: DataLevel, predictionsId?: string) {
  return useQuery({
    queryKey: queryKeys.explore.metadataInfo(datasetId, dataLevel, predictionsId),
    queryFn: async ({ signal }): Promise<MetadataInfoResponse> => {
      try {
        return await exploreApi.metadataInfo(
          datasetId,
          { data_level: dataLevel, predictions_id: predictionsId },
          signal,
        );
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return { metadata_config: [] };
        throw error;
      }
    },
    refetchInterval: (query) =>
      query.state.data?.metadata_config.some((field) => field.state === 'pending')
        ? METADATA_POLL_MS
        : false,
  });
}

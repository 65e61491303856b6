// The map's points for the current settings, filter and colouring; polled while the server is
// still computing them (docs/product.md, Datasets §4).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  embeddingsApi,
  type EmbeddingPointsRequest,
  type EmbeddingPointsResponse,
} from '../../../api/embeddings';
import { queryKeys } from '../../../api/queryKeys';

/** How often a computing map asks again. */
export const POINTS_POLL_MS = 3000;

export function useEmbeddingPoints(
  datasetId: string,
  body: EmbeddingPointsRequest,
  enabled: boolean,
) {
  return useQuery({
    queryKey: queryKeys.embeddings.points(datasetId, body),
    queryFn: ({ signal }) => embeddingsApi.points(datasetId, body, signal),
    enabled,
    // Recolouring or refiltering keeps the old map on screen until the new one arrives.
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      (query.state.data as EmbeddingPointsResponse | undefined)?.status === 'computing'
        ? POINTS_POLL_MS
        : false,
  });
}

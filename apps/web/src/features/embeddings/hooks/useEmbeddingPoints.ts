// The map's points for the current settings, filter and colouring; `embeddingPointsQuery` polls
// while the server is still computing them (docs/product.md, Datasets §4).
import type { EmbeddingPointsRequest } from '@loupe/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { embeddingPointsQuery } from '../../../api/queries/embeddings';

export function useEmbeddingPoints(
  datasetId: string,
  body: EmbeddingPointsRequest,
  enabled: boolean,
) {
  return useQuery({
    ...embeddingPointsQuery(datasetId, body),
    enabled,
    // Recolouring or refiltering keeps the old map on screen until the new one arrives.
    placeholderData: keepPreviousData,
  });
}

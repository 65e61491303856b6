// Query factories for the embeddings map and similar items (docs/product.md, Datasets §3, §4):
// settings, points (asked again every 3 s while the server computes them) and similar items.
import {
  api,
  type DataLevel,
  type EmbeddingPointsRequest,
  type SimilarItemsRequest,
} from '@loupe/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { queryKeys } from '../queryKeys';

/** How often a computing map asks again. */
export const POINTS_POLL_MS = 3000;

export const embeddingsSettingsQuery = (
  datasetId: string,
  dataLevel: DataLevel,
  predictionsId?: string,
) =>
  queryOptions({
    queryKey: queryKeys.embeddings.settings(datasetId, dataLevel, predictionsId),
    queryFn: ({ signal }) =>
      call(
        api.embeddings.settings,
        {
          params: { id: datasetId },
          query: { data_level: dataLevel, predictions_id: predictionsId },
        },
        { signal },
      ),
  });

export const embeddingPointsQuery = (datasetId: string, body: EmbeddingPointsRequest) =>
  queryOptions({
    queryKey: queryKeys.embeddings.points(datasetId, body),
    queryFn: ({ signal }) =>
      call(api.embeddings.points, { params: { id: datasetId }, body }, { signal }),
    refetchInterval: (query) => (query.state.data?.status === 'computing' ? POINTS_POLL_MS : false),
  });

export const similarItemsQuery = (datasetId: string, body: SimilarItemsRequest) =>
  queryOptions({
    queryKey: queryKeys.embeddings.similarItems(datasetId, body),
    queryFn: ({ signal }) =>
      call(api.embeddings.similarItems, { params: { id: datasetId }, body }, { signal }),
  });

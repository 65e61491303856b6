// The query items' features and the similar items for a feature, polled while the server builds
// the similarity index.
import type { DataLevel, Dataset } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../api/client';
import { embeddingsApi, type SimilarItemsResponse } from '../../../api/embeddings';
import { exploreApi } from '../../../api/explore';
import { queryKeys } from '../../../api/queryKeys';

export const SIMILAR_POLL_MS = 2000;

/** The dataset, shared in the cache with the dataset pages (same key). */
export function useDatasetDetail(datasetId: string) {
  return useQuery({
    queryKey: queryKeys.datasets.detail(datasetId),
    queryFn: ({ signal }) =>
      request<Dataset>('GET', `/api/datasets/${encodeURIComponent(datasetId)}`, { signal }),
  });
}

export function useQueryItemFeatures(datasetId: string, dataLevel: DataLevel, itemIds: string[]) {
  const body = { data_level: dataLevel, item_ids: itemIds };
  return useQuery({
    queryKey: queryKeys.explore.itemFeatures(datasetId, body),
    queryFn: ({ signal }) => exploreApi.itemFeatures(datasetId, body, signal),
    enabled: itemIds.length > 0,
  });
}

export function useSimilarItems(
  datasetId: string,
  body: {
    data_level: DataLevel;
    item_ids: string[];
    feature_name: string | null;
    predictions_id?: string;
  },
) {
  return useQuery({
    queryKey: queryKeys.embeddings.similarItems(datasetId, body),
    queryFn: ({ signal }) =>
      embeddingsApi.similarItems(datasetId, { ...body, feature_name: body.feature_name! }, signal),
    enabled: body.feature_name !== null && body.item_ids.length > 0,
    refetchInterval: (query) =>
      (query.state.data as SimilarItemsResponse | undefined)?.status === 'computing'
        ? SIMILAR_POLL_MS
        : false,
  });
}

// The dataset, the query items' features and the items most similar to them over a feature (the
// server answers exactly while its approximate index builds, so the first search is slower).
import type { DataLevel, Dataset } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../api/client';
import { embeddingsApi } from '../../../api/embeddings';
import { exploreApi } from '../../../api/explore';
import { queryKeys } from '../../../api/queryKeys';

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

/** How many similar items the page asks for. */
export const SIMILAR_K = 100;

export function useSimilarItems(
  datasetId: string,
  body: {
    data_level: DataLevel;
    item_ids: string[];
    feature_name: string | null;
    exclude_ids: string[];
  },
) {
  return useQuery({
    queryKey: queryKeys.embeddings.similarItems(datasetId, body),
    queryFn: ({ signal }) =>
      embeddingsApi.similarItems(
        datasetId,
        { ...body, feature_name: body.feature_name ?? undefined, k: SIMILAR_K },
        signal,
      ),
    enabled: body.feature_name !== null && body.item_ids.length > 0,
  });
}

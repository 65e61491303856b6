// The query items' features and the items most similar to them over a feature (the server
// answers exactly while its approximate index builds, so the first search is slower).
import type { DataLevel } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { similarItemsQuery } from '../../../api/queries/embeddings';
import { itemFeaturesQuery } from '../../../api/queries/explore';

export function useQueryItemFeatures(datasetId: string, dataLevel: DataLevel, itemIds: string[]) {
  return useQuery({
    ...itemFeaturesQuery(datasetId, { data_level: dataLevel, item_ids: itemIds }),
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
    ...similarItemsQuery(datasetId, {
      ...body,
      feature_name: body.feature_name ?? undefined,
      k: SIMILAR_K,
    }),
    enabled: body.feature_name !== null && body.item_ids.length > 0,
  });
}

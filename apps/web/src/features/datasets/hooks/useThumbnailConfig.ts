// Whether a dataset keeps thumbnails (GET /api/datasets/{id}/thumbnails).
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../api/queryKeys';
import { datasetsApi } from '../api';

export function useThumbnailConfig(datasetId: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.datasets.thumbnails(datasetId),
    queryFn: ({ signal }) => datasetsApi.getThumbnails(datasetId, signal),
    enabled,
  });
}

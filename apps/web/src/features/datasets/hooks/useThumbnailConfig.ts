// Whether a dataset keeps thumbnails (GET /api/datasets/{id}/thumbnails).
import { useQuery } from '@tanstack/react-query';
import { thumbnailsQuery } from '../../../api/queries/datasets';

export function useThumbnailConfig(datasetId: string, enabled = true) {
  return useQuery({ ...thumbnailsQuery(datasetId), enabled });
}

// One dataset (GET /api/datasets/{id}); polled while thumbnails are being generated.
import { useQuery } from '@tanstack/react-query';
import { datasetQuery } from '../../../api/queries/datasets';

export function useDataset(datasetId: string, { pollMs }: { pollMs?: number } = {}) {
  return useQuery(datasetQuery(datasetId, { pollMs }));
}

// The version history of a dataset, newest first (GET /api/datasets/{id}/history).
import { useQuery } from '@tanstack/react-query';
import { datasetHistoryQuery } from '../../../api/queries/datasets';

export function useDatasetHistory(datasetId: string) {
  return useQuery(datasetHistoryQuery(datasetId));
}

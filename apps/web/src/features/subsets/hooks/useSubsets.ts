// A dataset's subsets (GET /api/datasets/{id}/subsets), newest first.
import { useQuery } from '@tanstack/react-query';
import { subsetsQuery } from '../../../api/queries/subsets';

export function useSubsets(datasetId: string) {
  return useQuery(subsetsQuery(datasetId));
}

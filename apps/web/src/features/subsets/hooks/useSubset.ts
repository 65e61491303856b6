// One subset with its item ids (GET /api/datasets/{id}/subsets/{subsetId}).
import { useQuery } from '@tanstack/react-query';
import { subsetQuery } from '../../../api/queries/subsets';

export function useSubset(datasetId: string, subsetId: string | undefined) {
  return useQuery({ ...subsetQuery(datasetId, subsetId ?? ''), enabled: Boolean(subsetId) });
}

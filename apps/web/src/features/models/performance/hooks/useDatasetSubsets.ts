// Every subset of the dataset, for the modal that enables them in performance.
import { useQuery } from '@tanstack/react-query';
import { subsetsQuery } from '../../../../api/queries/subsets';

export function useDatasetSubsets(datasetId: string) {
  return useQuery(subsetsQuery(datasetId));
}

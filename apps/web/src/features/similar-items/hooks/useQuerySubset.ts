// The subset whose items are the query (GET …/subsets/{subsetId}); none for the explorer's
// selection, whose items come in the URL.
import { useQuery } from '@tanstack/react-query';
import { subsetQuery } from '../../../api/queries/subsets';
import { SELECTION_SUBSET } from '../similarRules';

export function useQuerySubset(datasetId: string, subsetId: string) {
  return useQuery({
    ...subsetQuery(datasetId, subsetId),
    enabled: subsetId !== '' && subsetId !== SELECTION_SUBSET,
  });
}

// The datasets list (GET /api/datasets): the datasets page and the navigation read it.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/endpoints';
import { queryKeys } from '../../../api/queryKeys';

export function useDatasets() {
  return useQuery({
    queryKey: queryKeys.datasets.list(),
    queryFn: ({ signal }) => api.getDatasets(signal),
  });
}

// The datasets list (GET /api/datasets): the datasets page and the navigation read it.
import { useQuery } from '@tanstack/react-query';
import { datasetsQuery } from '../../../api/queries/datasets';

export function useDatasets() {
  return useQuery(datasetsQuery());
}

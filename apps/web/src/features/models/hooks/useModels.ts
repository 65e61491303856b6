// Every prediction set (model) of the instance (GET /api/models).
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/endpoints';
import { queryKeys } from '../../../api/queryKeys';

export function useModels() {
  return useQuery({
    queryKey: queryKeys.models.list(),
    queryFn: ({ signal }) => api.getModels(signal),
  });
}

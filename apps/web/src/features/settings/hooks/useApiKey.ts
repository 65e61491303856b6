import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/endpoints';
import { queryKeys } from '../../../api/queryKeys';

export function useApiKey() {
  return useQuery({
    queryKey: queryKeys.settings.apiKey(),
    queryFn: ({ signal }) => api.getApiKey(signal),
  });
}

// The signed-in user's API keys: the list, and create, revoke and rotate, each refreshing it.
import type { CreateApiKeyRequest } from '@loupe/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/endpoints';
import { apiKeysQuery } from '../../../api/queries/settings';
import { queryKeys } from '../../../api/queryKeys';

export function useApiKeys() {
  return useQuery(apiKeysQuery());
}

function useRefreshApiKeys() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.settings.apiKeys() });
}

export function useCreateApiKey() {
  const refresh = useRefreshApiKeys();
  return useMutation({
    mutationFn: (body: CreateApiKeyRequest) => api.createApiKey(body),
    onSuccess: refresh,
  });
}

export function useRevokeApiKey() {
  const refresh = useRefreshApiKeys();
  return useMutation({ mutationFn: (id: string) => api.revokeApiKey(id), onSuccess: refresh });
}

export function useRotateApiKey() {
  const refresh = useRefreshApiKeys();
  return useMutation({ mutationFn: (id: string) => api.rotateApiKey(id), onSuccess: refresh });
}

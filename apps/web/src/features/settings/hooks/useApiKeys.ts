// The signed-in user's API keys: the list, and create, revoke and rotate, each refreshing it.
import { api, type CreateApiKeyRequest } from '@loupe/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
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
    mutationFn: (body: CreateApiKeyRequest) => call(api.apiKeys.create, { body }),
    onSuccess: refresh,
  });
}

export function useRevokeApiKey() {
  const refresh = useRefreshApiKeys();
  return useMutation({
    mutationFn: (id: string) => call(api.apiKeys.revoke, { params: { id } }),
    onSuccess: refresh,
  });
}

export function useRotateApiKey() {
  const refresh = useRefreshApiKeys();
  return useMutation({
    mutationFn: (id: string) => call(api.apiKeys.rotate, { params: { id } }),
    onSuccess: refresh,
  });
}

// Changes the signed-in user's password; revoking the API keys too makes the cached ones stale.
import { api, type ChangePasswordRequest } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) => call(api.auth.changePassword, { body }),
    onSuccess: async (_ok, body) => {
      if (!body.revokeApiKeys) return;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.settings.apiKey() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.settings.apiKeys() }),
      ]);
    },
  });
}

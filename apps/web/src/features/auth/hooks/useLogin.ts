// Signs in, then reloads the app state so the guards see the user.
import { api, type LoginRequest } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginRequest) => call(api.auth.login, { body }),
    onSuccess: () => queryClient.refetchQueries({ queryKey: queryKeys.appState() }),
  });
}

// Signs in, then reloads the app state so the guards see the user.
import type { LoginRequest } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/endpoints';
import { queryKeys } from '../../../api/queryKeys';

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginRequest) => api.login(body),
    onSuccess: () => queryClient.refetchQueries({ queryKey: queryKeys.appState() }),
  });
}

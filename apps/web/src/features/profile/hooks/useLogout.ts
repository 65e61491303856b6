// Signs out and lands on /login with a fresh page, so no signed-in data survives in memory.
import { api } from '@loupe/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../api/client';

export function useLogout() {
  return useMutation({
    mutationFn: () => call(api.auth.logout),
    onSuccess: () => window.location.assign('/login'),
  });
}

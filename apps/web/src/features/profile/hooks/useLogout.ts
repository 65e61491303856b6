// Signs out and lands on /login with a fresh page, so no signed-in data survives in memory.
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../api/endpoints';

export function useLogout() {
  return useMutation({
    mutationFn: () => api.logout(),
    onSuccess: () => window.location.assign('/login'),
  });
}

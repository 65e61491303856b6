import type { ChangePasswordRequest } from '@loupe/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../api/endpoints';

export function useChangePassword() {
  return useMutation({ mutationFn: (body: ChangePasswordRequest) => api.changePassword(body) });
}

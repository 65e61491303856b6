// Sets a new password with a reset token.
import type { ResetPasswordRequest } from '@loupe/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../api/endpoints';

export function useResetPassword() {
  return useMutation({ mutationFn: (body: ResetPasswordRequest) => api.resetPassword(body) });
}

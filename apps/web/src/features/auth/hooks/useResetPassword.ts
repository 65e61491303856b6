// Sets a new password with a reset token.
import { api, type ResetPasswordRequest } from '@loupe/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../api/client';

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordRequest) => call(api.auth.resetPassword, { body }),
  });
}

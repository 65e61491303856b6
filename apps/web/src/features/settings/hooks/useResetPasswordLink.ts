// Creates a reset-password token for a user; the link is this app's reset route with it.
import { api } from '@loupe/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../api/client';

export function resetPasswordLink(token: string): string {
  return `${window.location.origin}/resetPassword/${token}`;
}

export function useResetPasswordLink() {
  return useMutation({
    mutationFn: async (userId: string) => {
      const { token, expires_ts } = await call(api.users.createResetToken, {
        params: { id: userId },
      });
      return { link: resetPasswordLink(token), expiresTs: expires_ts };
    },
  });
}

// The signed-in user and their admin rights (docs/product.md, Shell §6).
import { isAdmin, type User } from '@loupe/contracts';
import { useAppState } from './useAppState';

export interface CurrentUser {
  user: User | undefined;
  isAdmin: boolean;
}

export function useCurrentUser(): CurrentUser {
  const { data } = useAppState();
  return { user: data?.user, isAdmin: isAdmin(data?.user) };
}

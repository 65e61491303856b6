// Every user of the instance (GET /api/users), for admins.
import { useQuery } from '@tanstack/react-query';
import { usersQuery } from '../../../api/queries/session';

export function useUsers(enabled = true) {
  return useQuery({ ...usersQuery(), enabled });
}

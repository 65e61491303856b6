// Query factories for the instance and the signed-in user: the app state (GET /api/state), read
// once and refreshed only by sign-in, setup and license changes, and the users list.
import { queryOptions } from '@tanstack/react-query';
import { api } from '../endpoints';
import { queryKeys } from '../queryKeys';

export const appStateQuery = () =>
  queryOptions({
    queryKey: queryKeys.appState(),
    queryFn: ({ signal }) => api.getAppState(signal),
    staleTime: Infinity,
  });

export const usersQuery = () =>
  queryOptions({
    queryKey: queryKeys.users.list(),
    queryFn: ({ signal }) => api.getUsers(signal),
  });

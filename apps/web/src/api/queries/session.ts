// Query factories for the instance and the signed-in user: the app state (GET /api/state), read
// once and refreshed only by sign-in, setup and license changes, and the users list.
import { api } from '@loupe/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { queryKeys } from '../queryKeys';

export const appStateQuery = () =>
  queryOptions({
    queryKey: queryKeys.appState(),
    queryFn: ({ signal }) => call(api.state.get, {}, { signal }),
    staleTime: Infinity,
  });

export const usersQuery = () =>
  queryOptions({
    queryKey: queryKeys.users.list(),
    queryFn: ({ signal }) => call(api.users.list, {}, { signal }),
  });

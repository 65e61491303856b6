// Query factory for the activities of a scope (GET /api/activities), asked again every `pollMs`
// while someone watches them (the popover, or a page waiting for a job).
import { api, type ActivitiesQuery } from '@loupe/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { queryKeys } from '../queryKeys';

/** Whose activities: the signed-in user's, or everyone's. */
export type ActivityScope = NonNullable<ActivitiesQuery['scope']>;

/** How many activities the bell and the pages waiting for a job read. */
const ACTIVITIES_LIMIT = 200;

export const activitiesQuery = (scope: ActivityScope, pollMs: number | false) =>
  queryOptions({
    queryKey: queryKeys.activities.list(scope),
    queryFn: ({ signal }) =>
      call(api.activities.list, { query: { scope, limit: ACTIVITIES_LIMIT } }, { signal }),
    refetchInterval: pollMs,
  });

// Query factory for the activities of a scope (GET /api/activities), asked again every `pollMs`
// while someone watches them (the popover, or a page waiting for a job).
import { queryOptions } from '@tanstack/react-query';
import { activitiesApi, type ActivityScope } from '../activities';
import { queryKeys } from '../queryKeys';

export const activitiesQuery = (scope: ActivityScope, pollMs: number | false) =>
  queryOptions({
    queryKey: queryKeys.activities.list(scope),
    queryFn: ({ signal }) => activitiesApi.getActivities(scope, signal),
    refetchInterval: pollMs,
  });

// The activities of a scope, polled every 2000 ms by the popover (docs/product.md, Shell §9); other pages may
// poll at their own pace while they wait for a job.
import { useQuery } from '@tanstack/react-query';
import type { ActivityScope } from '../../../api/queries/activities';
import { activitiesQuery } from '../../../api/queries/activities';
import { ACTIVITIES_POLL_MS } from '../activityRules';

export function useActivities(
  scope: ActivityScope,
  { pollMs = ACTIVITIES_POLL_MS, enabled = true }: { pollMs?: number; enabled?: boolean } = {},
) {
  return useQuery({ ...activitiesQuery(scope, enabled ? pollMs : false), enabled });
}

// The activity ids this user has already seen on this deployment (deployment preferences).
import type { Activity } from '@loupe/contracts';
import { useCallback, useState } from 'react';
import {
  readDeploymentPreferences,
  updateDeploymentPreferences,
} from '../../../lib/deploymentPreferences';
import { markSeen } from '../activityRules';

export function useSeenActivities(deploymentId: string) {
  const [seenIds, setSeenIds] = useState(
    () => readDeploymentPreferences(deploymentId).seenActivityIds,
  );
  const markAllSeen = useCallback(
    (activities: Activity[]) => {
      setSeenIds((current) => {
        if (activities.every((activity) => current.includes(activity.id))) return current;
        const next = markSeen(activities, current);
        updateDeploymentPreferences(deploymentId, { seenActivityIds: next });
        return next;
      });
    },
    [deploymentId],
  );
  return { seenIds, markAllSeen };
}

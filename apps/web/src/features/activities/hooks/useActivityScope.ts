// 'My activities' or 'All activities', stored in the browser (default: my).
import { useCallback, useState } from 'react';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../../lib/storage';
import type { ActivityScope } from '../../../api/queries/activities';

export function useActivityScope(): [ActivityScope, (scope: ActivityScope) => void] {
  const [scope, setScopeState] = useState<ActivityScope>(() =>
    readStorage(STORAGE_KEYS.showOnlyMyActivities) === 'false' ? 'all' : 'my',
  );
  const setScope = useCallback((next: ActivityScope) => {
    writeStorage(STORAGE_KEYS.showOnlyMyActivities, String(next === 'my'));
    setScopeState(next);
  }, []);
  return [scope, setScope];
}

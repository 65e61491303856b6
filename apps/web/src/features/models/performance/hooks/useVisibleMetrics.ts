// The metrics a performance table shows, chosen by the user and kept in local storage under
// dataset-{task}-model-{kind} (docs/product.md, Models §9).
import type { TaskType } from '@loupe/contracts';
import { PERFORMANCE_METRICS, visibleMetricsKey } from '@loupe/metrics';
import { useCallback, useMemo, useState } from 'react';
import { readStorage, writeStorage } from '../../../../lib/storage';
import { readVisibleMetrics } from '../performanceRules';

export function useVisibleMetrics(task: TaskType, kind: 'statistics' | 'overall') {
  const { visible: defaults, hidden } = PERFORMANCE_METRICS[task][kind];
  const choices = useMemo(() => [...defaults, ...hidden], [defaults, hidden]);
  const key = visibleMetricsKey(task, kind);
  const [visible, setVisibleState] = useState(() =>
    readVisibleMetrics(readStorage(key), choices, defaults),
  );
  const setVisible = useCallback(
    (next: readonly string[]) => {
      const ordered = choices.filter((id) => next.includes(id));
      if (ordered.length === 0) return;
      setVisibleState(ordered);
      writeStorage(key, JSON.stringify(ordered));
    },
    [choices, key],
  );
  return { visible, choices, setVisible };
}

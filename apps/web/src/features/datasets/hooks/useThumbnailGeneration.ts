// Follows a dataset's thumbnail job: while one is pending (or was just queued) the activities and
// the dataset are polled every 3000 ms (docs/product.md, Datasets §9), and the dataset is re-read once the
// job ends so its previews appear.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { queryKeys } from '../../../api/queryKeys';
import { useActivities } from '../../activities';

export const THUMBNAILS_POLL_MS = 3000;
const CLOCK_SLACK_MS = 2000;

export function useThumbnailGeneration(datasetId: string, expectingThumbnails: boolean) {
  const queryClient = useQueryClient();
  const [queuedAt, setQueuedAt] = useState<number | null>(null);
  const watching = queuedAt !== null || expectingThumbnails;
  const activities = useActivities('all', { pollMs: THUMBNAILS_POLL_MS, enabled: watching });
  // The newest thumbnail job of this dataset; right after queuing, an older finished one is not it
  // (a few seconds of slack for clocks).
  const job = activities.data?.find(
    (activity) =>
      activity.job_type === 'ThumbnailGeneration' &&
      activity.dataset_id === datasetId &&
      (queuedAt === null || activity.updated_at >= queuedAt - CLOCK_SLACK_MS),
  );
  const pending = watching && (job?.status === 'PENDING' || (queuedAt !== null && !job));

  useEffect(() => {
    if (queuedAt === null || !job || job.status === 'PENDING') return;
    setQueuedAt(null);
    void queryClient.invalidateQueries({ queryKey: queryKeys.datasets.all() });
  }, [job, queuedAt, queryClient]);

  /** Call just before asking the server to generate thumbnails. */
  const queuing = useCallback(() => setQueuedAt(Date.now()), []);
  const cancel = useCallback(() => setQueuedAt(null), []);
  return { pending, queuing, cancel };
}

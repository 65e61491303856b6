// The rules of the activities popover (docs/product.md, Shell §2, §9): which rows lead somewhere, how tall a
// row is, and how many activities the user has not seen yet.
import type { Activity } from '@loupe/contracts';

export const ACTIVITIES_POLL_MS = 2000;
export const LIST_WIDTH = 386;
export const LIST_HEIGHT = 428;
export const ROW_HEIGHT = 82;
export const EMBEDDINGS_ROW_HEIGHT = 104;
/** Seen ids kept per deployment; older ones fall out of the list the server answers anyway. */
export const MAX_SEEN_IDS = 1000;

export function rowHeight(activity: Activity): number {
  return activity.job_type === 'EmbeddingsComputation' ? EMBEDDINGS_ROW_HEIGHT : ROW_HEIGHT;
}

/** Where a click on an activity leads: only finished jobs about a dataset lead anywhere. */
export function activityTarget(activity: Activity): string | null {
  if (activity.status !== 'SUCCESS' || !activity.dataset_id) return null;
  return `/datasets/${encodeURIComponent(activity.dataset_id)}/overview`;
}

export function unseenCount(activities: Activity[], seenIds: readonly string[]): number {
  const seen = new Set(seenIds);
  return activities.filter((activity) => !seen.has(activity.id)).length;
}

/** The seen list after the user has looked at `activities`: newest first, bounded. */
export function markSeen(activities: Activity[], seenIds: readonly string[]): string[] {
  const next = [...new Set([...activities.map((activity) => activity.id), ...seenIds])];
  return next.slice(0, MAX_SEEN_IDS);
}

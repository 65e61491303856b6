// GET /api/activities: background jobs as activities, newest first (docs/product.md, Shell §7).
import type { Activity } from '@loupe/contracts';
import { http } from './client';

export type ActivityScope = 'my' | 'all';

export const activitiesApi = {
  getActivities: (scope: ActivityScope, signal?: AbortSignal) =>
    http.get<Activity[]>('/api/activities', { query: { scope, limit: 200 }, signal }),
};

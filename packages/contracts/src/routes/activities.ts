// Activities: background jobs as the user sees them, polled by the bell and the SDKs.
import { ActivitiesQuery, ActivityList } from '../activities.js';
import { defineRoute } from './define.js';

export const activities = {
  list: defineRoute({
    method: 'GET',
    path: '/api/activities',
    query: ActivitiesQuery,
    responses: { 200: ActivityList },
    errors: [400, 401],
    auth: 'user',
    license: false,
    summary: 'Background jobs as activities, newest first',
    tags: ['activities'],
  }),
};

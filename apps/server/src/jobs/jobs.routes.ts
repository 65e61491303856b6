// Activities: the background jobs a user sees in the Activity panel.
import { Activity, ActivitiesQuery } from '@loupe/contracts';
import { z } from 'zod';
import { actorOf } from '../http/context.js';
import { errors, type TypedApp } from '../http/route-kit.js';
import type { JobsService } from './jobs.service.js';

export function jobsRoutes(app: TypedApp, services: { jobs: JobsService }): void {
  const { jobs } = services;
  app.get(
    '/api/activities',
    {
      schema: {
        tags: ['activities'],
        summary: 'Background jobs as activities, newest first',
        querystring: ActivitiesQuery,
        response: { 200: z.array(Activity), ...errors(400, 401) },
      },
    },
    (request) => jobs.activities(actorOf(request), request.query.scope, request.query.limit),
  );
}

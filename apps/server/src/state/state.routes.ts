// Application state and health: what every client reads first.
import { AppState, Health } from '@loupe/contracts';
import { ping } from '../db/database.js';
import type { Database } from '../db/database.js';
import { errors, type TypedApp } from '../http/route-kit.js';
import type { StateService } from './state.service.js';
import { VERSION } from '../version.js';

export function stateRoutes(
  app: TypedApp,
  services: { state: StateService },
  database: Database,
): void {
  app.get(
    '/api/state',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['state'],
        summary: 'Application state, read on start',
        response: { 200: AppState },
      },
    },
    (request) => services.state.state(request.actor),
  );

  app.get(
    '/api/health',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['state'],
        summary: 'Liveness and database reachability',
        response: { 200: Health, ...errors(424) },
      },
    },
    async () => {
      await ping(database.db);
      return { status: 'ok' as const, version: VERSION, database: database.dialect };
    },
  );
}

// Application state and health: what every client reads first.
import { api } from '@loupe/contracts';
import { ping } from '../db/database.js';
import type { Database } from '../db/database.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { StateService } from './state.service.js';
import { VERSION } from '../version.js';

export function stateRoutes(
  app: TypedApp,
  services: { state: StateService },
  database: Database,
): void {
  registerRoute(app, api.state.get, (request) => services.state.state(request.actor));

  registerRoute(app, api.state.health, async () => {
    await ping(database.db);
    return { status: 'ok' as const, version: VERSION, database: database.dialect };
  });
}

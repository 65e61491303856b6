// The route table: every endpoint of the API once, grouped by resource. The server registers
// its routes from it, the OpenAPI document is generated from those, and the typed client
// (../client) calls them: `client.call(api.users.create, { body })`.
import { activities } from './activities.js';
import { apiKeys } from './api-keys.js';
import { attributions } from './attributions.js';
import { auth } from './auth.js';
import { comparison } from './comparison.js';
import { curation } from './curation.js';
import { datasets } from './datasets.js';
import type { RouteSpec } from './define.js';
import { embeddings } from './embeddings.js';
import { explore } from './explore.js';
import { features } from './features.js';
import { healthChecks } from './health-checks.js';
import { media } from './media.js';
import { performance } from './performance.js';
import { predictionSets } from './prediction-sets.js';
import { samples } from './samples.js';
import { sdk } from './sdk.js';
import { settings } from './settings.js';
import { setup } from './setup.js';
import { state } from './state.js';
import { subsets } from './subsets.js';
import { support } from './support.js';
import { users } from './users.js';

export * from './define.js';

export const api = {
  state,
  setup,
  auth,
  apiKeys,
  users,
  settings,
  support,
  datasets,
  samples,
  media,
  features,
  predictionSets,
  activities,
  explore,
  embeddings,
  subsets,
  curation,
  performance,
  comparison,
  healthChecks,
  attributions,
  sdk,
};

/** Every entry of the table with its name, `resource.name` (e.g. `users.create`). */
export const routes: readonly { readonly name: string; readonly route: RouteSpec }[] =
  Object.entries(api).flatMap(([resource, entries]) =>
    Object.entries(entries as Record<string, RouteSpec>).map(([name, route]) => ({
      name: `${resource}.${name}`,
      route,
    })),
  );

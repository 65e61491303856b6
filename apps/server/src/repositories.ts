// Every repository on one connection, for the composition root (services.ts), which hands each
// service only the ones it uses, and for benchmarks that write rows directly.
import type { Kysely } from 'kysely';
import { ApiKeysRepository } from './api-keys/api-keys.repository.js';
import { ResetTokensRepository, SessionsRepository } from './auth/sessions.repository.js';
import { DatasetsRepository } from './datasets/datasets.repository.js';
import type { Dialect } from './db/database.js';
import type { DB } from './db/schema.js';
import { EmbeddingsRepository } from './embeddings/embeddings.repository.js';
import { ExploreRepository } from './explore/explore.repository.js';
import { JobsRepository } from './jobs/jobs.repository.js';
import { PredictionsRepository } from './predictions/predictions.repository.js';
import { SettingsRepository } from './settings/settings.repository.js';
import { UsersRepository } from './users/users.repository.js';

export function createRepositories(db: Kysely<DB>, dialect: Dialect) {
  return {
    datasets: new DatasetsRepository(db, dialect),
    predictions: new PredictionsRepository(db),
    explore: new ExploreRepository(db),
    embeddings: new EmbeddingsRepository(db),
    jobs: new JobsRepository(db, dialect),
    users: new UsersRepository(db),
    sessions: new SessionsRepository(db),
    resetTokens: new ResetTokensRepository(db),
    settings: new SettingsRepository(db),
    apiKeys: new ApiKeysRepository(db),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;

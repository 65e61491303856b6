// The repositories bundle and the unit of work that gives services a transaction-scoped copy.
import type { Kysely } from 'kysely';
import { DatasetsRepository } from '../datasets/datasets.repository.js';
import { EmbeddingsRepository } from '../embeddings/embeddings.repository.js';
import { ExploreRepository } from '../explore/explore.repository.js';
import { PredictionsRepository } from '../predictions/predictions.repository.js';
import { ResetTokensRepository, SessionsRepository } from '../auth/sessions.repository.js';
import { ApiKeysRepository } from '../api-keys/api-keys.repository.js';
import { SettingsRepository } from '../settings/settings.repository.js';
import { UsersRepository } from '../users/users.repository.js';
import { JobsRepository } from '../jobs/jobs.repository.js';
import type { Dialect } from './database.js';
import type { DB } from './schema.js';

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

/** Runs `work` in one transaction: everything it writes lands together or not at all. */
export type Transact = <T>(work: (repos: Repositories) => Promise<T>) => Promise<T>;

export function transactor(db: Kysely<DB>, dialect: Dialect): Transact {
  return (work) => db.transaction().execute((trx) => work(createRepositories(trx, dialect)));
}

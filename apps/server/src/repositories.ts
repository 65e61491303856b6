// Every repository on one connection, for the composition root (services.ts), which hands each
// service only the ones it uses, and for benchmarks that write rows directly.
import type { Kysely } from 'kysely';
import { ApiKeysRepository } from './api-keys/api-keys.repository.js';
import { AttributionsRepository } from './attributions/attributions.repository.js';
import { ActionsRepository } from './curation/actions.repository.js';
import { ComparisonRepository } from './comparison/comparison.repository.js';
import { ResetTokensRepository, SessionsRepository } from './auth/sessions.repository.js';
import { DatasetsRepository } from './datasets/datasets.repository.js';
import { HistoryRepository } from './datasets/history.repository.js';
import { MetadataFieldsRepository } from './datasets/metadata-fields.repository.js';
import type { Dialect } from './db/database.js';
import type { DB } from './db/schema.js';
import { EmbeddingsRepository } from './embeddings/embeddings.repository.js';
import { ExportRepository } from './export/export.repository.js';
import { ExploreRepository } from './explore/explore.repository.js';
import { FeaturesRepository } from './features/features.repository.js';
import { HealthChecksRepository } from './health-checks/health-checks.repository.js';
import { JobsRepository } from './jobs/jobs.repository.js';
import { MediaRepository } from './media/media.repository.js';
import { PerformanceRepository } from './performance/performance.repository.js';
import { PredictionSetsRepository } from './prediction-sets/prediction-sets.repository.js';
import { SamplesRepository } from './samples/samples.repository.js';
import { SettingsRepository } from './settings/settings.repository.js';
import { SubsetsRepository } from './subsets/subsets.repository.js';
import { UsersRepository } from './users/users.repository.js';

export function createRepositories(db: Kysely<DB>, dialect: Dialect) {
  return {
    datasets: new DatasetsRepository(db, dialect),
    history: new HistoryRepository(db, dialect),
    actions: new ActionsRepository(db, dialect),
    metadataFields: new MetadataFieldsRepository(db),
    samples: new SamplesRepository(db, dialect),
    subsets: new SubsetsRepository(db, dialect),
    media: new MediaRepository(db),
    features: new FeaturesRepository(db),
    predictionSets: new PredictionSetsRepository(db),
    explore: new ExploreRepository(db),
    exports: new ExportRepository(db, dialect),
    embeddings: new EmbeddingsRepository(db),
    performance: new PerformanceRepository(db, dialect),
    comparison: new ComparisonRepository(db),
    healthChecks: new HealthChecksRepository(db),
    attributions: new AttributionsRepository(db),
    jobs: new JobsRepository(db, dialect),
    users: new UsersRepository(db),
    sessions: new SessionsRepository(db),
    resetTokens: new ResetTokensRepository(db),
    settings: new SettingsRepository(db),
    apiKeys: new ApiKeysRepository(db),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;

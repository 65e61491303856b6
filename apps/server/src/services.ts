// Composition root: builds every service from the configuration, the database, the logger and
// the clock.
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import type { BlobStoreConfig, Config } from './config.js';
import { DatasetsService } from './datasets/datasets.service.js';
import { ComputePool } from './embeddings/compute-pool.js';
import { embeddingsJob } from './embeddings/embeddings.job.js';
import { EmbeddingsService } from './embeddings/embeddings.service.js';
import { SimilaritySearch } from './embeddings/similarity.js';
import { ExploreService } from './explore/explore.service.js';
import { ItemTableCache } from './explore/item-table-cache.js';
import type { JobHandlers } from './jobs/job-types.js';
import { JobsService } from './jobs/jobs.service.js';
import { MediaPool } from './processing/media-pool.js';
import { metadataJob } from './processing/metadata.js';
import { lazyEmbedder } from './processing/onnx-embedder.js';
import { thumbnailJob } from './processing/thumbnails.js';
import { LocalBlobStore, S3BlobStore, type BlobStore } from './storage/blob-store.js';
import { MediaResolver } from './storage/media.js';
import { ApiKeysService } from './api-keys/api-keys.service.js';
import { AuthService } from './auth/auth.service.js';
import { SessionCache } from './auth/session-cache.js';
import { LoginLimiter, ResetLimiter } from './auth/login-limiter.js';
import type { Database } from './db/database.js';
import { transactor } from './db/transact.js';
import { createRepositories } from './repositories.js';
import { PlannerStatistics } from './db/statistics.js';
import { licensePublicKey } from './license/license-token.js';
import { LicenseService } from './license/license.service.js';
import { localIssuerPublicKey } from './license/local-issuer.js';
import { systemClock, type Clock } from './platform/clock.js';
import type { LogBuffer } from './platform/log-buffer.js';
import { Outbound } from './platform/outbound.js';
import { SecretBox } from './platform/secret-box.js';
import { SetupService } from './setup/setup.service.js';
import { StateService } from './state/state.service.js';
import { SupportService } from './support/support.service.js';
import { UsersService } from './users/users.service.js';

export function createServices(
  config: Config,
  database: Database,
  logs: LogBuffer,
  log: FastifyBaseLogger,
  clock: Clock = systemClock,
) {
  // Every file is decoded once: libvips's operation cache would only hold memory and cost lookups.
  sharp.cache(false);
  const repos = createRepositories(database.db, database.dialect);
  const transact = transactor(database.db, (db) => createRepositories(db, database.dialect));
  const secrets = SecretBox.fromConfig(config.secretKey, config.dataDir);
  const sessionCache = new SessionCache(clock);
  const auth = new AuthService(
    repos,
    transact,
    clock,
    new LoginLimiter(),
    new ResetLimiter(),
    sessionCache,
  );
  const license = new LicenseService(
    repos.settings,
    licensePublicKey(config.licensePublicKey),
    clock,
    () => localIssuerPublicKey(config.dataDir),
  );
  const setup = new SetupService(repos.settings, transact, auth, clock);
  const blobs = createBlobStore(config.blobStore);
  const media = new MediaResolver(blobs, {
    roots: config.mediaRoots,
    maxBytes: config.mediaLimitBytes,
    outbound: new Outbound({
      allow: config.mediaUrlAllow,
      timeoutMs: config.mediaUrlTimeoutMs,
      maxBytes: config.mediaLimitBytes,
    }),
    log,
  });
  const jobs = new JobsService(
    repos.jobs,
    async () => new Map((await repos.datasets.list()).map((d) => [d.id, d.name])),
    clock,
  );
  const statistics = new PlannerStatistics(database.db, database.dialect, log);
  const compute = new ComputePool();
  const mediaPool = new MediaPool(config.media);
  const explore = new ExploreService(repos, new ItemTableCache(config.exploreCacheBytes));
  const handlers: JobHandlers = {
    EmbeddingsComputation: embeddingsJob(repos, compute, clock),
    ThumbnailGeneration: thumbnailJob(repos, transact, blobs, media, mediaPool),
    MetadataAndFeaturesComputation: metadataJob(
      repos,
      transact,
      blobs,
      media,
      mediaPool,
      clock,
      lazyEmbedder(config.onnxModel),
    ),
  };
  return {
    blobs,
    media,
    jobs,
    handlers,
    jobsRepository: repos.jobs,
    datasets: new DatasetsService(
      repos,
      transact,
      license,
      jobs,
      blobs,
      media,
      clock,
      statistics,
      config.mediaLimitBytes,
    ),
    statistics,
    explore,
    compute,
    mediaPool,
    embeddings: new EmbeddingsService(
      repos,
      explore,
      jobs,
      license,
      new SimilaritySearch(repos, blobs, compute),
      clock,
    ),
    auth,
    apiKeys: new ApiKeysService(repos.apiKeys, clock, secrets),
    license,
    setup,
    state: new StateService(repos.settings, setup, license, config),
    users: new UsersService(repos, transact, clock, sessionCache),
    support: new SupportService(database, config, logs, clock),
  };
}
export type Services = ReturnType<typeof createServices>;

export function createBlobStore(config: BlobStoreConfig): BlobStore {
  if (config.kind === 'local') return new LocalBlobStore(config.root);
  return new S3BlobStore({
    bucket: config.bucket,
    prefix: config.prefix,
    client: {
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    },
  });
}

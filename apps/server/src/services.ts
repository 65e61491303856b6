// Composition root: builds every service from the configuration, the database, the logger and
// the clock, handing each only the repositories and services it uses.
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { ApiKeysService } from './api-keys/api-keys.service.js';
import { AttributionsService } from './attributions/attributions.service.js';
import { AuthService } from './auth/auth.service.js';
import { LoginLimiter, ResetLimiter } from './auth/login-limiter.js';
import { SessionCache } from './auth/session-cache.js';
import type { BlobStoreConfig, Config } from './config.js';
import { ComparisonJobsService } from './comparison/comparison-jobs.service.js';
import { modelComparisonJob } from './comparison/comparison.job.js';
import { ComparisonService } from './comparison/comparison.service.js';
import { ActionsService } from './curation/actions.service.js';
import { DatasetsService } from './datasets/datasets.service.js';
import type { Database } from './db/database.js';
import { PlannerStatistics } from './db/statistics.js';
import { transactor } from './db/transact.js';
import { ComputePool } from './embeddings/compute-pool.js';
import { embeddingsJob } from './embeddings/embeddings.job.js';
import { EmbeddingsService } from './embeddings/embeddings.service.js';
import { LayoutsService } from './embeddings/layouts.service.js';
import { SimilaritySearch } from './embeddings/similarity.js';
import { ExportService } from './export/export.service.js';
import { ExploreService } from './explore/explore.service.js';
import { ItemTableCache } from './explore/item-table-cache.js';
import { TableBuilder } from './explore/table-builder.js';
import { TableSnapshots } from './explore/table-snapshots.js';
import { FeaturesService } from './features/features.service.js';
import { HealthCheckColumns } from './health-checks/check-columns-source.js';
import { ChecksJobsService } from './health-checks/checks-jobs.service.js';
import { forgetCheckState } from './health-checks/check-state.js';
import { ChecksPool } from './health-checks/checks-pool.js';
import { CATALOGUE_SOURCE } from './health-checks/definition-sources.js';
import { enqueueChecks } from './health-checks/enqueue.js';
import { HealthChecksService } from './health-checks/health-checks.service.js';
import { qualityScoresJob } from './health-checks/quality-scores.job.js';
import { CheckCatalogue } from './health-checks/registry.js';
import type { JobHandlers } from './jobs/job-types.js';
import { JobsService } from './jobs/jobs.service.js';
import { licensePublicKey } from './license/license-token.js';
import { LicenseService } from './license/license.service.js';
import { localIssuerPublicKey } from './license/local-issuer.js';
import { MediaService } from './media/media.service.js';
import { MaskStatsService } from './metadata/mask-stats.service.js';
import { metadataJob } from './metadata/metadata.job.js';
import { MetadataService } from './metadata/metadata.service.js';
import { systemClock, type Clock } from './platform/clock.js';
import { EvaluationCache } from './performance/evaluation-cache.js';
import { PerformanceJobsService } from './performance/performance-jobs.service.js';
import { finegrainedPerformanceJob, performanceReportJob } from './performance/performance.job.js';
import { PerformanceService } from './performance/performance.service.js';
import { PerformancePool } from './performance/performance-pool.js';
import type { LogBuffer } from './platform/log-buffer.js';
import { Outbound } from './platform/outbound.js';
import { SecretBox } from './platform/secret-box.js';
import { PredictionSetsService } from './prediction-sets/prediction-sets.service.js';
import { MediaPool } from './processing/media-pool.js';
import { lazyEmbedder } from './processing/onnx-embedder.js';
import { createRepositories } from './repositories.js';
import { SamplesService } from './samples/samples.service.js';
import { SetupService } from './setup/setup.service.js';
import { StateService } from './state/state.service.js';
import { LocalBlobStore, S3BlobStore, type BlobStore } from './storage/blob-store.js';
import { MediaResolver } from './storage/media.js';
import { SubsetsService } from './subsets/subsets.service.js';
import { SupportService } from './support/support.service.js';
import { thumbnailsJob } from './thumbnails/thumbnails.job.js';
import { ThumbnailsService } from './thumbnails/thumbnails.service.js';
import { systemActor } from './users/actor.js';
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
  // A transaction binds every repository to its connection; each service's type names the ones
  // it writes through.
  const transact = transactor(database.db, (db) => createRepositories(db, database.dialect));
  const secrets = SecretBox.fromConfig(config.secretKey, config.dataDir);
  const sessionCache = new SessionCache(clock);
  const blobs = createBlobStore(config.blobStore);
  const resolver = new MediaResolver(blobs, {
    roots: config.mediaRoots,
    maxBytes: config.mediaLimitBytes,
    outbound: new Outbound({
      allow: config.mediaUrlAllow,
      timeoutMs: config.mediaUrlTimeoutMs,
      maxBytes: config.mediaLimitBytes,
    }),
    log,
  });
  const statistics = new PlannerStatistics(database.db, database.dialect, log);
  const compute = new ComputePool();
  const mediaPool = new MediaPool(config.media);

  const auth = new AuthService(
    {
      users: repos.users,
      sessions: repos.sessions,
      resetTokens: repos.resetTokens,
      apiKeys: repos.apiKeys,
    },
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
  const jobs = new JobsService(repos.jobs, () => repos.datasets.names(), clock);

  // Search state the health checks keep between runs (docs/health-checks.md).
  const checkStateDir = join(config.dataDir, 'check-state');
  // The explorer's tables written per data version (docs/explore-snapshots.md).
  const tableSnapshots = config.exploreSnapshotDir
    ? new TableSnapshots(config.exploreSnapshotDir, (message, error) =>
        log.warn({ err: error }, message),
      )
    : undefined;
  const datasets = new DatasetsService(
    {
      datasets: repos.datasets,
      history: repos.history,
      users: repos.users,
      healthChecks: repos.healthChecks,
    },
    transact,
    license,
    jobs,
    blobs,
    clock,
    // Deleting a dataset removes its explorer tables and the checks' kept search state.
    {
      forget: async (id: string) => {
        await tableSnapshots?.forget(id);
        await forgetCheckState(checkStateDir, id);
      },
    },
  );
  const media = new MediaService(
    { datasets: repos.datasets, media: repos.media },
    license,
    blobs,
    clock,
    config.mediaLimitBytes,
  );
  const samples = new SamplesService(
    { datasets: repos.datasets, samples: repos.samples, metadataFields: repos.metadataFields },
    transact,
    license,
    jobs,
    media,
    resolver,
    blobs,
    clock,
    statistics,
  );
  const features = new FeaturesService(
    {
      datasets: repos.datasets,
      features: repos.features,
      samples: repos.samples,
      predictionSets: repos.predictionSets,
      attributions: repos.attributions,
    },
    transact,
    license,
    clock,
    jobs,
  );
  const predictionSets = new PredictionSetsService(
    {
      datasets: repos.datasets,
      predictionSets: repos.predictionSets,
      samples: repos.samples,
      metadataFields: repos.metadataFields,
    },
    transact,
    license,
    media,
    resolver,
    clock,
    statistics,
    jobs,
  );
  // One process's loads of evaluation data, shared by the performance jobs and reads.
  const evaluations = new EvaluationCache({
    repo: repos.performance,
    readMedia: (datasetId, ref) => resolver.read(datasetId, ref),
  });
  // Reports, curves and slice metrics are computed on their own thread.
  const performanceCompute = new PerformancePool();
  // The check definitions (docs/health-checks.md, "The catalogue"), imported by URL.
  const checkCatalogue = new CheckCatalogue([CATALOGUE_SOURCE]);
  // Comparisons of two models; the explorer shows their compared items while one is its context.
  const comparison = new ComparisonService(
    {
      datasets: repos.datasets,
      predictionSets: repos.predictionSets,
      subsets: repos.subsets,
      performance: repos.performance,
      comparison: repos.comparison,
    },
    evaluations,
    performanceCompute,
    jobs,
    license,
  );
  const explore = new ExploreService(
    {
      datasets: repos.datasets,
      predictionSets: repos.predictionSets,
      metadataFields: repos.metadataFields,
      history: repos.history,
      samples: repos.samples,
      features: repos.features,
      explore: repos.explore,
      subsets: repos.subsets,
    },
    new ItemTableCache(config.exploreCacheBytes),
    comparison,
    new HealthCheckColumns(repos.healthChecks, checkCatalogue),
    tableSnapshots,
    // Large tables are built on a thread that writes their files (docs/explore-snapshots.md).
    config.exploreSnapshotDir && TableBuilder.supports(config.database)
      ? new TableBuilder(config.database, config.exploreSnapshotDir, config.exploreThreadItems)
      : undefined,
  );
  // Health checks run on their own thread; custom checks through the explorer's filter.
  const checksCompute = new ChecksPool({ stateDir: checkStateDir });
  const healthChecks = new HealthChecksService(
    {
      datasets: repos.datasets,
      predictionSets: repos.predictionSets,
      features: repos.features,
      healthChecks: repos.healthChecks,
    },
    checkCatalogue,
    explore,
    jobs,
    license,
    clock,
  );
  const subsets = new SubsetsService(
    { datasets: repos.datasets, subsets: repos.subsets },
    transact,
    license,
    clock,
    explore,
  );
  const actions = new ActionsService(
    { datasets: repos.datasets, predictionSets: repos.predictionSets, history: repos.history },
    transact,
    license,
    explore,
    healthChecks,
    clock,
  );
  const embeddings = new EmbeddingsService(
    {
      datasets: repos.datasets,
      features: repos.features,
      predictionSets: repos.predictionSets,
      embeddings: repos.embeddings,
    },
    explore,
    jobs,
    license,
    new SimilaritySearch(
      { features: repos.features, embeddings: repos.embeddings },
      blobs,
      compute,
    ),
    clock,
  );
  const performance = new PerformanceService(
    {
      datasets: repos.datasets,
      predictionSets: repos.predictionSets,
      subsets: repos.subsets,
      performance: repos.performance,
    },
    evaluations,
    performanceCompute,
    explore,
    jobs,
    license,
  );
  const performanceJobs = new PerformanceJobsService(
    {
      datasets: repos.datasets,
      predictionSets: repos.predictionSets,
      subsets: repos.subsets,
      performance: repos.performance,
    },
    evaluations,
    performanceCompute,
    clock,
  );

  const handlers: JobHandlers = {
    EmbeddingsComputation: embeddingsJob(
      new LayoutsService(
        { features: repos.features, embeddings: repos.embeddings },
        compute,
        clock,
      ),
    ),
    ThumbnailGeneration: thumbnailsJob(
      new ThumbnailsService(
        { datasets: repos.datasets, samples: repos.samples },
        transact,
        blobs,
        resolver,
        mediaPool,
      ),
    ),
    MetadataAndFeaturesComputation: metadataJob(
      new MetadataService(
        { datasets: repos.datasets, samples: repos.samples, metadataFields: repos.metadataFields },
        transact,
        blobs,
        resolver,
        mediaPool,
        clock,
        lazyEmbedder(config.onnxModel),
      ),
      new MaskStatsService(
        { datasets: repos.datasets, predictionSets: repos.predictionSets },
        transact,
        resolver,
      ),
      (datasetId) => enqueueChecks(jobs, repos.datasets, datasetId, systemActor('metadata pass')),
    ),
    PerformanceReportComputation: performanceReportJob(performanceJobs),
    FinegrainedPerformanceComputation: finegrainedPerformanceJob(performanceJobs),
    ModelComparisonComputation: modelComparisonJob(
      new ComparisonJobsService(
        {
          datasets: repos.datasets,
          predictionSets: repos.predictionSets,
          comparison: repos.comparison,
        },
        evaluations,
        performanceCompute,
        clock,
      ),
    ),
    QualityScoresComputation: qualityScoresJob(
      new ChecksJobsService(
        {
          datasets: repos.datasets,
          predictionSets: repos.predictionSets,
          features: repos.features,
          embeddings: repos.embeddings,
          healthChecks: repos.healthChecks,
        },
        checkCatalogue,
        explore,
        evaluations,
        checksCompute,
        clock,
      ),
    ),
  };

  return {
    blobs,
    jobs,
    handlers,
    jobsRepository: repos.jobs,
    statistics,
    compute,
    mediaPool,
    performanceCompute,
    checksCompute,
    checkCatalogue,
    auth,
    license,
    setup,
    state: new StateService(repos.settings, setup, license, config),
    users: new UsersService(
      { users: repos.users, settings: repos.settings },
      transact,
      clock,
      sessionCache,
    ),
    apiKeys: new ApiKeysService(repos.apiKeys, clock, secrets),
    support: new SupportService(database, config, logs, clock),
    datasets,
    media,
    samples,
    features,
    predictionSets,
    explore,
    embeddings,
    subsets,
    actions,
    performance,
    comparison,
    healthChecks,
    attributions: new AttributionsService(
      {
        datasets: repos.datasets,
        predictionSets: repos.predictionSets,
        attributions: repos.attributions,
        features: repos.features,
      },
      transact,
      license,
      resolver,
    ),
    exports: new ExportService(
      {
        datasets: repos.datasets,
        metadataFields: repos.metadataFields,
        predictionSets: repos.predictionSets,
        exports: repos.exports,
      },
      license,
      blobs,
      resolver,
      clock,
      join(config.dataDir, 'tmp', 'exports'),
    ),
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

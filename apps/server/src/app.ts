// Builds the Fastify application: plugins, authentication context, error handling, the OpenAPI
// document, every feature's routes, and the built web app with its SPA fallback.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { FastifySchema } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import pino from 'pino';
import { apiKeysRoutes } from './api-keys/api-keys.routes.js';
import { attributionsRoutes } from './attributions/attributions.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { actionsRoutes } from './curation/actions.routes.js';
import {
  datasetHistoryRoutes,
  datasetSettingsRoutes,
  datasetsRoutes,
} from './datasets/datasets.routes.js';
import { embeddingsRoutes } from './embeddings/embeddings.routes.js';
import { comparisonRoutes } from './comparison/comparison.routes.js';
import { exploreRoutes } from './explore/explore.routes.js';
import { exportRoutes } from './export/export.routes.js';
import { featuresRoutes } from './features/features.routes.js';
import { healthChecksRoutes } from './health-checks/health-checks.routes.js';
import { DEFAULT_RUNNER_OPTIONS, JobRunner } from './jobs/job-runner.js';
import { jobsRoutes } from './jobs/jobs.routes.js';
import { LeaseKeeper } from './jobs/lease-keeper.js';
import { mediaRoutes } from './media/media.routes.js';
import { performanceRoutes } from './performance/performance.routes.js';
import { predictionSetsRoutes } from './prediction-sets/prediction-sets.routes.js';
import { samplesRoutes } from './samples/samples.routes.js';
import { WheelCache } from './sdk/python-wheel.js';
import { sdkRoutes } from './sdk/sdk.routes.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { registerContext } from './http/context.js';
import { registerErrorHandler } from './http/error-handler.js';
import { registerJsonParser } from './http/json-body.js';
import { RequestLogController } from './http/request-log.js';
import { typed } from './http/route-kit.js';
import { systemClock, type Clock } from './platform/clock.js';
import { LogBuffer } from './platform/log-buffer.js';
import { LOG_REDACTION, isPretty, prettyDestination } from './platform/log-format.js';
import { createServices, type Services } from './services.js';
import { settingsRoutes } from './settings/settings.routes.js';
import { setupRoutes } from './setup/setup.routes.js';
import { stateRoutes } from './state/state.routes.js';
import { subsetsRoutes } from './subsets/subsets.routes.js';
import { supportRoutes } from './support/support.routes.js';
import { usersRoutes } from './users/users.routes.js';
import { VERSION } from './version.js';

export interface BuildOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  /** Where logs go besides the in-memory buffer; defaults to stdout. */
  logStream?: NodeJS.WritableStream;
}

/** The origin of an http(s) URL, as a CSP source; nothing for none or another scheme. */
function originOf(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const { protocol, origin } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' ? [origin] : [];
  } catch {
    return [];
  }
}

export interface RouteInfo {
  method: string;
  url: string;
  public: boolean;
  schema?: FastifySchema;
}

export async function buildApp(
  options: BuildOptions,
): Promise<{ app: FastifyInstance; services: Services; routes: RouteInfo[]; runner: JobRunner }> {
  const { config, database } = options;
  const logs = new LogBuffer();
  const out = options.logStream ?? process.stdout;
  // Readable lines on a terminal, JSON elsewhere; the support bundle's buffer always keeps JSON.
  const logger = pino(
    { level: config.logLevel, redact: LOG_REDACTION },
    pino.multistream([
      {
        stream: isPretty(config.logFormat, out) ? prettyDestination(out) : out,
        level: config.logLevel as pino.Level,
      },
      { stream: { write: (line: string) => logs.write(line) }, level: 'info' },
    ]),
  );
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new RequestLogController(),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  registerJsonParser(app);

  const services = createServices(
    config,
    database,
    logs,
    logger as FastifyBaseLogger,
    options.clock ?? systemClock,
  );

  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        // The embeddings map draws with regl (through regl-scatterplot), which compiles its
        // draw calls with new Function: without 'unsafe-eval' the map cannot start.
        'script-src': ["'self'", "'unsafe-eval'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'data:', 'blob:'],
        'worker-src': ["'self'", 'blob:'],
        // The web app calls its own API, and the versions check its configured address.
        'connect-src': ["'self'", ...originOf(config.versionsUrl)],
        'upgrade-insecure-requests': null,
      },
    },
    strictTransportSecurity: false,
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Loupe API',
        version: VERSION,
        description: 'The HTTP API of a Loupe instance.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'loupe_session' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ session: [] }, { apiKey: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  // The route table, for tests that sweep every route (fuzzing, permissions).
  const routes: RouteInfo[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || !route.url.startsWith('/api/')) continue;
      routes.push({
        method,
        url: route.url,
        public: route.config?.auth === 'public',
        schema: route.schema,
      });
    }
  });

  registerErrorHandler(app, config.bodyLimitBytes);
  registerContext(app, { auth: services.auth }, config.publicUrl);

  // Each routes function gets the services it calls. They are registered in this order so the
  // OpenAPI document lists the paths as it always has.
  const api = typed(app);
  const { blobs } = services;
  stateRoutes(api, { state: services.state }, database);
  setupRoutes(api, { setup: services.setup }, config);
  authRoutes(api, { auth: services.auth, users: services.users }, config);
  apiKeysRoutes(api, { apiKeys: services.apiKeys });
  usersRoutes(api, { users: services.users });
  settingsRoutes(api, { apiKeys: services.apiKeys, license: services.license }, config);
  // The one route that takes an HTML form post (the support bundle download); every other
  // route answers 415 to a form body.
  await app.register(async (scope) => {
    await scope.register(fastifyFormbody, { bodyLimit: config.bodyLimitBytes });
    supportRoutes(typed(scope), { support: services.support });
  });
  datasetsRoutes(api, { datasets: services.datasets });
  mediaRoutes(api, { media: services.media, blobs });
  samplesRoutes(api, { samples: services.samples, blobs });
  datasetHistoryRoutes(api, { datasets: services.datasets });
  featuresRoutes(api, { features: services.features });
  datasetSettingsRoutes(api, { datasets: services.datasets });
  predictionSetsRoutes(api, { predictionSets: services.predictionSets });
  jobsRoutes(api, { jobs: services.jobs });
  exploreRoutes(api, { explore: services.explore });
  embeddingsRoutes(api, { embeddings: services.embeddings });
  subsetsRoutes(api, { subsets: services.subsets });
  actionsRoutes(api, { actions: services.actions });
  performanceRoutes(api, { performance: services.performance });
  comparisonRoutes(api, { comparison: services.comparison });
  healthChecksRoutes(api, { healthChecks: services.healthChecks });
  attributionsRoutes(api, { attributions: services.attributions });
  exportRoutes(api, { exports: services.exports });
  sdkRoutes(api, new WheelCache(config.sdkDir));
  app.get('/api/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, () =>
    app.swagger(),
  );

  const webIndex = join(config.webDir, 'index.html');
  const serveWeb = existsSync(webIndex);
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: config.webDir,
      // Files are looked up per request, so a rebuilt web app is served without a restart.
      wildcard: true,
      index: ['index.html'],
      redirect: false,
      setHeaders: (reply, path) => {
        // Vite fingerprints everything under assets/, so those never change.
        void reply.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (serveWeb && request.method === 'GET' && !path.startsWith('/api/') && path !== '/api') {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({
      description: `No route ${request.method} ${path}.`,
      retriable: false,
    });
  });

  // The in-process worker; main.ts starts it unless LOUPE_WORKER=false (API-only processes).
  const runner = new JobRunner(
    services.jobsRepository,
    services.handlers,
    options.clock ?? systemClock,
    app.log,
    {
      ...DEFAULT_RUNNER_OPTIONS,
      concurrency: config.workerConcurrency,
      // The keeper's thread reads the system clock, so not under a test's own clock.
      leaseKeeper: options.clock
        ? undefined
        : LeaseKeeper.for(config.database, DEFAULT_RUNNER_OPTIONS.leaseMs, app.log),
    },
  );
  services.jobs.onEnqueue(() => runner.poke());
  app.addHook('onClose', async () => {
    await runner.stop();
    await services.compute.close();
    await services.mediaPool.close();
    await services.performanceCompute.close();
    await services.checksCompute.close();
    // Explorer table files being written finish before the data directory may go.
    await services.explore.close();
  });

  return { app, services, routes, runner };
}

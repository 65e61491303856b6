// Configuration read from the environment once at start; every variable is listed in
// docs/configuration.md.
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { AllowList } from './platform/outbound.js';

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  LOUPE_DATA_DIR: z.string().default('data'),
  DATABASE_URL: z.string().optional(),
  LOUPE_DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'LOUPE_DATABASE_SCHEMA must be a lower-case SQL identifier')
    .optional(),
  LOUPE_LICENSE_PUBLIC_KEY: z.string().optional(),
  LOUPE_SECRET_KEY: z.string().optional(),
  LOUPE_PUBLIC_URL: z.string().url().optional(),
  LOUPE_VERSIONS_URL: z.string().optional(),
  LOUPE_ENV: z.enum(['production', 'development']).default('production'),
  LOUPE_WEB_DIR: z.string().optional(),
  LOUPE_SDK_DIR: z.string().optional(),
  LOUPE_ONNX_MODEL: z.string().optional(),
  LOUPE_COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  LOUPE_BODY_LIMIT_MB: z.coerce.number().positive().default(64),
  LOUPE_MEDIA_LIMIT_MB: z.coerce
    .number()
    .positive()
    .max(5000, 'LOUPE_MEDIA_LIMIT_MB must be at most 5000 (an S3 copy takes at most 5 GB)')
    .default(200),
  LOUPE_EXPLORE_CACHE_MB: z.coerce.number().positive().default(2048),
  LOUPE_EXPLORE_SNAPSHOTS: z.enum(['true', 'false']).default('true'),
  LOUPE_EXPLORE_THREAD_ITEMS: z.coerce.number().int().min(0).default(50_000),
  LOUPE_TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  LOUPE_BLOB_STORE: z
    .string()
    .regex(
      /^(local|s3:\/\/[^/]+(\/.*)?)$/,
      'LOUPE_BLOB_STORE must be "local" or s3://bucket[/prefix]',
    )
    .default('local'),
  LOUPE_S3_ENDPOINT: z.string().url().optional(),
  LOUPE_S3_REGION: z.string().default('us-east-1'),
  LOUPE_S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  LOUPE_MEDIA_ROOTS: z.string().default(''),
  LOUPE_MEDIA_URL_ALLOW: z
    .string()
    .default('')
    .superRefine((value, context) => {
      try {
        new AllowList(value.split(','));
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  LOUPE_MEDIA_URL_TIMEOUT_S: z.coerce.number().positive().default(60),
  LOUPE_WORKER: z.enum(['true', 'false']).default('true'),
  LOUPE_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  LOUPE_MEDIA_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  LOUPE_MEDIA_TIMEOUT_S: z.coerce.number().positive().default(60),
  LOUPE_MEDIA_MAX_PIXELS: z.coerce.number().int().positive().default(100_000_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
});

export type DatabaseConfig =
  { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema?: string };

export type BlobStoreConfig =
  | { kind: 'local'; root: string }
  | {
      kind: 's3';
      bucket: string;
      prefix: string;
      endpoint?: string;
      region: string;
      forcePathStyle: boolean;
    };

export interface Config {
  blobStore: BlobStoreConfig;
  /** Folders whose files uploads may reference by path. */
  mediaRoots: string[];
  /** Hosts, addresses and CIDR ranges media URLs may reach although they are not public. */
  mediaUrlAllow: string[];
  /** How long fetching one media URL may take, redirects and body included. */
  mediaUrlTimeoutMs: number;
  /** Whether this process also runs background jobs. */
  worker: boolean;
  /** Jobs a worker runs at once. */
  workerConcurrency: number;
  /** Threads that decode and measure media, the deadline per file, and the largest image. */
  media: { threads: number; timeoutMs: number; maxPixels: number };
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  licensePublicKey?: string;
  secretKey?: string;
  publicUrl?: string;
  versionsUrl?: string;
  environment: 'production' | 'development';
  webDir: string;
  /** The Python SDK sources the instance serves for pip. */
  sdkDir: string;
  /** An optional ONNX image embedding model whose vectors become a computed feature. */
  onnxModel?: string;
  cookieSecure: 'auto' | 'true' | 'false';
  bodyLimitBytes: number;
  /** The largest media file one upload may send; streamed, never held in memory. */
  mediaLimitBytes: number;
  /** Memory the explorer's item tables may hold before the least recently used go. */
  exploreCacheBytes: number;
  /** Where explorer tables are written per data version (docs/explore-snapshots.md); null: never. */
  exploreSnapshotDir: string | null;
  /** Tables of this many items or more are built on a worker thread (with the files on). */
  exploreThreadItems: number;
  trustProxy: boolean;
  logLevel: string;
  /** JSON lines, readable lines, or readable on a terminal only. */
  logFormat: 'auto' | 'json' | 'pretty';
}

/** Reads the configuration; throws with every problem named when a variable is wrong. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const dataDir = isAbsolute(e.LOUPE_DATA_DIR) ? e.LOUPE_DATA_DIR : resolve(cwd, e.LOUPE_DATA_DIR);
  let database: DatabaseConfig;
  if (e.DATABASE_URL && /^postgres(ql)?:\/\//.test(e.DATABASE_URL)) {
    database = { kind: 'postgres', url: e.DATABASE_URL, schema: e.LOUPE_DATABASE_SCHEMA };
  } else if (e.DATABASE_URL && !e.DATABASE_URL.startsWith('sqlite:')) {
    throw new Error('Invalid configuration: DATABASE_URL must start with postgres:// or sqlite:');
  } else {
    const file = e.DATABASE_URL?.slice('sqlite:'.length) || join(dataDir, 'loupe.db');
    database = { kind: 'sqlite', path: file === ':memory:' ? file : resolve(dataDir, file) };
  }
  let blobStore: BlobStoreConfig = { kind: 'local', root: join(dataDir, 'blobs') };
  if (e.LOUPE_BLOB_STORE.startsWith('s3://')) {
    const [bucket, ...prefix] = e.LOUPE_BLOB_STORE.slice('s3://'.length).split('/');
    blobStore = {
      kind: 's3',
      bucket: bucket!,
      prefix: prefix.join('/').replace(/\/+$/, ''),
      endpoint: e.LOUPE_S3_ENDPOINT,
      region: e.LOUPE_S3_REGION,
      forcePathStyle: e.LOUPE_S3_FORCE_PATH_STYLE
        ? e.LOUPE_S3_FORCE_PATH_STYLE === 'true'
        : Boolean(e.LOUPE_S3_ENDPOINT),
    };
  }
  return {
    blobStore,
    mediaRoots: e.LOUPE_MEDIA_ROOTS.split(':')
      .filter(Boolean)
      .map((root) => resolve(cwd, root)),
    mediaUrlAllow: e.LOUPE_MEDIA_URL_ALLOW.split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    mediaUrlTimeoutMs: Math.round(e.LOUPE_MEDIA_URL_TIMEOUT_S * 1000),
    worker: e.LOUPE_WORKER === 'true',
    workerConcurrency: e.LOUPE_WORKER_CONCURRENCY,
    media: {
      // One thread per core up to four: the API, uploads and the database keep cores of their own.
      threads: e.LOUPE_MEDIA_THREADS ?? Math.max(1, Math.min(4, availableParallelism())),
      timeoutMs: Math.round(e.LOUPE_MEDIA_TIMEOUT_S * 1000),
      maxPixels: e.LOUPE_MEDIA_MAX_PIXELS,
    },
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database,
    licensePublicKey: e.LOUPE_LICENSE_PUBLIC_KEY?.replace(/\\n/g, '\n'),
    secretKey: e.LOUPE_SECRET_KEY,
    publicUrl: e.LOUPE_PUBLIC_URL?.replace(/\/+$/, ''),
    // No default: the web app calls nobody unless the operator names a versions file.
    ...(e.LOUPE_VERSIONS_URL ? { versionsUrl: e.LOUPE_VERSIONS_URL } : {}),
    environment: e.LOUPE_ENV,
    webDir: e.LOUPE_WEB_DIR ?? resolve(import.meta.dirname, '../../web/dist'),
    sdkDir: e.LOUPE_SDK_DIR ?? resolve(import.meta.dirname, '../../../sdk/python'),
    ...(e.LOUPE_ONNX_MODEL ? { onnxModel: resolve(cwd, e.LOUPE_ONNX_MODEL) } : {}),
    cookieSecure: e.LOUPE_COOKIE_SECURE,
    bodyLimitBytes: Math.round(e.LOUPE_BODY_LIMIT_MB * 1024 * 1024),
    mediaLimitBytes: Math.round(e.LOUPE_MEDIA_LIMIT_MB * 1024 * 1024),
    exploreCacheBytes: Math.round(e.LOUPE_EXPLORE_CACHE_MB * 1024 * 1024),
    exploreSnapshotDir:
      e.LOUPE_EXPLORE_SNAPSHOTS === 'true' ? join(dataDir, 'explore-tables') : null,
    exploreThreadItems: e.LOUPE_EXPLORE_THREAD_ITEMS,
    trustProxy: e.LOUPE_TRUST_PROXY === 'true',
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
  };
}

export function ensureDataDir(config: Config): void {
  mkdirSync(config.dataDir, { recursive: true });
}

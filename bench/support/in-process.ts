// The real Loupe app started inside a benchmark's own process, on a database the benchmark
// filled itself by bulk SQL: a SQLite file or a PostgreSQL schema, migrated first, then the app
// listening on a free loopback port, the bench admin set up or signed in through the typed client,
// and an evaluation license started (uploads and toggles need one).
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { ApiError, api, cookieJar, createClient, type ApiClient } from '@loupe/contracts';
import {
  buildApp,
  loadConfig,
  migrateToLatest,
  openDatabase,
  startEvaluation,
  type Config,
  type DatabaseConfig,
} from '@loupe/server/embedded';

export const PG_URL = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : 'postgres://postgres@127.0.0.1:5432/test';

/** The repository's root. */
export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The options every in-process benchmark takes (for node:util parseArgs): --db sqlite|postgres|both,
 * --samples N (1,000,000 by default) and --regenerate (write the data again rather than reuse it).
 */
export const BENCH_OPTIONS = {
  db: { type: 'string', default: 'both' },
  samples: { type: 'string', default: '1000000' },
  regenerate: { type: 'boolean', default: false },
} as const;

/** The databases of --db, in the order they run. */
export function databaseKinds(db: string): ('sqlite' | 'postgres')[] {
  if (db === 'both') return ['sqlite', 'postgres'];
  if (db === 'sqlite' || db === 'postgres') return [db];
  throw new Error(`--db: unknown database '${db}' (choose from sqlite, postgres, both)`);
}

/**
 * Where the benchmark `name` keeps its data for the next run: the folder .bench-data/<name>/ and
 * the PostgreSQL schema loupe_bench_<name>.
 */
export function benchPlace(name: string): { dataDir: string; pgSchema: string } {
  return { dataDir: join(ROOT, '.bench-data', name), pgSchema: `loupe_bench_${name}` };
}

/** The account the in-process benchmarks set up on their databases. */
export const ADMIN = {
  username: 'Bench Admin',
  email: 'bench@example.com',
  password: 'bench password',
};

/**
 * The benchmark's database, migrated to the latest schema: the SQLite file at `sqlitePath`, or
 * the PostgreSQL schema `pgSchema` (created when missing).
 */
export async function benchDatabase(
  kind: 'sqlite' | 'postgres',
  sqlitePath: string,
  pgSchema: string,
): Promise<DatabaseConfig> {
  let database: DatabaseConfig;
  if (kind === 'sqlite') {
    database = { kind: 'sqlite', path: sqlitePath };
  } else {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create schema if not exists ${pgSchema}`);
    await admin.end();
    database = { kind: 'postgres', url: PG_URL, schema: pgSchema };
  }
  const migrating = openDatabase(database);
  await migrateToLatest(migrating);
  await migrating.destroy();
  return database;
}

/**
 * This host runs PostgreSQL with autovacuum off: what a maintained database would have done with
 * the dead rows of earlier runs, done before anything is timed. Answers the seconds it took.
 */
export async function vacuumAnalyze(schema: string, tables: string[]): Promise<number> {
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await client.connect();
  const start = performance.now();
  await client.query(`vacuum analyze ${tables.join(', ')}`);
  await client.end();
  return (performance.now() - start) / 1000;
}

type Built = Awaited<ReturnType<typeof buildApp>>;

export interface InProcess {
  url: string;
  config: Config;
  /** The typed client, signed in as the bench admin. */
  client: ApiClient;
  services: Built['services'];
  /** The app's own database handle (for what a benchmark arranges between figures). */
  database: ReturnType<typeof openDatabase>;
  close(): Promise<void>;
}

/**
 * Starts the app on `database` with its data directory at `dataDir` (kept between runs: its
 * secret key and license issuer), signed in as the bench admin on an evaluation license. With
 * `worker`, the in-process job runner runs too, as `npm start` runs it (figures computed by jobs).
 */
export async function startInProcess(
  database: DatabaseConfig,
  dataDir: string,
  options: { worker?: boolean } = {},
): Promise<InProcess> {
  mkdirSync(dataDir, { recursive: true });
  const config: Config = {
    ...loadConfig({ LOUPE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }),
    database,
    webDir: join(dataDir, 'no-web'),
  };
  const opened = openDatabase(database);
  const { app, services, runner } = await buildApp({ config, database: opened });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.close();
    await opened.destroy();
  };
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const client = createClient({ baseUrl: url, cookies: cookieJar() });
    await client
      .call(api.setup.complete, { body: { company: 'Bench', user: ADMIN } })
      .catch(async (error: unknown) => {
        if (!(error instanceof ApiError && error.status === 409)) throw error;
        await client.call(api.auth.login, {
          body: { email: ADMIN.email, password: ADMIN.password },
        });
      });
    await startEvaluation(services.license, config.dataDir, Date.now);
    if (options.worker) runner.start();
    return { url, config, client, services, database: opened, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A new data version of a dataset, as an upload makes: what the server computed from it is stale. */
/** Raises a prediction set's version, as an upload of its predictions does (with a new data version). */
export async function bumpSetVersion(app: InProcess, datasetId: string, setId: string) {
  await app.database.db
    .updateTable('prediction_sets')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', setId)
    .execute();
  await bumpDataVersion(app, datasetId);
}

export async function bumpDataVersion(app: InProcess, datasetId: string): Promise<void> {
  await app.database.db
    .updateTable('datasets')
    .set((eb) => ({ data_version: eb('data_version', '+', 1) }))
    .where('id', '=', datasetId)
    .execute();
}

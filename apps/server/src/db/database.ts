// Opens the database the configuration names (SQLite file by default, PostgreSQL with
// DATABASE_URL) behind one Kysely instance, and applies the migrations.
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { migrations } from './migrations/index.js';
import type { DB } from './schema.js';
import { WalCheckpointer } from './wal-checkpointer.js';

// int8 (bigint) columns hold millisecond timestamps: well inside Number's exact range.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The PostgreSQL schema everything lives in, when not the default search path. */
  schema?: string;
  destroy(): Promise<void>;
}

export function openDatabase(config: DatabaseConfig): Database {
  if (config.kind === 'sqlite') {
    if (config.path !== ':memory:') mkdirSync(path.dirname(config.path), { recursive: true });
    const connection = new SQLite(config.path);
    connection.pragma('journal_mode = WAL');
    connection.pragma('foreign_keys = ON');
    connection.pragma('busy_timeout = 5000');
    connection.pragma('synchronous = NORMAL');
    const db = new Kysely<DB>({
      dialect: new SqliteDialect({ database: withStatementCache(connection) }),
    });
    // Threads' own connections (the lease keeper's) checkpoint their small commits themselves.
    const checkpointer =
      config.path !== ':memory:' && isMainThread
        ? WalCheckpointer.start(connection, path.resolve(config.path))
        : null;
    return {
      db,
      dialect: 'sqlite',
      destroy: async () => {
        await checkpointer?.stop();
        await db.destroy();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    schema: config.schema ?? 'public',
    destroy: () => db.destroy(),
  };
}

/** Prepared statements kept for reuse, least recently used first out. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The connection as Kysely's SQLite dialect sees it, with prepared statements reused: Kysely
 * prepares every query it runs, and compiling the SQL again cost about as much as running it for
 * the small reads and writes an upload makes per file. A statement still stepping through rows
 * (`busy`) is never handed out twice; the query gets a fresh one.
 */
export function withStatementCache(
  connection: SQLite.Database,
): Pick<SQLite.Database, 'prepare' | 'close'> {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => connection.close(),
    prepare: (source: string) => {
      const cached = cache.get(source);
      if (cached && !cached.busy) {
        cache.delete(source);
        cache.set(source, cached);
        return cached;
      }
      const statement = connection.prepare(source);
      if (!cached) {
        cache.set(source, statement);
        if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
  } as Pick<SQLite.Database, 'prepare' | 'close'>;
}

export function migrator({ db, schema }: Database): Migrator {
  // Kysely looks for its bookkeeping tables in every schema unless told which one is ours.
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const { error, results } = await migrator(database).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).map((result) => result.migrationName);
}

/** The migrations and whether each is applied, for the support bundle and health checks. */
export async function migrationState(database: Database) {
  const all = await migrator(database).getMigrations();
  return all.map((m) => ({ name: m.name, executed_at: m.executedAt?.toISOString() ?? null }));
}

export async function ping(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}

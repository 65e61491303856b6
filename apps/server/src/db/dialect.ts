// The one place that tells SQLite from PostgreSQL inside migrations.
import { PostgresAdapter, type Kysely } from 'kysely';

export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Column types that differ between the two databases. */
export function types(db: Kysely<unknown>) {
  const pg = isPostgres(db);
  return {
    blob: pg ? ('bytea' as const) : ('blob' as const),
    double: pg ? ('double precision' as const) : ('real' as const),
  };
}

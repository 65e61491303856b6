// Keeps PostgreSQL's planner statistics in step with bulk uploads. A table that was never
// analyzed, or that just grew from 10,000 to 1,000,000 rows, gets plans that read a whole dataset
// where an index would find a page: the explorer's page query took 2 s per page at 1M samples
// that way. Autovacuum fixes this eventually, when it is on; uploads know better and sooner.
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';
import type { DB } from './schema.js';

/** Rows written before the first ANALYZE of a table in this process. */
export const FIRST_ANALYZE_ROWS = 10_000;

export type AnalyzedTable = 'samples' | 'objects' | 'predictions' | 'predicted_objects';

export class PlannerStatistics {
  /** Rows written since the table's last ANALYZE, and the rows it had then (as far as known). */
  private readonly tables = new Map<AnalyzedTable, { since: number; rows: number }>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  /**
   * Notes rows inserted into `table` (after the transaction committed). Once as many rows were
   * written as the table had at its last ANALYZE (at least FIRST_ANALYZE_ROWS), the table is
   * analyzed again in the background: a million-row upload analyzes about seven times.
   */
  wrote(table: AnalyzedTable, rows: number): void {
    if (this.dialect !== 'postgres' || rows <= 0) return;
    const state = this.tables.get(table) ?? { since: 0, rows: 0 };
    state.since += rows;
    this.tables.set(table, state);
    if (state.since < Math.max(FIRST_ANALYZE_ROWS, state.rows)) return;
    state.rows += state.since;
    state.since = 0;
    // One ANALYZE at a time; it takes no lock that uploads or reads wait for.
    this.queue = this.queue.then(() =>
      sql`analyze ${sql.table(table)}`.execute(this.db).then(
        () => undefined,
        (error: unknown) => this.log.warn({ err: error, table }, 'ANALYZE failed'),
      ),
    );
  }

  /** Resolves when every ANALYZE asked for so far has finished. */
  settled(): Promise<void> {
    return this.queue;
  }
}

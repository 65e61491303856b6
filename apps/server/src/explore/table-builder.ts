// Builds large explorer tables on a worker thread (table-build.worker.ts) instead of the API's
// event loop: the thread reads the rows on its own database connection, builds the table and its
// sort indexes, and writes the table's file (docs/explore-snapshots.md); the API process then
// reads the file back (a fraction of a second of its own time instead of 13-16 s at a million
// rows). Small tables are built in process: a thread's start costs more than their build.
import type { DatabaseConfig } from '../config.js';
import { workerSource } from '../platform/worker-source.js';
import { WorkerThread } from '../platform/worker-thread.js';

export interface TableBuildTask {
  database: DatabaseConfig;
  snapshotDir: string;
  datasetId: string;
  level: string;
  predictionsId: string | null;
}

/**
 * The data version and fingerprint of the table written (the dataset's when the thread read
 * it); null when the dataset is gone or the file could not be written.
 */
export type TableBuildResult = { version: number; fingerprint: string } | null;

/** Items from which a table is built on the thread (samples, or objects at object level). */
export const THREAD_BUILD_MIN_ITEMS = 50_000;

export class TableBuilder {
  private readonly thread = new WorkerThread<TableBuildTask, TableBuildResult>(
    workerSource(import.meta.url, 'table-build.worker'),
    { name: 'explorer table' },
  );

  constructor(
    private readonly database: DatabaseConfig,
    private readonly snapshotDir: string,
    /** Tables of fewer items are built in process. */
    readonly minItems = THREAD_BUILD_MIN_ITEMS,
  ) {}

  /** Whether a database can be read from another thread (an in-memory SQLite one cannot). */
  static supports(database: DatabaseConfig): boolean {
    return database.kind === 'postgres' || database.path !== ':memory:';
  }

  build(datasetId: string, level: string, predictionsId: string | null): Promise<TableBuildResult> {
    return this.thread.run({
      database: this.database,
      snapshotDir: this.snapshotDir,
      datasetId,
      level,
      predictionsId,
    });
  }

  close(): Promise<void> {
    return this.thread.stop();
  }
}

// Checkpoints a SQLite database's write-ahead log from a worker thread with its own connection
// (docs/decisions.md 49). SQLite otherwise checkpoints in the connection whose commit took the log
// past 1,000 pages: a relabel or restore of 100,000 samples then copied every page it changed
// (300-600 MB) back into the database file and synced it, 1-2.6 s on the main thread while its
// request waited and every other request with it.
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** Log size past which the thread is started: small databases (tests) never start one. */
export const START_AT_BYTES = 4 * 1024 * 1024;
/** How often the main thread looks at the log's size until the thread runs. */
const WATCH_MS = 250;
/** How often the thread checkpoints; a checkpoint with nothing to copy costs microseconds. */
const CHECKPOINT_MS = 200;
/** SQLite's own default, given back to the main connection if the thread cannot run. */
const AUTOCHECKPOINT_PAGES = 1000;

/**
 * The thread: PASSIVE checkpoints never wait for readers or writers, and copy what no reader
 * still needs; the next write after a complete one starts the log over.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy: the next turn */ }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export class WalCheckpointer {
  private watcher: NodeJS.Timeout | null = null;
  private worker: Worker | null = null;
  private stopped = false;

  private constructor(
    private readonly connection: SQLite.Database,
    private readonly path: string,
    private readonly startAtBytes: number,
  ) {}

  /**
   * Takes over the checkpoints of `connection` (a file database in WAL mode, opened on the main
   * thread): its commits no longer checkpoint, and a thread does once the log has grown past
   * `startAtBytes`.
   */
  static start(
    connection: SQLite.Database,
    path: string,
    startAtBytes = START_AT_BYTES,
  ): WalCheckpointer {
    const checkpointer = new WalCheckpointer(connection, path, startAtBytes);
    connection.pragma('wal_autocheckpoint = 0');
    checkpointer.watcher = setInterval(() => void checkpointer.watch(), WATCH_MS);
    checkpointer.watcher.unref();
    return checkpointer;
  }

  /** Whether the thread runs (tests). */
  get running(): boolean {
    return this.worker !== null;
  }

  private async watch(): Promise<void> {
    if (this.worker || this.stopped) return;
    const size = await stat(`${this.path}-wal`).then(
      (s) => s.size,
      () => 0,
    );
    if (size >= this.startAtBytes && !this.worker && !this.stopped) this.startThread();
  }

  private startThread(): void {
    clearInterval(this.watcher!);
    this.watcher = null;
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: {
          module: createRequire(import.meta.url).resolve('better-sqlite3'),
          path: this.path,
          intervalMs: CHECKPOINT_MS,
        },
      });
    } catch {
      this.fallBack();
      return;
    }
    worker.unref();
    const lost = () => {
      if (this.worker !== worker) return; // stopped
      this.worker = null;
      this.fallBack();
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    this.worker = worker;
  }

  /** Without the thread, the connection checkpoints its own commits again, as SQLite does. */
  private fallBack(): void {
    if (this.stopped || !this.connection.open) return;
    this.connection.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  }

  /**
   * Stops the thread after one last checkpoint, before the main connection closes (which then,
   * as the last one, checkpoints the rest and removes the log).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.watcher) clearInterval(this.watcher);
    this.watcher = null;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('stop');
    await exited;
  }
}

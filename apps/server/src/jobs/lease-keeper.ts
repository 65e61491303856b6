// Renews the leases of the jobs a runner holds from a worker thread with its own database
// connection, so a handler that blocks the event loop for a while does not lose its job to
// another process (which would run it a second time, and freeze too if the job is the cause).
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseConfig } from '../config.js';
import { workerSource } from '../platform/worker-source.js';

/** What the thread starts with (see lease-keeper.worker.ts). */
export interface LeaseKeeperData {
  database: DatabaseConfig;
  leaseMs: number;
  maxStallMs: number;
  /** Date.now() of the main event loop's last turn, written by the main thread. */
  tick: SharedArrayBuffer;
}

export type LeaseKeeperMessage = { hold: { id: string; workerId: string } } | { release: string };

/** From the thread: started, or leases left to lapse because the main loop stalled too long. */
export type KeeperReport = { ready: true } | { stalled: { ms: number; jobs: string[] } };

/**
 * How long the thread keeps renewing while the main loop shows no life. Past that the process
 * counts as hung: the leases lapse, and another worker may take its jobs over (the attempts
 * count, so a job that hangs every process it reaches ends failed).
 */
export const MAX_STALL_MS = 10 * 60_000;

export class LeaseKeeper {
  private worker: Worker | null = null;
  private started: Promise<void> | null = null;
  private ticker: NodeJS.Timeout | null = null;
  private readonly tick = new SharedArrayBuffer(8);

  private constructor(
    private readonly database: DatabaseConfig,
    private readonly leaseMs: number,
    private readonly log: FastifyBaseLogger,
    private readonly maxStallMs: number,
  ) {}

  /** A keeper for this database; none for an in-memory SQLite database, which no thread can open. */
  static for(
    database: DatabaseConfig,
    leaseMs: number,
    log: FastifyBaseLogger,
    maxStallMs = MAX_STALL_MS,
  ): LeaseKeeper | undefined {
    if (database.kind === 'sqlite' && database.path === ':memory:') return undefined;
    return new LeaseKeeper(database, leaseMs, log, maxStallMs);
  }

  /** Starts the thread (once); resolves when it can renew, never rejects. */
  ready(): Promise<void> {
    this.started ??= new Promise<void>((resolve) => {
      const beat = () => Atomics.store(new BigInt64Array(this.tick), 0, BigInt(Date.now()));
      beat();
      this.ticker = setInterval(beat, Math.max(10, Math.min(1000, this.leaseMs / 3)));
      this.ticker.unref();
      const {
        source,
        eval: isEval,
        execArgv,
      } = workerSource(import.meta.url, 'lease-keeper.worker');
      const workerData: LeaseKeeperData = {
        database: this.database,
        leaseMs: this.leaseMs,
        maxStallMs: this.maxStallMs,
        tick: this.tick,
      };
      let worker: Worker;
      try {
        worker = new Worker(source, { eval: isEval, execArgv, workerData });
      } catch (error) {
        this.log.warn({ err: error }, 'job lease keeper thread could not start');
        resolve();
        return;
      }
      worker.unref();
      worker.on('message', (report: KeeperReport) => {
        if ('ready' in report) resolve();
        else
          this.log.warn(
            { stalledMs: report.stalled.ms, jobs: report.stalled.jobs },
            'event loop blocked too long: job leases left to lapse, other workers may take them over',
          );
      });
      const fail = (reason: string) => {
        resolve();
        if (this.worker !== worker) return; // closed
        // Not started again: leases are still renewed by the runner's own heartbeat while the
        // loop turns.
        this.worker = null;
        this.log.warn({ reason }, 'job lease keeper thread stopped');
      };
      worker.on('error', (error) => fail(error.message));
      worker.on('exit', (code) => fail(`exit code ${code}`));
      this.worker = worker;
    });
    return this.started;
  }

  hold(id: string, workerId: string): void {
    void this.ready();
    this.post({ hold: { id, workerId } });
  }

  release(id: string): void {
    this.post({ release: id });
  }

  /** Ends the thread; a later ready() or hold() starts a new one. */
  async close(): Promise<void> {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    this.started = null;
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private post(message: LeaseKeeperMessage): void {
    this.worker?.postMessage(message);
  }
}

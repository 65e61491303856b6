// The worker loops (`concurrency` of them): each claims one job at a time, runs its handler, retries failures with
// exponential backoff, and keeps a lease alive so a crashed worker's job is picked up again. On
// start, a runner takes back at once the jobs of dead processes of this host (docs/decisions.md).
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../platform/clock.js';
import type { JobsRepository } from './jobs.repository.js';
import type { LeaseKeeper } from './lease-keeper.js';
import { JobLeaseLost, PermanentJobError, type JobHandlers, type JobName } from './job-types.js';

export interface RunnerOptions {
  leaseMs: number;
  idlePollMs: number;
  backoffBaseMs: number;
  /** Jobs run at once (e.g. thumbnails and metadata side by side). */
  concurrency?: number;
  /** Renews leases off the event loop; without one, only the loop's own heartbeat does. */
  leaseKeeper?: LeaseKeeper | undefined;
}

export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = {
  leaseMs: 60_000,
  idlePollMs: 1000,
  backoffBaseMs: 2000,
  concurrency: 2,
};

/** The worker ids of this process's runners: a lock with our pid but none of these is a past life's. */
const liveWorkerIds = new Set<string>();

/** `host:pid:random` → host and pid; undefined for an id of another shape. */
export function parseWorkerId(id: string): { host: string; pid: number } | undefined {
  const match = /^(.*):(\d+):[^:]*$/.exec(id);
  return match ? { host: match[1]!, pid: Number(match[2]) } : undefined;
}

/** Whether a process with this pid runs on this host (EPERM: it does, under another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Whether the worker that holds a lock is a process of this host that no longer runs: its pid is
 * gone, or it is ours but belongs to none of our runners (a container restarted as pid 1 again).
 */
export function deadOnThisHost(lockedBy: string): boolean {
  const holder = parseWorkerId(lockedBy);
  if (!holder || holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return !liveWorkerIds.has(lockedBy);
  return !processAlive(holder.pid);
}

export class JobRunner {
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private stopped = true;
  private wakers = new Set<() => void>();
  private loops: Promise<void>[] = [];
  /** Jobs this runner is running: never claimed again while a run is in hand. */
  private readonly running = new Set<string>();

  constructor(
    private readonly jobs: JobsRepository,
    private readonly handlers: JobHandlers,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly options: RunnerOptions = DEFAULT_RUNNER_OPTIONS,
  ) {
    liveWorkerIds.add(this.workerId);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    liveWorkerIds.add(this.workerId);
    // Messages to the keeper wait until its thread is up; the loops need not.
    void this.options.leaseKeeper?.ready();
    const ready = this.reclaimDead().catch((error: unknown) =>
      this.log.error({ err: error }, 'job runner failed to reclaim the jobs of dead workers'),
    );
    this.loops = Array.from({ length: this.options.concurrency ?? 1 }, () =>
      ready.then(() => this.run()),
    );
  }

  /** Finishes the job in hand, then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.poke();
    await Promise.all(this.loops);
    await this.options.leaseKeeper?.close();
    liveWorkerIds.delete(this.workerId);
  }

  /**
   * Expires the leases of running jobs held by dead processes of this host, so they (and equal
   * jobs waiting behind them) run now instead of a lease later. Answers how many.
   */
  async reclaimDead(): Promise<number> {
    let reclaimed = 0;
    for (const job of await this.jobs.listRunning()) {
      if (!job.locked_by || !deadOnThisHost(job.locked_by)) continue;
      if (await this.jobs.expireLease(job.id, job.locked_by, this.clock())) {
        reclaimed++;
        this.log.warn({ job: job.id, worker: job.locked_by }, 'reclaimed the job of a dead worker');
      }
    }
    return reclaimed;
  }

  /** Tells an idle runner to look for work now (after an enqueue). */
  poke(): void {
    for (const wake of this.wakers) wake();
  }

  /** Runs jobs until none is runnable; for tests and one-shot workers. Answers how many ran. */
  async drain(): Promise<number> {
    let ran = 0;
    while (await this.runOne()) ran++;
    return ran;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let worked = false;
      try {
        worked = await this.runOne();
      } catch (error) {
        this.log.error({ err: error }, 'job runner failed to claim a job');
      }
      if (!worked && !this.stopped) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            this.wakers.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, this.options.idlePollMs);
          this.wakers.add(wake);
        });
      }
    }
  }

  private async runOne(): Promise<boolean> {
    const job = await this.jobs.claim(this.workerId, this.clock(), this.options.leaseMs, [
      ...this.running,
    ]);
    if (!job) return false;
    this.running.add(job.id);
    this.options.leaseKeeper?.hold(job.id, this.workerId);
    const name = job.type as JobName;
    const handler = this.handlers[name] as JobHandlers[JobName] | undefined;
    const started = this.clock();
    let lost = false;
    // Renews the lease (and stores progress when given); a lost lease means the result is void.
    const renew = async (fraction: number | null) => {
      const ours = await this.jobs.heartbeat(
        job.id,
        this.workerId,
        this.clock() + this.options.leaseMs,
        fraction,
        this.clock(),
      );
      if (!ours) {
        lost = true;
        throw new JobLeaseLost();
      }
    };
    const progress = (fraction: number) => renew(fraction);
    // Keep the lease alive even when a handler reports no progress for a while (without
    // resetting the progress it last reported).
    const heartbeat = setInterval(() => void renew(null).catch(() => {}), this.options.leaseMs / 3);
    try {
      if (!handler) throw new Error(`No handler for job type ${job.type}`);
      await handler({
        id: job.id,
        name,
        payload: job.payload,
        attempt: job.attempts,
        progress,
      } as never);
      await this.jobs.finish(job.id, this.workerId, 'succeeded', null, this.clock());
      this.log.info({ job: job.id, type: job.type, ms: this.clock() - started }, 'job succeeded');
    } catch (error) {
      if (lost || error instanceof JobLeaseLost) {
        this.log.warn({ job: job.id, type: job.type }, 'job taken over by another worker');
        return true;
      }
      const message = error instanceof Error ? error.message : String(error);
      if (job.attempts < job.max_attempts && !(error instanceof PermanentJobError)) {
        const delay = this.options.backoffBaseMs * 2 ** (job.attempts - 1);
        const requeued = await this.jobs.retry(
          job.id,
          this.workerId,
          this.clock() + delay,
          message,
          this.clock(),
        );
        if (!requeued)
          await this.jobs.finish(
            job.id,
            this.workerId,
            'failed',
            `${message} (superseded by a newer job)`,
            this.clock(),
          );
        this.log.warn(
          { job: job.id, type: job.type, attempt: job.attempts, err: error },
          'job failed; retrying',
        );
      } else {
        await this.jobs.finish(job.id, this.workerId, 'failed', message, this.clock());
        this.log.error({ job: job.id, type: job.type, err: error }, 'job failed for good');
      }
    } finally {
      clearInterval(heartbeat);
      this.options.leaseKeeper?.release(job.id);
      this.running.delete(job.id);
    }
    return true;
  }
}

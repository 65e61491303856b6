// The worker loops (`concurrency` of them): each claims one job at a time, runs its handler, retries failures with
// exponential backoff, and keeps a lease alive so a crashed worker's job is picked up again.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../platform/clock.js';
import type { JobsRepository } from './jobs.repository.js';
import { JobLeaseLost, PermanentJobError, type JobHandlers, type JobName } from './job-types.js';

export interface RunnerOptions {
  leaseMs: number;
  idlePollMs: number;
  backoffBaseMs: number;
  /** Jobs run at once (e.g. thumbnails and metadata side by side). */
  concurrency?: number;
}

export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = {
  leaseMs: 60_000,
  idlePollMs: 1000,
  backoffBaseMs: 2000,
  concurrency: 2,
};

export class JobRunner {
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private stopped = true;
  private wakers = new Set<() => void>();
  private loops: Promise<void>[] = [];

  constructor(
    private readonly jobs: JobsRepository,
    private readonly handlers: JobHandlers,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly options: RunnerOptions = DEFAULT_RUNNER_OPTIONS,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loops = Array.from({ length: this.options.concurrency ?? 1 }, () => this.run());
  }

  /** Finishes the job in hand, then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.poke();
    await Promise.all(this.loops);
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
    const job = await this.jobs.claim(this.workerId, this.clock(), this.options.leaseMs);
    if (!job) return false;
    const name = job.type as JobName;
    const handler = this.handlers[name] as JobHandlers[JobName] | undefined;
    const started = this.clock();
    let lost = false;
    const progress = async (fraction: number) => {
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
    // Keep the lease alive even when a handler reports no progress for a while.
    const heartbeat = setInterval(
      () => void progress(job.progress ?? 0).catch(() => {}),
      this.options.leaseMs / 3,
    );
    try {
      if (!handler) throw new Error(`No handler for job type ${job.type}`);
      await handler({
        id: job.id,
        name,
        payload: JSON.parse(job.payload),
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
    }
    return true;
  }
}

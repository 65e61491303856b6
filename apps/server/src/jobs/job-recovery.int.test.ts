// Jobs that cannot finish: attempts used up by dead workers, poison jobs across restarts, a
// blocked event loop and its lease, and the lease keeper thread.
import { hostname } from 'node:os';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { healthDuring } from '../testing/health-probe.js';
import { setUpInstance, startTestApp, testDialect, type TestApp } from '../testing/test-app.js';
import { JobRunner } from './job-runner.js';
import { JobLeaseLost, type JobHandlers } from './job-types.js';
import { JobsRepository } from './jobs.repository.js';
import { JobsService, MAX_ATTEMPTS } from './jobs.service.js';
import { LeaseKeeper } from './lease-keeper.js';

let t: TestApp;
let repo: JobsRepository;
let service: JobsService;
const log = pino({ level: 'silent' });
const options = { leaseMs: 1000, idlePollMs: 10, backoffBaseMs: 100 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(async () => {
  t = await startTestApp();
  repo = new JobsRepository(t.database.db, t.database.dialect);
  service = new JobsService(repo, async () => new Map(), t.clock.read);
});
afterEach(() => t.close());

function handlers(thumbnail: JobHandlers['ThumbnailGeneration']): JobHandlers {
  return {
    ThumbnailGeneration: thumbnail,
    MetadataAndFeaturesComputation: async () => {},
    EmbeddingsComputation: async () => {},
  };
}

const onlyJob = async () => {
  const rows = await t.database.db.selectFrom('jobs').selectAll().execute();
  expect(rows).toHaveLength(1);
  return rows[0]!;
};

/** A pid no process of this host has (pids above the kernel's pid_max never exist). */
function deadPid(): number {
  for (let pid = 2 ** 22 + 1000; ; pid++) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
}

/** Leaves the job as a process that died while running it would: running, locked by `worker`. */
const diedHolding = (id: string, worker: string) =>
  t.database.db
    .updateTable('jobs')
    .set({ locked_by: worker, locked_until: t.clock.now + options.leaseMs })
    .where('id', '=', id)
    .execute();

/** Starts a runner, waits until `done` holds, and stops it. */
async function runUntil(runner: JobRunner, done: () => Promise<boolean>): Promise<void> {
  runner.start();
  try {
    for (let i = 0; i < 300 && !(await done()); i++) await sleep(10);
  } finally {
    await runner.stop();
  }
}

describe(`job recovery on ${testDialect}`, () => {
  it('fails a job whose every attempt lost its worker instead of claiming it again, and says why', async () => {
    await service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, null);
    // Each attempt's worker crashes or freezes, and its lease runs out.
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      expect(await repo.claim(`elsewhere:1:w${i}`, t.clock.now, options.leaseMs)).toBeDefined();
      t.clock.advance(options.leaseMs + 1);
    }
    let calls = 0;
    const runner = new JobRunner(
      repo,
      handlers(async () => {
        calls++;
      }),
      t.clock.read,
      log,
      options,
    );
    expect(await runner.drain()).toBe(0);
    expect(calls).toBe(0);
    const reason = `Stopped after ${MAX_ATTEMPTS} attempts: the worker running it stopped responding or crashed each time.`;
    expect(await onlyJob()).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      locked_by: null,
      error: reason,
    });
    const admin = await setUpInstance(t.app);
    const activities = (await admin.get('/api/activities?scope=all')).json();
    expect(activities).toEqual([
      expect.objectContaining({
        job_type: 'ThumbnailGeneration',
        status: 'FAILURE',
        error: reason,
      }),
    ]);
  });

  it('a restarted process reclaims the job of its dead self at once, until the last attempt fails it', async () => {
    await service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, null);
    // The clock never moves: each restart takes the job back without waiting out the lease.
    await repo.claim(`${hostname()}:${deadPid()}:x`, t.clock.now, options.leaseMs);
    let calls = 0;
    // The job kills each process that runs it: the row stays running, held by a dead worker.
    const poison = handlers(async ({ id }) => {
      calls++;
      await diedHolding(id, `${hostname()}:${deadPid()}:x${calls}`);
      throw new JobLeaseLost();
    });
    const { slowestMs } = await healthDuring(t.app, async () => {
      for (let restart = 1; restart < MAX_ATTEMPTS; restart++) {
        const runner = new JobRunner(repo, poison, t.clock.read, log, options);
        await runUntil(runner, async () => calls === restart);
        expect(calls).toBe(restart);
        expect((await onlyJob()).attempts).toBe(restart + 1);
      }
      const last = new JobRunner(repo, poison, t.clock.read, log, options);
      await runUntil(last, async () => (await onlyJob()).status === 'failed');
    });
    expect(slowestMs).toBeLessThan(1000);
    expect(calls).toBe(MAX_ATTEMPTS - 1);
    expect(await onlyJob()).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      error: expect.stringMatching(/^Stopped after 4 attempts/),
    });
  });

  it('a process restarted under the same pid (a container) reclaims what none of its runners holds, and equal work runs at once', async () => {
    await service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, null);
    const job = await repo.claim(`${hostname()}:${process.pid}:gone`, t.clock.now, options.leaseMs);
    // An equal job queued behind it waits for the dead one's lease.
    await service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, null);
    // Another live runner of this process, and a live process elsewhere, keep their jobs.
    const alive = new JobRunner(
      repo,
      handlers(async () => {}),
      t.clock.read,
      log,
      options,
    );
    await service.enqueue('ThumbnailGeneration', { dataset_id: 'd2' }, null);
    const kept = await repo.claim(alive.workerId, t.clock.now, options.leaseMs);
    await service.enqueue('ThumbnailGeneration', { dataset_id: 'd3' }, null);
    const remote = await repo.claim(`elsewhere:${deadPid()}:y`, t.clock.now, options.leaseMs);
    const ran: string[] = [];
    const runner = new JobRunner(
      repo,
      handlers(async ({ id }) => {
        ran.push(id);
      }),
      t.clock.read,
      log,
      options,
    );
    await runUntil(runner, async () => ran.length === 2);
    const rows = await t.database.db.selectFrom('jobs').selectAll().orderBy('created_at').execute();
    expect(ran[0]).toBe(job!.id);
    expect(rows.filter((row) => row.status === 'succeeded')).toHaveLength(2);
    expect(rows.find((row) => row.id === kept!.id)).toMatchObject({ status: 'running' });
    expect(rows.find((row) => row.id === remote!.id)).toMatchObject({ status: 'running' });
  });

  it('a runner whose loop was blocked past the lease does not start its own job a second time', async () => {
    await service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, null);
    let calls = 0;
    const runner = new JobRunner(
      repo,
      handlers(async () => {
        calls++;
        // The loop is blocked longer than the lease: no heartbeat could renew it meanwhile.
        t.clock.advance(options.leaseMs + 1);
        const until = Date.now() + 30;
        while (Date.now() < until);
        // Awake again: the runner's other loop polls many times before this run ends.
        await sleep(150);
      }),
      t.clock.read,
      log,
      { ...options, concurrency: 2 },
    );
    await runUntil(runner, async () => (await onlyJob()).status !== 'running' && calls > 0);
    expect(calls).toBe(1);
    expect(await onlyJob()).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('the lease keeper thread keeps a lease while the handler blocks the event loop', async () => {
    const leaseMs = 500;
    const keeper = LeaseKeeper.for(t.config.database, leaseMs, log)!;
    await keeper.ready();
    await service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, null);
    const other = new JobsRepository(t.database.db, t.database.dialect);
    let takenOver: unknown;
    const runner = new JobRunner(
      repo,
      handlers(async () => {
        const until = Date.now() + 3 * leaseMs;
        while (Date.now() < until);
        // Another process looks for work the moment this loop turns again.
        takenOver = await other.claim('elsewhere:1:z', Date.now(), leaseMs);
      }),
      () => Date.now(),
      log,
      { ...options, leaseMs, leaseKeeper: keeper },
    );
    try {
      expect(await runner.drain()).toBe(1);
    } finally {
      await keeper.close();
    }
    expect(takenOver).toBeUndefined();
    expect(await onlyJob()).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('the lease keeper thread lets the leases of a loop blocked past the allowed stall lapse', async () => {
    const leaseMs = 500;
    const warnings: string[] = [];
    const captured = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const keeper = LeaseKeeper.for(t.config.database, leaseMs, captured, 400)!;
    await keeper.ready();
    await service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, null);
    const runner = new JobRunner(
      repo,
      handlers(async () => {
        const until = Date.now() + 3 * leaseMs;
        while (Date.now() < until);
      }),
      () => Date.now(),
      log,
      { ...options, leaseMs, leaseKeeper: keeper },
    );
    try {
      await runner.drain();
      for (let i = 0; i < 100 && warnings.length === 0; i++) await sleep(10);
    } finally {
      await keeper.close();
    }
    const job = await onlyJob();
    expect(warnings.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        jobs: [job.id],
        msg: expect.stringMatching(/leases left to lapse/),
      }),
    ]);
  });
});

// Jobs that cannot finish: attempts used up by dead workers, poison jobs across restarts, a
// blocked event loop and its lease, and the lease keeper thread.
import { hostname } from 'node:os';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { expectKeptAnswering, healthDuring } from '../testing/health-probe.js';
import { setUpInstance, testDialect } from '../testing/test-app.js';
import { JobRunner } from './job-runner.js';
import { JobLeaseLost } from './job-types.js';
import { JobsRepository } from './jobs.repository.js';
import { MAX_ATTEMPTS } from './jobs.service.js';
import {
  quickRunner,
  silentLog,
  TEST_ACTOR,
  thumbnailHandlers,
  useJobsTestKit,
} from '../testing/jobs.js';
import { LeaseKeeper } from './lease-keeper.js';

const kit = useJobsTestKit();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const onlyJob = async () => {
  const rows = await kit.t.database.db.selectFrom('jobs').selectAll().execute();
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
  kit.t.database.db
    .updateTable('jobs')
    .set({ locked_by: worker, locked_until: kit.t.clock.now + quickRunner.leaseMs })
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
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, TEST_ACTOR);
    // Each attempt's worker crashes or freezes, and its lease runs out.
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      expect(
        await kit.repo.claim(`elsewhere:1:w${i}`, kit.t.clock.now, quickRunner.leaseMs),
      ).toBeDefined();
      kit.t.clock.advance(quickRunner.leaseMs + 1);
    }
    let calls = 0;
    const runner = new JobRunner(
      kit.repo,
      thumbnailHandlers(async () => {
        calls++;
      }),
      kit.t.clock.read,
      silentLog,
      quickRunner,
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
    const admin = await setUpInstance(kit.t.app);
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
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, TEST_ACTOR);
    // The clock never moves: each restart takes the job back without waiting out the lease.
    await kit.repo.claim(`${hostname()}:${deadPid()}:x`, kit.t.clock.now, quickRunner.leaseMs);
    let calls = 0;
    // The job kills each process that runs it: the row stays running, held by a dead worker.
    const poison = thumbnailHandlers(async ({ id }) => {
      calls++;
      await diedHolding(id, `${hostname()}:${deadPid()}:x${calls}`);
      throw new JobLeaseLost();
    });
    const during = await healthDuring(kit.t.app, async () => {
      for (let restart = 1; restart < MAX_ATTEMPTS; restart++) {
        const runner = new JobRunner(kit.repo, poison, kit.t.clock.read, silentLog, quickRunner);
        await runUntil(runner, async () => calls === restart);
        expect(calls).toBe(restart);
        expect((await onlyJob()).attempts).toBe(restart + 1);
      }
      const last = new JobRunner(kit.repo, poison, kit.t.clock.read, silentLog, quickRunner);
      await runUntil(last, async () => (await onlyJob()).status === 'failed');
    });
    expectKeptAnswering(during);
    expect(calls).toBe(MAX_ATTEMPTS - 1);
    expect(await onlyJob()).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      error: expect.stringMatching(/^Stopped after 4 attempts/),
    });
  });

  it('a process restarted under the same pid (a container) reclaims what none of its runners holds, and equal work runs at once', async () => {
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, TEST_ACTOR);
    const job = await kit.repo.claim(
      `${hostname()}:${process.pid}:gone`,
      kit.t.clock.now,
      quickRunner.leaseMs,
    );
    // An equal job queued behind it waits for the dead one's lease.
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, TEST_ACTOR);
    // Another live runner of this process, and a live process elsewhere, keep their jobs.
    const alive = new JobRunner(
      kit.repo,
      thumbnailHandlers(async () => {}),
      kit.t.clock.read,
      silentLog,
      quickRunner,
    );
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd2' }, TEST_ACTOR);
    const kept = await kit.repo.claim(alive.workerId, kit.t.clock.now, quickRunner.leaseMs);
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd3' }, TEST_ACTOR);
    const remote = await kit.repo.claim(
      `elsewhere:${deadPid()}:y`,
      kit.t.clock.now,
      quickRunner.leaseMs,
    );
    const ran: string[] = [];
    const runner = new JobRunner(
      kit.repo,
      thumbnailHandlers(async ({ id }) => {
        ran.push(id);
      }),
      kit.t.clock.read,
      silentLog,
      quickRunner,
    );
    await runUntil(runner, async () => ran.length === 2);
    const rows = await kit.t.database.db
      .selectFrom('jobs')
      .selectAll()
      .orderBy('created_at')
      .execute();
    expect(ran[0]).toBe(job!.id);
    expect(rows.filter((row) => row.status === 'succeeded')).toHaveLength(2);
    expect(rows.find((row) => row.id === kept!.id)).toMatchObject({ status: 'running' });
    expect(rows.find((row) => row.id === remote!.id)).toMatchObject({ status: 'running' });
  });

  it('a runner whose loop was blocked past the lease does not start its own job a second time', async () => {
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, TEST_ACTOR);
    let calls = 0;
    const runner = new JobRunner(
      kit.repo,
      thumbnailHandlers(async () => {
        calls++;
        // The loop is blocked longer than the lease: no heartbeat could renew it meanwhile.
        kit.t.clock.advance(quickRunner.leaseMs + 1);
        const until = Date.now() + 30;
        while (Date.now() < until);
        // Awake again: the runner's other loop polls many times before this run ends.
        await sleep(150);
      }),
      kit.t.clock.read,
      silentLog,
      { ...quickRunner, concurrency: 2 },
    );
    await runUntil(runner, async () => (await onlyJob()).status !== 'running' && calls > 0);
    expect(calls).toBe(1);
    expect(await onlyJob()).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('the lease keeper thread keeps a lease while the handler blocks the event loop', async () => {
    const leaseMs = 500;
    const keeper = LeaseKeeper.for(kit.t.config.database, leaseMs, silentLog)!;
    await keeper.ready();
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, TEST_ACTOR);
    const other = new JobsRepository(kit.t.database.db, kit.t.database.dialect);
    let takenOver: unknown;
    const runner = new JobRunner(
      kit.repo,
      thumbnailHandlers(async () => {
        const until = Date.now() + 3 * leaseMs;
        while (Date.now() < until);
        // Another process looks for work the moment this loop turns again.
        takenOver = await other.claim('elsewhere:1:z', Date.now(), leaseMs);
      }),
      () => Date.now(),
      silentLog,
      { ...quickRunner, leaseMs, leaseKeeper: keeper },
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
    const keeper = LeaseKeeper.for(kit.t.config.database, leaseMs, captured, 400)!;
    await keeper.ready();
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, TEST_ACTOR);
    const runner = new JobRunner(
      kit.repo,
      thumbnailHandlers(async () => {
        const until = Date.now() + 3 * leaseMs;
        while (Date.now() < until);
      }),
      () => Date.now(),
      silentLog,
      { ...quickRunner, leaseMs, leaseKeeper: keeper },
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

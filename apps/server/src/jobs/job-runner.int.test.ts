// The job runner: retries with backoff, permanent failures, coalescing, and taking over the job
// of a worker that died.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDialect } from '../testing/test-app.js';
import { JobRunner } from './job-runner.js';
import { PermanentJobError } from './job-types.js';
import { JobsRepository } from './jobs.repository.js';
import { MAX_ATTEMPTS } from './jobs.service.js';
import {
  quickRunner,
  silentLog,
  TEST_ACTOR,
  thumbnailHandlers,
  useJobsTestKit,
} from '../testing/jobs.js';

const kit = useJobsTestKit();

const allJobs = () =>
  kit.t.database.db.selectFrom('jobs').selectAll().orderBy('created_at').execute();
const onlyJob = async () => {
  const rows = await allJobs();
  expect(rows).toHaveLength(1);
  return rows[0]!;
};

describe(`the job runner on ${testDialect}`, () => {
  it('coalesces an equal waiting job', async () => {
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, TEST_ACTOR);
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, TEST_ACTOR);
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd2' }, TEST_ACTOR);
    expect(await allJobs()).toHaveLength(2);
  });

  it('retries a failing job with exponential backoff and then succeeds', async () => {
    let calls = 0;
    const runner = new JobRunner(
      kit.repo,
      thumbnailHandlers(async () => {
        calls++;
        if (calls < 3) throw new Error(`flaky ${calls}`);
      }),
      kit.t.clock.read,
      silentLog,
      quickRunner,
    );
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, TEST_ACTOR);
    expect(await runner.drain()).toBe(1);
    let job = await onlyJob();
    expect(job).toMatchObject({ status: 'queued', attempts: 1, error: 'flaky 1' });
    expect(job!.run_after).toBe(kit.t.clock.now + 100);
    expect(await runner.drain()).toBe(0); // not yet due
    kit.t.clock.advance(100);
    await runner.drain();
    job = await onlyJob();
    expect(job).toMatchObject({ status: 'queued', attempts: 2 });
    expect(job!.run_after).toBe(kit.t.clock.now + 200);
    kit.t.clock.advance(200);
    await runner.drain();
    job = await onlyJob();
    expect(job).toMatchObject({ status: 'succeeded', attempts: 3, progress: 1 });
    expect(calls).toBe(3);
  });

  it('fails a job at once, without retries, when its handler says retrying cannot help', async () => {
    let calls = 0;
    const runner = new JobRunner(
      kit.repo,
      thumbnailHandlers(async () => {
        calls++;
        throw new PermanentJobError('perplexity too large for 5 points');
      }),
      kit.t.clock.read,
      silentLog,
      quickRunner,
    );
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, TEST_ACTOR);
    await runner.drain();
    kit.t.clock.advance(10_000);
    await runner.drain();
    expect(await onlyJob()).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: 'perplexity too large for 5 points',
    });
    expect(calls).toBe(1);
  });

  it('gives up after the last attempt and shows the failure as an activity', async () => {
    const runner = new JobRunner(
      kit.repo,
      thumbnailHandlers(async () => {
        throw new Error('the media is unreadable');
      }),
      kit.t.clock.read,
      silentLog,
      quickRunner,
    );
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, TEST_ACTOR);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await runner.drain();
      kit.t.clock.advance(60_000);
    }
    const job = await onlyJob();
    expect(job).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      error: 'the media is unreadable',
    });
  });

  it('picks up the job of a crashed worker after its lease, and the job finishes once', async () => {
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: 'd1' }, TEST_ACTOR);
    // A worker claims the job and dies without finishing it.
    const crashed = await kit.repo.claim('crashed-worker', kit.t.clock.now, quickRunner.leaseMs);
    expect(crashed).toBeDefined();
    let finished = 0;
    const survivor = new JobRunner(
      kit.repo,
      thumbnailHandlers(async () => {
        finished++;
      }),
      kit.t.clock.read,
      silentLog,
      quickRunner,
    );
    expect(await survivor.drain()).toBe(0); // the lease still holds
    kit.t.clock.advance(quickRunner.leaseMs + 1);
    expect(await survivor.drain()).toBe(1);
    expect(finished).toBe(1);
    // The crashed worker coming back cannot overwrite the result.
    await kit.repo.finish(crashed!.id, 'crashed-worker', 'failed', 'late', kit.t.clock.now);
    expect(await onlyJob()).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      error: null,
    });
    expect(await survivor.drain()).toBe(0);
  });

  it('runs each job exactly once with two workers claiming at the same time', async () => {
    const seen: string[] = [];
    const work = async (context: { payload: { dataset_id: string } }) => {
      seen.push(context.payload.dataset_id);
      await new Promise((resolve) => setTimeout(resolve, 2));
    };
    for (let i = 0; i < 30; i++)
      await kit.service.enqueue('ThumbnailGeneration', { dataset_id: `d${i}` }, TEST_ACTOR);
    // Separate repositories, as two processes would have (on PostgreSQL, separate connections).
    const a = new JobRunner(
      new JobsRepository(kit.t.database.db, kit.t.database.dialect),
      thumbnailHandlers(work),
      kit.t.clock.read,
      silentLog,
      quickRunner,
    );
    const b = new JobRunner(
      new JobsRepository(kit.t.database.db, kit.t.database.dialect),
      thumbnailHandlers(work),
      kit.t.clock.read,
      silentLog,
      quickRunner,
    );
    const [ranA, ranB] = await Promise.all([a.drain(), b.drain()]);
    expect(ranA + ranB).toBe(30);
    expect(seen.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `d${i}`).sort());
    expect((await allJobs()).every((job) => job.status === 'succeeded')).toBe(true);
  });

  it('a started runner picks up new work as soon as it is enqueued', async () => {
    const done: string[] = [];
    const runner = new JobRunner(
      kit.repo,
      thumbnailHandlers(async (c) => {
        done.push(c.payload.dataset_id);
      }),
      () => Date.now(),
      silentLog,
      { ...quickRunner, idlePollMs: 60_000 },
    );
    kit.service.onEnqueue(() => runner.poke());
    runner.start();
    await kit.service.enqueue('ThumbnailGeneration', { dataset_id: randomUUID() }, TEST_ACTOR);
    for (let i = 0; i < 200 && done.length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await runner.stop();
    expect(done).toHaveLength(1);
  });
});

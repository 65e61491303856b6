// What the job system's integration tests share: a fresh app per test with the jobs repository
// and service on its database, quick runner options, and handlers where only one job type works.
import pino from 'pino';
import { afterEach, beforeEach, expect } from 'vitest';
import { startTestApp, type TestApp } from './test-app.js';
import { systemActor } from '../users/actor.js';
import type { JobHandlers } from '../jobs/job-types.js';
import { JobsRepository } from '../jobs/jobs.repository.js';
import { JobsService } from '../jobs/jobs.service.js';

export const silentLog = pino({ level: 'silent' });
/** Who enqueues the tests' jobs. */
export const TEST_ACTOR = systemActor('jobs test');
export const quickRunner = { leaseMs: 1000, idlePollMs: 10, backoffBaseMs: 100 };

export interface JobsTestKit {
  t: TestApp;
  repo: JobsRepository;
  service: JobsService;
}

/** Registers beforeEach/afterEach hooks; the kit's fields are fresh in every test. */
export function useJobsTestKit(): JobsTestKit {
  const kit = {} as JobsTestKit;
  beforeEach(async () => {
    kit.t = await startTestApp();
    kit.repo = new JobsRepository(kit.t.database.db, kit.t.database.dialect);
    kit.service = new JobsService(kit.repo, async () => new Map(), kit.t.clock.read);
  });
  afterEach(() => kit.t.close());
  return kit;
}

/** Handlers in which thumbnails do what the test says and every other job does nothing. */
export function thumbnailHandlers(thumbnail: JobHandlers['ThumbnailGeneration']): JobHandlers {
  return {
    ThumbnailGeneration: thumbnail,
    MetadataAndFeaturesComputation: async () => {},
    EmbeddingsComputation: async () => {},
    PerformanceReportComputation: async () => {},
    FinegrainedPerformanceComputation: async () => {},
    ModelComparisonComputation: async () => {},
    QualityScoresComputation: async () => {},
  };
}

/**
 * A job-computed answer (`status` computing | ready | failed), read again after running the queued
 * jobs when it is still computing; fails the test unless it is then ready.
 */
export async function whenReady<T extends { status: string }>(
  t: TestApp,
  read: () => Promise<T>,
): Promise<T> {
  let answer = await read();
  if (answer.status === 'computing') {
    await t.runner.drain();
    answer = await read();
  }
  expect(answer.status).toBe('ready');
  return answer;
}

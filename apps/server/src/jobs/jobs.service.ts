// Enqueueing jobs and showing them as Activities (docs/product.md, Shell §3 'Activity').
import { randomUUID } from 'node:crypto';
import type { Activity, JobType } from '@loupe/contracts';
import type { Clock } from '../platform/clock.js';
import { actorUserId, type Actor } from '../users/actor.js';
import type { JobName, JobPayloads } from './job-types.js';
import type { JobRecord, JobsRepository } from './jobs.repository.js';

export const MAX_ATTEMPTS = 4;

export function toActivity(row: JobRecord, datasetNames: Map<string, string>): Activity {
  const payload = (row.payload ?? {}) as Record<string, unknown>;
  // The model a job is about: the performance jobs name it prediction_set_id, as their table does;
  // a comparison is shown under its model A.
  const predictionsId =
    payload.predictions_id ?? payload.prediction_set_id ?? payload.prediction_set_a;
  const status =
    row.status === 'succeeded' ? 'SUCCESS' : row.status === 'failed' ? 'FAILURE' : 'PENDING';
  return {
    id: row.id,
    type: 'Job',
    updated_at: row.updated_at,
    job_type: row.type as JobType,
    status,
    user_id: row.user_id,
    ...(row.dataset_id
      ? { dataset_id: row.dataset_id, dataset_name: datasetNames.get(row.dataset_id) }
      : {}),
    ...(typeof predictionsId === 'string' ? { predictions_id: predictionsId } : {}),
    ...(row.progress !== null ? { progress: row.progress } : {}),
    ...(row.status === 'failed' && row.error ? { error: row.error } : {}),
  };
}

/** Waiting jobs with the same key coalesce; a caller can look its job up by it. */
export function jobDedupeKey<N extends JobName>(name: N, payload: JobPayloads[N]): string {
  return `${name}:${JSON.stringify(payload)}`;
}

export class JobsService {
  private listeners: (() => void)[] = [];

  constructor(
    private readonly jobs: JobsRepository,
    private readonly datasetNames: () => Promise<Map<string, string>>,
    private readonly clock: Clock,
  ) {}

  /** Called after every enqueue, so an in-process runner starts at once. */
  onEnqueue(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Enqueues a job; the same dataset's waiting job of the same type absorbs a duplicate. */
  async enqueue<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    actor: Actor,
    jobs: Pick<JobsRepository, 'enqueue'> = this.jobs,
  ): Promise<void> {
    const now = this.clock();
    await jobs.enqueue({
      id: randomUUID(),
      type: name,
      payload,
      status: 'queued',
      attempts: 0,
      max_attempts: MAX_ATTEMPTS,
      run_after: now,
      locked_by: null,
      locked_until: null,
      dedupe_key: jobDedupeKey(name, payload),
      user_id: actorUserId(actor),
      dataset_id: payload.dataset_id,
      progress: 0,
      error: null,
      created_at: now,
      updated_at: now,
    });
    for (const listener of this.listeners) listener();
  }

  /** Whether a job with this dedupe key is queued or running. */
  active(dedupeKey: string): Promise<boolean> {
    return this.jobs.activeByDedupeKey(dedupeKey);
  }

  /** The newest job with this dedupe key (a computation's progress or failure). */
  latest(dedupeKey: string): Promise<JobRecord | undefined> {
    return this.jobs.latestByDedupeKey(dedupeKey);
  }

  async activities(actor: Actor, scope: 'my' | 'all', limit: number): Promise<Activity[]> {
    const userId = actorUserId(actor);
    const [rows, names] = await Promise.all([
      this.jobs.listRecent({ ...(scope === 'my' && userId ? { userId } : {}), limit }),
      this.datasetNames(),
    ]);
    return rows.map((row) => toActivity(row, names));
  }
}

// SQL for the jobs table: enqueue with coalescing, claim with a lease (SKIP LOCKED on
// PostgreSQL, a compare-and-set on SQLite), heartbeat, finish, retry, and ending jobs whose
// workers kept dying. Jobs leave as records with their payload decoded.
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../db/database.js';
import { readJson } from '../db/json-columns.js';
import type { DB, JobsTable } from '../db/schema.js';

type JobRow = Selectable<JobsTable>;

export interface JobRecord extends Omit<JobRow, 'payload'> {
  /** The job's payload (JobPayloads of its type); null when the stored text is not JSON. */
  payload: unknown;
}

const decode = (row: JobRow): JobRecord => ({ ...row, payload: readJson<unknown>(row.payload) });

export class JobsRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** Inserts the job unless one with the same dedupe key is still waiting; true when inserted. */
  async enqueue(job: JobRecord): Promise<boolean> {
    const result = await this.db
      .insertInto('jobs')
      .values({ ...job, payload: JSON.stringify(job.payload) })
      .onConflict((oc) =>
        oc
          .column('dedupe_key')
          .where(sql<boolean>`status = 'queued'`)
          .doNothing(),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Takes the oldest runnable job (waiting, or running with an expired lease) for this worker.
   * Jobs in `exclude` (the ones this worker is running) are never taken, even when their lease
   * lapsed while the worker's event loop was blocked. A job whose lease expired with its attempts
   * used up is failed instead of being taken again.
   */
  async claim(
    workerId: string,
    now: number,
    leaseMs: number,
    exclude: readonly string[] = [],
  ): Promise<JobRecord | undefined> {
    await this.failAbandoned(now);
    // Runnable: waiting and due, or running under an expired lease (its worker died) with an
    // attempt left. A waiting job is held back while an equal one runs, so the same work never
    // runs twice at once; an equal one whose worker died is taken over first (it is older), and
    // one with no attempt left was failed above.
    const runnable = sql<boolean>`((status = 'queued' and run_after <= ${now} and not exists (
        select 1 from jobs as busy where busy.dedupe_key = jobs.dedupe_key and busy.status = 'running'))
      or (status = 'running' and locked_until < ${now} and attempts < max_attempts))${
        exclude.length > 0
          ? sql` and id not in (${sql.join(exclude.map((id) => sql`${id}`))})`
          : sql``
      }`;
    if (this.dialect === 'postgres') {
      const claimed = await sql<JobRow>`
        update jobs set status = 'running', locked_by = ${workerId}, locked_until = ${now + leaseMs},
          attempts = attempts + 1, updated_at = ${now}
        where id = (select id from jobs where ${runnable} order by created_at limit 1 for update skip locked)
        returning *`.execute(this.db);
      return claimed.rows[0] && decode(claimed.rows[0]);
    }
    for (let tries = 0; tries < 5; tries++) {
      const candidate = await this.db
        .selectFrom('jobs')
        .select(['id', 'status', 'locked_until'])
        .where(runnable)
        .orderBy('created_at')
        .limit(1)
        .executeTakeFirst();
      if (!candidate) return undefined;
      // Compare-and-set: only one process moves the job from what it saw to running.
      const result = await this.db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'running',
          locked_by: workerId,
          locked_until: now + leaseMs,
          attempts: eb('attempts', '+', 1),
          updated_at: now,
        }))
        .where('id', '=', candidate.id)
        .where('status', '=', candidate.status)
        .where((eb) =>
          candidate.locked_until === null
            ? eb('locked_until', 'is', null)
            : eb('locked_until', '=', candidate.locked_until),
        )
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return this.find(candidate.id);
    }
    return undefined;
  }

  /**
   * Fails running jobs whose lease expired after their last attempt: each attempt's worker
   * stopped responding or died (a job that blocks or crashes its process), so running it again
   * would only take another process down. A compare-and-set on the lease seen, on both dialects:
   * a worker that renewed it meanwhile keeps its job.
   */
  private async failAbandoned(now: number): Promise<void> {
    const abandoned = await this.db
      .selectFrom('jobs')
      .select(['id', 'attempts', 'error', 'locked_by', 'locked_until'])
      .where('status', '=', 'running')
      .where('locked_until', '<', now)
      .where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
      .execute();
    for (const job of abandoned) {
      await this.db
        .updateTable('jobs')
        .set({
          status: 'failed',
          error: abandonedReason(job.attempts, job.error),
          locked_by: null,
          locked_until: null,
          updated_at: now,
        })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('locked_until', '=', job.locked_until)
        .where((eb) =>
          job.locked_by === null
            ? eb('locked_by', 'is', null)
            : eb('locked_by', '=', job.locked_by),
        )
        .execute();
    }
  }

  /** Running jobs and who holds them (a handful: at most one per worker loop). */
  listRunning(): Promise<Pick<JobRow, 'id' | 'locked_by'>[]> {
    return this.db
      .selectFrom('jobs')
      .select(['id', 'locked_by'])
      .where('status', '=', 'running')
      .execute();
  }

  /**
   * Ends the lease of a job its worker can no longer hold (that process is gone), so the job, or
   * an equal waiting one, is runnable now; the attempt it used still counts. False when the job
   * moved on meanwhile.
   */
  async expireLease(id: string, lockedBy: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ locked_until: 0, updated_at: now })
      .where('id', '=', id)
      .where('locked_by', '=', lockedBy)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The newest job with this dedupe key (to show a computation's progress or failure). */
  async latestByDedupeKey(key: string): Promise<JobRecord | undefined> {
    const row = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('dedupe_key', '=', key)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && decode(row);
  }

  /** Whether a job with this dedupe key is queued or running. */
  async activeByDedupeKey(key: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('dedupe_key', '=', key)
      .where('status', 'in', ['queued', 'running'])
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async find(id: string): Promise<JobRecord | undefined> {
    const row = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && decode(row);
  }

  /** Extends the lease; false when the job is no longer ours (another worker took it over). */
  async heartbeat(
    id: string,
    workerId: string,
    until: number,
    progress: number | null,
    now: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ locked_until: until, updated_at: now, ...(progress !== null ? { progress } : {}) })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async finish(
    id: string,
    workerId: string,
    status: 'succeeded' | 'failed',
    error: string | null,
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        status,
        error,
        locked_by: null,
        locked_until: null,
        updated_at: now,
        ...(status === 'succeeded' ? { progress: 1 } : {}),
      })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .execute();
  }

  /** Puts a failed attempt back in the queue; false when an equal job is already waiting. */
  async retry(
    id: string,
    workerId: string,
    runAfter: number,
    error: string,
    now: number,
  ): Promise<boolean> {
    try {
      await this.db
        .updateTable('jobs')
        .set({
          status: 'queued',
          run_after: runAfter,
          error,
          locked_by: null,
          locked_until: null,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('locked_by', '=', workerId)
        .execute();
      return true;
    } catch {
      // The partial unique index refused it: a newer equal job will do the work.
      return false;
    }
  }

  async listRecent(options: { userId?: string; limit: number }): Promise<JobRecord[]> {
    let query = this.db
      .selectFrom('jobs')
      .selectAll()
      .orderBy('updated_at', 'desc')
      .limit(options.limit);
    if (options.userId) query = query.where('user_id', '=', options.userId);
    return (await query.execute()).map(decode);
  }

  async countUnfinished(datasetId?: string): Promise<number> {
    let query = this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', 'in', ['queued', 'running']);
    if (datasetId) query = query.where('dataset_id', '=', datasetId);
    return Number((await query.executeTakeFirstOrThrow()).n);
  }
}

/** What a user reads for a job whose every attempt ended with its worker gone. */
export function abandonedReason(attempts: number, earlierError: string | null): string {
  const stopped = `Stopped after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
  return earlierError
    ? `${stopped}: the worker running the last one stopped responding or crashed (an earlier attempt failed with: ${earlierError})`
    : `${stopped}: the worker running it stopped responding or crashed each time.`;
}

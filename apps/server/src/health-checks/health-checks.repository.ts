// SQL for data health checks (docs/health-checks.md, "Storage"): the user's state of a dataset's
// checks, their stored results (outcomes zlib-compressed JSON, decoded here), the ignored items,
// and the per-dataset version bumped whenever results or ignores change.
import { promisify } from 'node:util';
import { deflate, inflate } from 'node:zlib';
import { sql, type Kysely, type Selectable } from 'kysely';
import { readJson } from '../db/json-columns.js';
import type { DB, HealthChecksTable } from '../db/schema.js';

const deflateAsync = promisify(deflate);
const inflateAsync = promisify(inflate);

/** Data checks store their results and ignores under this prediction set id. */
export const NO_PREDICTIONS = '';

export interface HealthCheckRecord {
  dataset_id: string;
  id: string;
  key: string;
  level: string;
  type: 'default' | 'custom';
  /** A custom check's name; null for a default check. */
  name: string | null;
  /** The user's param values by name. */
  params: Record<string, unknown>;
  enabled: boolean;
  created_at: number;
  updated_at: number;
}

export type ResultStatus = 'failed' | 'passed' | 'error' | 'missing';

/** A stored result without its outcome: what a job compares fingerprints with. */
export interface ResultHeader {
  check_id: string;
  prediction_set_id: string;
  fingerprint: string;
  data_version: number;
  params_hash: string;
  status: ResultStatus;
  computed_at: number;
  /** Milliseconds the run took in the checks process (0 when kept or not run). */
  duration_ms: number;
}

export interface ResultRecord extends ResultHeader {
  /** The decoded outcome JSON (its shape is the service's: StoredOutcome). */
  outcome: unknown;
}

const IN_CHUNK = 500;

function decodeCheck(row: Selectable<HealthChecksTable>): HealthCheckRecord {
  return {
    ...row,
    params: readJson<Record<string, unknown>>(row.params) ?? {},
    enabled: Number(row.enabled) === 1,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

function header(row: {
  check_id: string;
  prediction_set_id: string;
  fingerprint: string;
  data_version: number | string;
  params_hash: string;
  status: ResultStatus;
  computed_at: number | string;
  duration_ms: number | string;
}): ResultHeader {
  return {
    check_id: row.check_id,
    prediction_set_id: row.prediction_set_id,
    fingerprint: row.fingerprint,
    data_version: Number(row.data_version),
    params_hash: row.params_hash,
    status: row.status,
    computed_at: Number(row.computed_at),
    duration_ms: Number(row.duration_ms),
  };
}

export class HealthChecksRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async checks(datasetId: string): Promise<HealthCheckRecord[]> {
    const rows = await this.db
      .selectFrom('health_checks')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(decodeCheck);
  }

  async check(datasetId: string, id: string): Promise<HealthCheckRecord | undefined> {
    const row = await this.db
      .selectFrom('health_checks')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && decodeCheck(row);
  }

  async saveCheck(record: HealthCheckRecord): Promise<void> {
    const values = {
      ...record,
      params: JSON.stringify(record.params),
      enabled: record.enabled ? 1 : 0,
    };
    await this.db
      .insertInto('health_checks')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['dataset_id', 'id']).doUpdateSet({
          name: values.name,
          params: values.params,
          enabled: values.enabled,
          updated_at: values.updated_at,
        }),
      )
      .execute();
  }

  /** Deletes a check with its results and ignored items. */
  async deleteCheck(datasetId: string, id: string): Promise<void> {
    for (const table of ['health_check_results', 'health_check_ignored'] as const)
      await this.db
        .deleteFrom(table)
        .where('dataset_id', '=', datasetId)
        .where('check_id', '=', id)
        .execute();
    await this.db
      .deleteFrom('health_checks')
      .where('dataset_id', '=', datasetId)
      .where('id', '=', id)
      .execute();
  }

  async resultHeaders(datasetId: string): Promise<ResultHeader[]> {
    const rows = await this.db
      .selectFrom('health_check_results')
      .select([
        'check_id',
        'prediction_set_id',
        'fingerprint',
        'data_version',
        'params_hash',
        'status',
        'computed_at',
        'duration_ms',
      ])
      .where('dataset_id', '=', datasetId)
      .execute();
    return rows.map(header);
  }

  /** The dataset's results, of one prediction set's checks ('' for data checks) when given. */
  async results(datasetId: string, predictionSetIds?: readonly string[]): Promise<ResultRecord[]> {
    let query = this.db
      .selectFrom('health_check_results')
      .selectAll()
      .where('dataset_id', '=', datasetId);
    if (predictionSetIds) {
      if (predictionSetIds.length === 0) return [];
      query = query.where('prediction_set_id', 'in', [...predictionSetIds]);
    }
    const rows = await query.execute();
    return Promise.all(
      rows.map(async (row) => ({
        ...header(row),
        outcome: JSON.parse((await inflateAsync(row.outcome)).toString('utf8')) as unknown,
      })),
    );
  }

  async result(
    datasetId: string,
    checkId: string,
    predictionSetId: string,
  ): Promise<ResultRecord | undefined> {
    const row = await this.db
      .selectFrom('health_check_results')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('check_id', '=', checkId)
      .where('prediction_set_id', '=', predictionSetId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      ...header(row),
      outcome: JSON.parse((await inflateAsync(row.outcome)).toString('utf8')) as unknown,
    };
  }

  async saveResult(datasetId: string, record: ResultRecord): Promise<void> {
    const values = {
      dataset_id: datasetId,
      check_id: record.check_id,
      prediction_set_id: record.prediction_set_id,
      fingerprint: record.fingerprint,
      data_version: record.data_version,
      params_hash: record.params_hash,
      status: record.status,
      outcome: await deflateAsync(Buffer.from(JSON.stringify(record.outcome), 'utf8')),
      computed_at: record.computed_at,
      duration_ms: record.duration_ms,
    };
    await this.db
      .insertInto('health_check_results')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['dataset_id', 'check_id', 'prediction_set_id']).doUpdateSet({
          fingerprint: values.fingerprint,
          data_version: values.data_version,
          params_hash: values.params_hash,
          status: values.status,
          outcome: values.outcome,
          computed_at: values.computed_at,
          duration_ms: values.duration_ms,
        }),
      )
      .execute();
  }

  /** A kept result, stamped with the data version and params it is now current for. */
  async restamp(
    datasetId: string,
    checkId: string,
    predictionSetId: string,
    dataVersion: number,
    paramsHash: string,
  ): Promise<void> {
    await this.db
      .updateTable('health_check_results')
      .set({ data_version: dataVersion, params_hash: paramsHash })
      .where('dataset_id', '=', datasetId)
      .where('check_id', '=', checkId)
      .where('prediction_set_id', '=', predictionSetId)
      .execute();
  }

  /** The result's status after its ignored items changed (failed ⇄ passed). */
  async setStatus(
    datasetId: string,
    checkId: string,
    predictionSetId: string,
    status: ResultStatus,
  ): Promise<void> {
    await this.db
      .updateTable('health_check_results')
      .set({ status })
      .where('dataset_id', '=', datasetId)
      .where('check_id', '=', checkId)
      .where('prediction_set_id', '=', predictionSetId)
      .execute();
  }

  /** Removes results of checks that no longer exist (`keep`: the ids of the dataset's checks). */
  async deleteResultsExcept(datasetId: string, keep: readonly string[]): Promise<void> {
    let query = this.db.deleteFrom('health_check_results').where('dataset_id', '=', datasetId);
    if (keep.length > 0) query = query.where('check_id', 'not in', [...keep]);
    await query.execute();
  }

  /** Ignored item ids by `${check_id}\n${prediction_set_id}`. */
  async ignored(datasetId: string, checkId?: string): Promise<Map<string, Set<string>>> {
    let query = this.db
      .selectFrom('health_check_ignored')
      .select(['check_id', 'prediction_set_id', 'item_id'])
      .where('dataset_id', '=', datasetId);
    if (checkId !== undefined) query = query.where('check_id', '=', checkId);
    const out = new Map<string, Set<string>>();
    for (const row of await query.execute()) {
      const key = ignoredKey(row.check_id, row.prediction_set_id);
      let set = out.get(key);
      if (!set) out.set(key, (set = new Set()));
      set.add(row.item_id);
    }
    return out;
  }

  async setIgnored(
    datasetId: string,
    checkId: string,
    predictionSetId: string,
    itemIds: readonly string[],
    ignore: boolean,
  ): Promise<void> {
    const ids = [...new Set(itemIds)];
    for (let i = 0; i < ids.length; i += IN_CHUNK) {
      const part = ids.slice(i, i + IN_CHUNK);
      if (ignore)
        await this.db
          .insertInto('health_check_ignored')
          .values(
            part.map((item_id) => ({
              dataset_id: datasetId,
              check_id: checkId,
              prediction_set_id: predictionSetId,
              item_id,
            })),
          )
          .onConflict((oc) => oc.doNothing())
          .execute();
      else
        await this.db
          .deleteFrom('health_check_ignored')
          .where('dataset_id', '=', datasetId)
          .where('check_id', '=', checkId)
          .where('prediction_set_id', '=', predictionSetId)
          .where('item_id', 'in', part)
          .execute();
    }
  }

  /** The dataset's results-and-ignores version (0 before any). */
  async stateVersion(datasetId: string): Promise<number> {
    const row = await this.db
      .selectFrom('health_check_state')
      .select('version')
      .where('dataset_id', '=', datasetId)
      .executeTakeFirst();
    return row ? Number(row.version) : 0;
  }

  async bumpState(datasetId: string): Promise<void> {
    await this.db
      .insertInto('health_check_state')
      .values({ dataset_id: datasetId, version: 1 })
      .onConflict((oc) =>
        oc.column('dataset_id').doUpdateSet({ version: sql`health_check_state.version + 1` }),
      )
      .execute();
  }

  /**
   * Failed checks per dataset (the overview's issues_count), from the stored statuses: data
   * checks and the checks of each dataset's newest prediction set, disabled checks left out.
   */
  async failedCounts(datasetId?: string): Promise<Map<string, number>> {
    let query = this.db
      .selectFrom('health_check_results as r')
      .select(['r.dataset_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('r.status', '=', 'failed')
      .where((eb) =>
        eb.or([
          eb('r.prediction_set_id', '=', NO_PREDICTIONS),
          eb(
            'r.prediction_set_id',
            '=',
            eb
              .selectFrom('prediction_sets as p')
              .select('p.id')
              .whereRef('p.dataset_id', '=', 'r.dataset_id')
              .orderBy('p.created_at', 'desc')
              .orderBy('p.id', 'desc')
              .limit(1),
          ),
        ]),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('health_checks as c')
              .select('c.id')
              .whereRef('c.dataset_id', '=', 'r.dataset_id')
              .whereRef('c.id', '=', 'r.check_id')
              .where('c.enabled', '=', 0),
          ),
        ),
      )
      .groupBy('r.dataset_id');
    if (datasetId !== undefined) query = query.where('r.dataset_id', '=', datasetId);
    const rows = await query.execute();
    return new Map(rows.map((row) => [row.dataset_id, Number(row.n)]));
  }
}

export function ignoredKey(checkId: string, predictionSetId: string): string {
  return `${checkId}\n${predictionSetId}`;
}

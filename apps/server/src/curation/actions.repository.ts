// SQL for item actions and restores (docs/curation.md): live samples and objects by id, bulk
// label, split and soft-delete writes, promoted predictions, and which items a delete record
// still holds deleted. Ids travel as one array parameter per statement (unnest on PostgreSQL,
// json_each on SQLite), so 100,000 items take a handful of statements, not one per id.
import type { Kysely, RawBuilder } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../db/database.js';
import { readJson, writeJson } from '../db/json-columns.js';
import type { DB } from '../db/schema.js';
import type { PredictedObjectRecord } from '../prediction-sets/prediction-sets.repository.js';
import { decodePredictedObject } from '../prediction-sets/prediction-sets.repository.js';
import type { ComputedValues, ObjectRecord } from '../samples/samples.repository.js';

/** Ids per statement. */
const CHUNK = 100_000;
/**
 * Ids per lookup of one row each on PostgreSQL: small enough that the statement's estimated cost
 * stays under jit_above_cost, whose compilation would cost more than the lookups (0.5 s and more
 * at 100,000 ids).
 */
const LOOKUP_CHUNK = 10_000;
/** Rows per INSERT of objects (14 columns: well under both databases' parameter limits). */
const INSERT_CHUNK = 500;

export interface LiveSample {
  /** Upload order (card_index): where the sample's row is in the explorer's tables. */
  seq: number;
  label: string | null;
  split: string | null;
}
export interface LiveObject {
  label: string;
  sample_id: string;
}
/** What a promotion reads of the sample a predicted object is in. */
export interface SampleSize {
  width: number | undefined;
  height: number | undefined;
}

type Items = 'samples' | 'objects';

/**
 * The ids as rows for an UPDATE … FROM on PostgreSQL, their number hidden from the planner: the
 * array goes through a scalar subquery, so unnest is planned at its default estimate and each id
 * stays one primary-key lookup (a nested loop, rows written in the order given). Seeing 100,000
 * ids, the planner hashed them and scanned every sample of the table, writing the changed rows
 * in hash order: 5-9 s for a relabel of 100,000 samples of 1,000,000 against 2.2-3.5 s.
 */
function unnestUnseen(ids: readonly string[]): RawBuilder<unknown> {
  return sql`unnest((select ${ids}::text[]))`;
}

function chunks<T>(values: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

export class ActionsRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect = 'sqlite',
  ) {}

  private get lookupChunk(): number {
    return this.dialect === 'postgres' ? LOOKUP_CHUNK : CHUNK;
  }

  /**
   * `ids` as a table `u` (its column is `u.id` on PostgreSQL and `u.value` on SQLite), to be
   * joined first: SQLite's CROSS JOIN keeps it the outer loop, so each id is one primary-key seek
   * instead of the table being scanned with the list searched for every row.
   */
  private ids(ids: readonly string[]): {
    from: RawBuilder<unknown>;
    id: RawBuilder<unknown>;
    join: RawBuilder<unknown>;
  } {
    return this.dialect === 'postgres'
      ? { from: sql`unnest(${ids}::text[]) as u(id)`, id: sql`u.id`, join: sql`join` }
      : {
          from: sql`json_each(${JSON.stringify(ids)}) as u`,
          id: sql`u.value`,
          join: sql`cross join`,
        };
  }

  /** The live samples among `ids` (not deleted), with their label and split. */
  async liveSamples(datasetId: string, ids: readonly string[]): Promise<Map<string, LiveSample>> {
    const out = new Map<string, LiveSample>();
    for (const part of chunks(ids, this.lookupChunk)) {
      // PostgreSQL: one primary-key lookup per id whatever the planner's statistics say (see
      // SamplesRepository.rowsByIds); SQLite walks the ids and seeks each one.
      const u = this.ids(part);
      const query =
        this.dialect === 'postgres'
          ? sql<{ id: string; seq: number | string; label: string | null; split: string | null }>`
              select s.id, s.seq, s.label, s.split from ${u.from} cross join lateral (
                select id, seq, label, split, deleted from samples
                where dataset_id = ${datasetId} and id = u.id limit 1
              ) as s
              where s.deleted = 0`
          : sql<{ id: string; seq: number | string; label: string | null; split: string | null }>`
              select s.id, s.seq, s.label, s.split from ${u.from}
                cross join samples s on s.dataset_id = ${datasetId} and s.id = ${u.id}
              where s.deleted = 0`;
      for (const row of (await query.execute(this.db)).rows)
        out.set(row.id, { seq: Number(row.seq), label: row.label, split: row.split });
    }
    return out;
  }

  /** The live ground-truth objects among `ids`: not deleted, in a sample not deleted. */
  async liveObjects(datasetId: string, ids: readonly string[]): Promise<Map<string, LiveObject>> {
    const out = new Map<string, LiveObject>();
    for (const part of chunks(ids, this.lookupChunk)) {
      const u = this.ids(part);
      const query =
        this.dialect === 'postgres'
          ? sql<{ id: string; label: string; sample_id: string }>`
              select o.id, o.label, o.sample_id from ${u.from} cross join lateral (
                select id, label, sample_id, deleted from objects
                where dataset_id = ${datasetId} and id = u.id limit 1
              ) as o
              where o.deleted = 0 and exists (select 1 from samples s
                where s.dataset_id = ${datasetId} and s.id = o.sample_id and s.deleted = 0)`
          : sql<{ id: string; label: string; sample_id: string }>`
              select o.id, o.label, o.sample_id from ${u.from}
                cross join objects o on o.dataset_id = ${datasetId} and o.id = ${u.id}
                cross join samples s on s.dataset_id = o.dataset_id and s.id = o.sample_id
              where o.deleted = 0 and s.deleted = 0`;
      for (const row of (await query.execute(this.db)).rows)
        out.set(row.id, { label: row.label, sample_id: row.sample_id });
    }
    return out;
  }

  /** Which of `ids` name objects of the dataset, live or not. */
  async objectIds(datasetId: string, ids: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const part of chunks(ids)) {
      const u = this.ids(part);
      const { rows } = await sql<{ id: string }>`
        select o.id from ${u.from}
          ${u.join} objects o on o.dataset_id = ${datasetId} and o.id = ${u.id}`.execute(this.db);
      for (const row of rows) out.add(row.id);
    }
    return out;
  }

  /**
   * An edit in one pass: sets `column` to `value` on the live rows among `ids` (objects: in a live
   * sample) that hold another value, and answers those rows (with their seq for samples). Ids it
   * does not answer are unchanged or unknown: the caller tells which with liveSamples/liveObjects.
   */
  async change(
    table: Items,
    datasetId: string,
    ids: readonly string[],
    column: 'label' | 'split',
    value: string,
    now: number,
  ): Promise<{ id: string; seq: number }[]> {
    const out: { id: string; seq: number }[] = [];
    const col = sql.ref(column);
    const liveSample =
      table === 'objects'
        ? sql`and exists (select 1 from samples s
            where s.dataset_id = t.dataset_id and s.id = t.sample_id and s.deleted = 0)`
        : sql``;
    // SQLite's RETURNING takes bare column names; on PostgreSQL a bare `id` would also be u.id.
    // `+t.deleted` on SQLite: a plain `deleted = 0` lets it walk the (dataset, deleted, split)
    // index over every live sample of the dataset instead of seeking each id (seconds at 1M).
    const pgSeq = table === 'samples' ? sql`t.seq` : sql`0`;
    const sqliteSeq = table === 'samples' ? sql`seq` : sql`0`;
    for (const part of chunks(ids)) {
      const { rows } = await (
        this.dialect === 'postgres'
          ? sql<{ id: string; seq: number | string }>`
            update ${sql.table(table)} as t set ${col} = ${value}, updated_at = ${now}
            from ${unnestUnseen(part)} as u(id)
            where t.dataset_id = ${datasetId} and t.id = u.id and t.deleted = 0
              and t.${col} is distinct from ${value} ${liveSample}
            returning t.id, ${pgSeq} as seq`
          : sql<{ id: string; seq: number | string }>`
            update ${sql.table(table)} as t set ${col} = ${value}, updated_at = ${now}
            where t.dataset_id = ${datasetId}
              and t.id in (select value from json_each(${JSON.stringify(part)}))
              and +t.deleted = 0 and t.${col} is not ${value} ${liveSample}
            returning id, ${sqliteSeq} as seq`
      ).execute(this.db);
      for (const row of rows) out.push({ id: row.id, seq: Number(row.seq) });
    }
    return out;
  }

  /** Soft-deletes samples or objects, or brings them back. */
  async setDeleted(
    table: Items,
    datasetId: string,
    ids: readonly string[],
    deleted: boolean,
    now: number,
  ): Promise<void> {
    const flag = deleted ? 1 : 0;
    for (const part of chunks(ids)) {
      await (
        this.dialect === 'postgres'
          ? sql`update ${sql.table(table)} as t set deleted = ${flag}, updated_at = ${now}
            from ${unnestUnseen(part)} as u(id) where t.dataset_id = ${datasetId} and t.id = u.id`
          : sql`update ${sql.table(table)} set deleted = ${flag}, updated_at = ${now}
            where dataset_id = ${datasetId}
              and id in (select value from json_each(${JSON.stringify(part)}))`
      ).execute(this.db);
    }
  }

  /** Ground-truth objects not deleted in these samples. */
  async countObjectsOf(datasetId: string, sampleIds: readonly string[]): Promise<number> {
    let n = 0;
    for (const part of chunks(sampleIds)) {
      const u = this.ids(part);
      const row = await sql<{ n: number | string }>`
        select count(*) as n from ${u.from}
          ${u.join} objects o on o.dataset_id = ${datasetId} and o.sample_id = ${u.id}
        where o.deleted = 0`.execute(this.db);
      n += Number(row.rows[0]?.n ?? 0);
    }
    return n;
  }

  /**
   * Stores the computed image.object_count of these samples again from their live objects,
   * where the metadata pass measured it (a sample not processed yet gets it then).
   */
  async refreshObjectCounts(datasetId: string, sampleIds: readonly string[]): Promise<void> {
    const count = sql`(select count(*) from objects o
      where o.dataset_id = ${datasetId} and o.sample_id = t.id and o.deleted = 0)`;
    for (const part of chunks(sampleIds)) {
      await (
        this.dialect === 'postgres'
          ? sql`update samples as t
            set computed = jsonb_set(t.computed::jsonb, '{image.object_count}', to_jsonb(${count}))::text
            from unnest(${part}::text[]) as u(id)
            where t.dataset_id = ${datasetId} and t.id = u.id
              and (t.computed::jsonb -> 'image.object_count') is not null`
          : sql`update samples as t
            set computed = json_set(t.computed, '$."image.object_count"', ${count})
            where t.dataset_id = ${datasetId}
              and t.id in (select value from json_each(${JSON.stringify(part)}))
              and json_type(t.computed, '$."image.object_count"') is not null`
      ).execute(this.db);
    }
  }

  // ---- promotion of predicted objects

  async predictedObjects(
    setId: string,
    ids: readonly string[],
  ): Promise<Map<string, PredictedObjectRecord>> {
    const out = new Map<string, PredictedObjectRecord>();
    for (const part of chunks(ids)) {
      const u = this.ids(part);
      const { rows } = await sql<Parameters<typeof decodePredictedObject>[0]>`
        select p.* from ${u.from}
          ${u.join} predicted_objects p on p.prediction_set_id = ${setId} and p.id = ${u.id}`.execute(
        this.db,
      );
      for (const row of rows) out.set(row.id, decodePredictedObject(row));
    }
    return out;
  }

  /** Image sizes of the live samples among `ids` (undefined until processing measured them). */
  async liveSampleSizes(
    datasetId: string,
    ids: readonly string[],
  ): Promise<Map<string, SampleSize>> {
    const out = new Map<string, SampleSize>();
    for (const part of chunks(ids)) {
      const u = this.ids(part);
      const { rows } = await sql<{ id: string; computed: string | null }>`
        select s.id, s.computed from ${u.from}
          ${u.join} samples s on s.dataset_id = ${datasetId} and s.id = ${u.id}
        where s.deleted = 0`.execute(this.db);
      for (const row of rows) {
        const computed = readJson<ComputedValues>(row.computed) ?? {};
        const number = (key: string) =>
          typeof computed[key] === 'number' ? (computed[key] as number) : undefined;
        out.set(row.id, { width: number('image.width'), height: number('image.height') });
      }
    }
    return out;
  }

  /** New ground-truth objects; those whose id exists (deleted ones) are written over and live. */
  async putObjects(objects: ObjectRecord[]): Promise<void> {
    const rows = objects.map((o) => ({
      dataset_id: o.dataset_id,
      id: o.id,
      sample_id: o.sample_id,
      label: o.label,
      x: o.x,
      y: o.y,
      w: o.w,
      h: o.h,
      segmentation: writeJson(o.segmentation),
      iscrowd: o.iscrowd ? 1 : 0,
      deleted: o.deleted ? 1 : 0,
      computed: writeJson(o.computed),
      created_at: o.created_at,
      updated_at: o.updated_at,
    }));
    for (const part of chunks(rows, INSERT_CHUNK))
      await this.db
        .insertInto('objects')
        .values(part)
        .onConflict((oc) =>
          oc.columns(['dataset_id', 'id']).doUpdateSet((eb) => ({
            sample_id: eb.ref('excluded.sample_id'),
            label: eb.ref('excluded.label'),
            x: eb.ref('excluded.x'),
            y: eb.ref('excluded.y'),
            w: eb.ref('excluded.w'),
            h: eb.ref('excluded.h'),
            segmentation: eb.ref('excluded.segmentation'),
            iscrowd: eb.ref('excluded.iscrowd'),
            deleted: eb.ref('excluded.deleted'),
            computed: eb.ref('excluded.computed'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
  }

  // ---- restore

  /**
   * Brings back the items of a delete record that are still deleted by it — deleted now, and not
   * deleted again by a later delete record of the same kind (an item uploaded again and deleted
   * again belongs to the later record) — and answers their ids. One statement finds and writes
   * them: the record's items drive it, each looked up by primary key (a join planned on
   * `deleted = 1` from statistics taken while the dataset had no deleted items walked the
   * (dataset, deleted, split) index once per item, for minutes at 100,000 items on PostgreSQL,
   * before migration 20261130120000_hot_deletes took `deleted` out of its indexes there).
   */
  async restoreDeletedBy(
    record: { id: string; dataset_id: string; operation_type: string; created_at: number },
    now: number,
  ): Promise<string[]> {
    const table = sql.table(record.operation_type === 'object:delete' ? 'objects' : 'samples');
    const notDeletedAgain = (item: RawBuilder<unknown>) => sql`not exists (
      select 1 from history_records later
        join history_items again on again.record_id = later.id and again.item_id = ${item}
      where later.dataset_id = ${record.dataset_id}
        and later.operation_type = ${record.operation_type}
        and later.created_at > ${record.created_at})`;
    const { rows } = await (
      this.dialect === 'postgres'
        ? // The items as an array behind a scalar subquery (see unnestUnseen): a nested loop of
          // primary-key lookups. `<> 0` rather than `= 1`, which the planner could look up once
          // per item in any index that holds `deleted` (none does since hot_deletes).
          sql<{ id: string }>`
          update ${table} as t set deleted = 0, updated_at = ${now}
          from unnest((select array(
            select h.item_id from history_items h
            where h.record_id = ${record.id} and ${notDeletedAgain(sql.ref('h.item_id'))}))) as u(id)
          where t.dataset_id = ${record.dataset_id} and t.id = u.id and t.deleted <> 0
          returning t.id`
        : // The row ids first, then the update by row id in their order (the table's order).
          sql<{ id: string }>`
          update ${table} set deleted = 0, updated_at = ${now}
          where rowid in (
            select t.rowid from history_items h
              cross join ${table} t on t.dataset_id = ${record.dataset_id} and t.id = h.item_id
            where h.record_id = ${record.id} and +t.deleted = 1
              and ${notDeletedAgain(sql.ref('h.item_id'))})
          returning id`
    ).execute(this.db);
    return rows.map((row) => row.id);
  }
}

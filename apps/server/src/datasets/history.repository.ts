// SQL for a dataset's version history: its entries (uploads grow one while the same user keeps
// uploading: datasets/history.ts decides when), the items each entry touched, and restores.
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { DB, HistoryRecordsTable } from '../db/schema.js';

export type HistoryEntry = Selectable<HistoryRecordsTable>;

/** Whether some of a record's items are live now, and (delete records) some still deleted. */
export interface HistoryItemState {
  live: boolean;
  deleted: boolean;
}

/** Item ids per statement: one array parameter each (unnest, json_each). */
const ITEM_CHUNK = 100_000;

const truthy = (value: unknown) => value === true || Number(value) === 1;

/**
 * PostgreSQL: the dataset's deleted samples, as rows of `id` (one per record that deleted it).
 * No index of samples holds `deleted` there, so that deletions and restores are HOT updates
 * (migration 20261130120000_hot_deletes); a sample is only ever deleted by a sample:delete
 * record, and stays deleted until that record is restored or the sample is uploaded again, so
 * the items of the dataset's delete records not restored are looked up by primary key, one
 * probe each. They reach the probes behind a scalar subquery: planned from the items' real
 * number, the statement's estimated cost called for a JIT compilation of 0.3 s.
 */
export function deletedSamplesByHistory(datasetId: string): RawBuilder<{ id: string }> {
  return sql<{ id: string }>`select u.id from unnest((select array(
      select h.item_id from history_records r join history_items h on h.record_id = r.id
      where r.dataset_id = ${datasetId} and r.operation_type = 'sample:delete'
        and r.restored_by is null))) as u(id)
    cross join lateral (select s.deleted from samples s
      where s.dataset_id = ${datasetId} and s.id = u.id limit 1) as l
    where l.deleted <> 0`;
}

export class HistoryRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect = 'sqlite',
  ) {}

  find(id: string): Promise<HistoryEntry | undefined> {
    return this.db
      .selectFrom('history_records')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Newest first. */
  list(datasetId: string): Promise<HistoryEntry[]> {
    return this.db
      .selectFrom('history_records')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .orderBy('created_at', 'desc')
      .execute();
  }

  latest(
    datasetId: string,
    operation: string,
    userId: string | null,
  ): Promise<HistoryEntry | undefined> {
    let query = this.db
      .selectFrom('history_records')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('operation_type', '=', operation);
    query = userId ? query.where('user_id', '=', userId) : query.where('user_id', 'is', null);
    return query.orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  }

  async insert(entry: HistoryEntry): Promise<void> {
    await this.db.insertInto('history_records').values(entry).execute();
  }

  async grow(id: string, items: number, now: number): Promise<void> {
    await this.db
      .updateTable('history_records')
      .set((eb) => ({ num_items: eb('num_items', '+', items), updated_at: now }))
      .where('id', '=', id)
      .execute();
  }

  /** Records which items a record touched (every record but sample:create, which samples name). */
  async insertItems(recordId: string, itemIds: readonly string[]): Promise<void> {
    for (let i = 0; i < itemIds.length; i += ITEM_CHUNK) {
      const part = itemIds.slice(i, i + ITEM_CHUNK);
      await (
        this.dialect === 'postgres'
          ? sql`insert into history_items (record_id, item_id)
            select ${recordId}, u.id from unnest(${part}::text[]) as u(id)`
          : sql`insert into history_items (record_id, item_id)
            select ${recordId}, u.value from json_each(${JSON.stringify(part)}) as u`
      ).execute(this.db);
    }
  }

  /**
   * Records that a record touched every item another one did, copied inside the database (a
   * restore of a whole deletion: 100,000 ids are not sent back as a parameter).
   */
  async copyItems(recordId: string, fromRecordId: string): Promise<void> {
    await sql`insert into history_items (record_id, item_id)
      select ${recordId}, h.item_id from history_items h
      where h.record_id = ${fromRecordId}`.execute(this.db);
  }

  /** The items a record touched. */
  async itemIds(recordId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('history_items')
      .select('item_id')
      .where('record_id', '=', recordId)
      .execute();
    return rows.map((row) => row.item_id);
  }

  async setRestoredBy(id: string, restoreId: string): Promise<void> {
    await this.db
      .updateTable('history_records')
      .set({ restored_by: restoreId })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Per record of a dataset: are some of its items live (a sample not deleted; an object not
   * deleted in a sample not deleted), and, for delete records not restored, are some still
   * deleted. Each EXISTS walks the record's items and seeks each one's row until one answers: on
   * SQLite CROSS JOIN keeps the items the outer loop, on PostgreSQL a LATERAL … LIMIT 1 does (a
   * planner without statistics would otherwise scan every sample of the dataset against the
   * items). A sample:create record names its samples through samples.created_record_id, which
   * has no index: it is read only when the dataset has deleted samples at all.
   */
  async itemStates(datasetId: string): Promise<Map<string, HistoryItemState>> {
    const pg = this.dialect === 'postgres';
    // The state of each item of record r: i.deleted, and i.sample_deleted for objects.
    const sampleItems = pg
      ? sql`history_items h cross join lateral (
          select s.deleted from samples s
          where s.dataset_id = r.dataset_id and s.id = h.item_id limit 1) as i`
      : sql`history_items h cross join samples i on i.dataset_id = r.dataset_id and i.id = h.item_id`;
    const objectItems = pg
      ? sql`history_items h cross join lateral (
          select o.deleted, (select s.deleted from samples s
            where s.dataset_id = o.dataset_id and s.id = o.sample_id limit 1) as sample_deleted
          from objects o where o.dataset_id = r.dataset_id and o.id = h.item_id limit 1) as i`
      : sql`history_items h cross join (
          select o.id, o.dataset_id, o.deleted, s.deleted as sample_deleted
          from objects o cross join samples s on s.dataset_id = o.dataset_id and s.id = o.sample_id
        ) as i on i.dataset_id = r.dataset_id and i.id = h.item_id`;
    // Whether the dataset has deleted samples (PostgreSQL indexes no `deleted`: see
    // deletedSamplesByHistory).
    const someDeleted = pg
      ? deletedSamplesByHistory(datasetId)
      : sql`select 1 from samples d where d.dataset_id = r.dataset_id and d.deleted = 1`;
    const { rows } = await sql<{ id: string; live: unknown; deleted: unknown }>`
      select r.id,
        case
          when r.operation_type = 'sample:create' then (
            not exists (${someDeleted})
            or exists (select 1 from samples s where s.dataset_id = r.dataset_id
              and s.created_record_id = r.id and s.deleted = 0))
          when r.data_level = 'image_object' then exists (
            select 1 from ${objectItems}
            where h.record_id = r.id and i.deleted = 0 and i.sample_deleted = 0)
          else exists (
            select 1 from ${sampleItems} where h.record_id = r.id and i.deleted = 0)
        end as live,
        case
          when r.restored_by is not null then ${pg ? sql`false` : sql`0`}
          when r.operation_type = 'sample:delete' then exists (
            select 1 from ${sampleItems} where h.record_id = r.id and i.deleted = 1)
          when r.operation_type = 'object:delete' then exists (
            select 1 from ${objectItems} where h.record_id = r.id and i.deleted = 1)
          else ${pg ? sql`false` : sql`0`}
        end as deleted
      from history_records r
      where r.dataset_id = ${datasetId}`.execute(this.db);
    return new Map(
      rows.map((row) => [row.id, { live: truthy(row.live), deleted: truthy(row.deleted) }]),
    );
  }
}

// SQL for subsets and their items. An item stays a member when it is soft-deleted (a restore
// brings it back), so every count and list of a subset's items joins its live rows: a sample not
// deleted, or a ground-truth object not deleted whose sample is not deleted either. Ids travel as
// one array parameter per statement (unnest on PostgreSQL, json_each on SQLite), so 100,000 items
// are a handful of statements, not one per id.
import type { DataLevel } from '@loupe/contracts';
import type { Kysely, RawBuilder, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { DB, SubsetsTable } from '../db/schema.js';
import { deletedSamplesByHistory } from '../datasets/history.repository.js';

type SubsetRow = Selectable<SubsetsTable>;

export interface SubsetRecord {
  id: string;
  dataset_id: string;
  name: string;
  description: string | null;
  data_level: DataLevel;
  enabled_for_performance: boolean;
  /** Members, live or not (the answer's num_items counts live ones: see liveCounts). */
  num_items: number;
  /** The position the next added item takes. */
  next_position: number;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

export type SubsetChanges = Partial<
  Pick<
    SubsetRecord,
    | 'name'
    | 'description'
    | 'enabled_for_performance'
    | 'num_items'
    | 'next_position'
    | 'updated_at'
  >
>;

function decode(row: SubsetRow): SubsetRecord {
  return {
    ...row,
    data_level: row.data_level as DataLevel,
    enabled_for_performance: row.enabled_for_performance === 1,
  };
}

function encode<T extends { enabled_for_performance?: boolean }>(
  record: T,
): Omit<T, 'enabled_for_performance'> & { enabled_for_performance?: number } {
  const { enabled_for_performance, ...rest } = record;
  return {
    ...rest,
    ...(enabled_for_performance !== undefined
      ? { enabled_for_performance: enabled_for_performance ? 1 : 0 }
      : {}),
  };
}

/** Ids per statement: one array parameter each, so the bound is memory, not parameter count. */
const BATCH = 50_000;

function batches<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += BATCH) out.push(values.slice(i, i + BATCH));
  return out;
}

export class SubsetsRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect = 'sqlite',
  ) {}

  /** A dataset's subsets, newest first. */
  async list(datasetId: string): Promise<SubsetRecord[]> {
    const rows = await this.db
      .selectFrom('subsets')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .orderBy('created_at', 'desc')
      .orderBy('name')
      .execute();
    return rows.map(decode);
  }

  async find(datasetId: string, id: string): Promise<SubsetRecord | null> {
    const row = await this.db
      .selectFrom('subsets')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? decode(row) : null;
  }

  /** The subset, locked for the rest of the transaction (PostgreSQL; SQLite writes one at a time). */
  async lock(datasetId: string, id: string): Promise<SubsetRecord | null> {
    if (this.dialect !== 'postgres') return this.find(datasetId, id);
    const row = await this.db
      .selectFrom('subsets')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    return row ? decode(row) : null;
  }

  async findByName(datasetId: string, name: string): Promise<SubsetRecord | null> {
    const row = await this.db
      .selectFrom('subsets')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? decode(row) : null;
  }

  async insert(subset: SubsetRecord): Promise<void> {
    await this.db
      .insertInto('subsets')
      .values(encode(subset) as SubsetRow)
      .execute();
  }

  async update(id: string, changes: SubsetChanges): Promise<void> {
    await this.db.updateTable('subsets').set(encode(changes)).where('id', '=', id).execute();
  }

  /** Deletes a subset and (by cascade) its items; false when there was none. */
  async delete(datasetId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('subsets')
      .where('dataset_id', '=', datasetId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Adds items (distinct ids) at positions `first`, `first + 1`, … in the order given; ids
   * already in the subset keep their place. With `liveIn`, only ids of live items of that dataset
   * and level go in (checking and adding in one pass). Answers how many were added.
   */
  addItems(
    subsetId: string,
    ids: string[],
    first: number,
    liveIn?: { datasetId: string; level: DataLevel },
  ): Promise<number> {
    return this.insertItems(subsetId, ids, first, liveIn, true);
  }

  /**
   * The first items of a subset inserted in this transaction (distinct ids, so none can be in
   * it yet) at positions 0, 1, …; with `liveIn`, only ids of live items of that dataset and
   * level (checked and added in one pass). Without the conflict clause of addItems: PostgreSQL's
   * speculative insertion doubled the cost of each row (0.8 s against 0.4 s for 100,000 items).
   */
  fill(
    subsetId: string,
    ids: string[],
    liveIn: { datasetId: string; level: DataLevel } | null,
  ): Promise<number> {
    return this.insertItems(subsetId, ids, 0, liveIn ?? undefined, false);
  }

  private async insertItems(
    subsetId: string,
    ids: string[],
    first: number,
    liveIn: { datasetId: string; level: DataLevel } | undefined,
    mayConflict: boolean,
  ): Promise<number> {
    const deleted =
      liveIn && liveIn.level !== 'image_object'
        ? await this.deletedSamples(liveIn.datasetId)
        : new Set<string>();
    let added = 0;
    let position = first;
    for (const part of batches(ids)) {
      const u = this.idList(deleted.size ? part.filter((id) => !deleted.has(id)) : part);
      const found = liveIn ? this.found(liveIn.datasetId, liveIn.level, u.id, 'inner') : null;
      // `where` also tells SQLite's parser that the upsert clause is not a join condition.
      const result = await sql`insert into subset_items (subset_id, item_id, position)
        select ${subsetId}, ${u.id}, ${position} + ${u.index}
        from ${u.from} ${found?.joins ?? sql``}
        where ${found?.where ?? sql`1 = 1`}
        ${mayConflict ? sql`on conflict do nothing` : sql``}`.execute(this.db);
      added += Number(result.numAffectedRows ?? 0);
      position += part.length;
    }
    return added;
  }

  /** Removes these items from the subset (ids not in it are ignored); answers how many went. */
  async removeItems(subsetId: string, ids: string[]): Promise<number> {
    let removed = 0;
    for (const part of batches(ids)) {
      const u = this.idList(part);
      const result = await sql`delete from subset_items
        where subset_id = ${subsetId} and item_id in (select ${u.id} from ${u.from})`.execute(
        this.db,
      );
      removed += Number(result.numAffectedRows ?? 0);
    }
    return removed;
  }

  /** Every member id, live or not, in no particular order (the explorer maps them to rows). */
  async memberIds(subsetId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('subset_items')
      .select('item_id')
      .where('subset_id', '=', subsetId)
      .execute();
    return rows.map((row) => row.item_id);
  }

  /** The subset's live item ids in the order they were added. */
  async liveItemIds(
    datasetId: string,
    subset: { id: string; level: DataLevel },
  ): Promise<string[]> {
    if (subset.level !== 'image_object') {
      // Members are samples (checked when added, and samples are never removed, only marked
      // deleted): leaving out the deleted ones is all it takes.
      const [deleted, rows] = await Promise.all([
        this.deletedSamples(datasetId),
        this.db
          .selectFrom('subset_items')
          .select('item_id')
          .where('subset_id', '=', subset.id)
          .orderBy('position')
          .execute(),
      ]);
      return rows.map((row) => row.item_id).filter((id) => !deleted.has(id));
    }
    const found = this.found(datasetId, subset.level, sql.ref('si.item_id'), 'inner');
    const { rows } = await sql<{ item_id: string }>`select si.item_id from subset_items si
      ${found.joins} where si.subset_id = ${subset.id} and ${found.where}
      order by si.position`.execute(this.db);
    return rows.map((row) => row.item_id);
  }

  /** Live items per subset (subsets without any are left out). */
  async liveCounts(
    datasetId: string,
    subsets: { id: string; level: DataLevel }[],
  ): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    const count = async (ids: string[], where: RawBuilder<unknown>, joins = sql``) => {
      const { rows } = await sql<{ subset_id: string; n: number | string }>`
        select si.subset_id, count(*) as n from subset_items si ${joins}
        where si.subset_id in (${sql.join(ids)}) and ${where}
        group by si.subset_id`.execute(this.db);
      return new Map(rows.map((row) => [row.subset_id, Number(row.n)]));
    };
    const ofSamples = subsets.filter((s) => s.level !== 'image_object').map((s) => s.id);
    if (ofSamples.length > 0) {
      // Members less the deleted ones (see liveItemIds), without looking up each member.
      const [members, deleted] = await Promise.all([
        count(ofSamples, sql`1 = 1`),
        this.deletedSamples(datasetId).then((ids) => {
          if (ids.size === 0) return new Map<string, number>();
          const u = this.idList([...ids]);
          return count(ofSamples, sql`si.item_id in (select ${u.id} from ${u.from})`);
        }),
      ]);
      for (const [id, n] of members) counts.set(id, n - (deleted.get(id) ?? 0));
    }
    const ofObjects = subsets.filter((s) => s.level === 'image_object').map((s) => s.id);
    if (ofObjects.length > 0) {
      const found = this.found(datasetId, 'image_object', sql.ref('si.item_id'), 'inner');
      for (const [id, n] of await count(ofObjects, found.where, found.joins)) counts.set(id, n);
    }
    return counts;
  }

  /** The ids among `ids` that name no live item of this level, in the order given. */
  async notLive(datasetId: string, level: DataLevel, ids: string[]): Promise<string[]> {
    const deleted =
      level === 'image_object' ? new Set<string>() : await this.deletedSamples(datasetId);
    const missing = new Set<string>();
    for (const part of batches(ids)) {
      const u = this.idList(part);
      const found = this.found(datasetId, level, u.id, 'outer');
      const { rows } = await sql<{ id: string }>`select ${u.id} as id
        from ${u.from} ${found.joins} where ${found.where}`.execute(this.db);
      for (const row of rows) missing.add(row.id);
    }
    return ids.filter((id) => deleted.has(id) || missing.has(id));
  }

  /**
   * The ids of the dataset's deleted samples: usually few. Samples are only ever marked deleted,
   * so a sample-level member is live unless it is one of these. SQLite reads them from the
   * (dataset, deleted, split) index. PostgreSQL indexes no `deleted`: it probes the items of the
   * dataset's delete records not restored (none most of the time; about 5 µs each), unless they
   * are more than a twentieth of the live samples, when reading the dataset's rows costs less
   * (a scan of 1,000,000 with 100,000 deleted: 0.1 s, against 0.45-0.6 s of probes).
   */
  private async deletedSamples(datasetId: string): Promise<Set<string>> {
    if (this.dialect === 'postgres') {
      const { rows: sizes } = await sql<{ items: number | string; live: number | null }>`select
          (select coalesce(sum(r.num_items), 0) from history_records r
            where r.dataset_id = ${datasetId} and r.operation_type = 'sample:delete'
              and r.restored_by is null) as items,
          (select d.samples_count from datasets d where d.id = ${datasetId}) as live`.execute(
        this.db,
      );
      const items = Number(sizes[0]?.items ?? 0);
      if (items === 0) return new Set();
      const { rows } = await (
        items * 20 < Number(sizes[0]?.live ?? 0)
          ? deletedSamplesByHistory(datasetId)
          : sql<{ id: string }>`select s.id from samples s
              where s.dataset_id = ${datasetId} and s.deleted <> 0`
      ).execute(this.db);
      return new Set(rows.map((row) => row.id));
    }
    const rows = await this.db
      .selectFrom('samples')
      .select('id')
      .where('dataset_id', '=', datasetId)
      .where('deleted', '=', 1)
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  /** A list of ids as a table `u` of one statement: its id and its 0-based index. */
  private idList(ids: string[]) {
    return this.dialect === 'postgres'
      ? {
          from: sql`unnest(${ids}::text[]) with ordinality as u(id, n)`,
          id: sql.ref('u.id'),
          index: sql`(u.n - 1)::int`,
        }
      : {
          from: sql`json_each(${JSON.stringify(ids)}) as u`,
          id: sql.ref('u.value'),
          index: sql.ref('u.key'),
        };
  }

  /**
   * How a statement finds the row of `item`: a sample of the dataset (deleted or not: callers
   * leave out deleted samples themselves), or a live ground-truth object (not deleted, of a
   * sample not deleted; objects are removed when their sample is uploaded again). Each item is
   * looked up by primary key, driven by the subset or the list of ids, never by the dataset's
   * far larger item tables. Answers the joins to add after the driving table and the condition
   * that keeps the items found ('inner') or those not found ('outer').
   */
  private found(
    datasetId: string,
    level: DataLevel,
    item: RawBuilder<unknown>,
    keep: 'inner' | 'outer',
  ): { joins: RawBuilder<unknown>; where: RawBuilder<unknown> } {
    if (this.dialect === 'postgres') {
      // A lateral subquery with `limit 1` stays one primary-key probe per row (an index-only
      // one for samples): a plain join lets the planner choose a hash join that reads every
      // sample of the dataset. `deleted` is read and compared outside, so the probe cannot be
      // planned on an index holding `deleted` (the (dataset, deleted, split) one, until the
      // hot_deletes migration), which a table never analyzed made look selective (each probe
      // then read the whole dataset).
      const probe =
        level === 'image_object'
          ? sql`lateral (select o.deleted + s.deleted as deleted from objects o
              join samples s on s.dataset_id = o.dataset_id and s.id = o.sample_id
              where o.dataset_id = ${datasetId} and o.id = ${item} limit 1) as l`
          : sql`lateral (select 0 as deleted from samples s
              where s.dataset_id = ${datasetId} and s.id = ${item} limit 1) as l`;
      return keep === 'inner'
        ? { joins: sql`cross join ${probe}`, where: sql`l.deleted = 0` }
        : { joins: sql`left join ${probe} on true`, where: sql`coalesce(l.deleted, 1) <> 0` };
    }
    // SQLite keeps the left side of a CROSS JOIN as the outer loop, and finds a sample in its
    // primary-key index alone. An object's sample is checked against the dataset's deleted
    // samples (a set built once per statement from the samples_split index) rather than by
    // reading its row, which carries all its metadata.
    const join = sql.raw(keep === 'inner' ? 'cross join' : 'left join');
    const joins =
      level === 'image_object'
        ? sql`${join} objects o on o.dataset_id = ${datasetId} and o.id = ${item} and o.deleted = 0
            ${join} samples s on s.dataset_id = o.dataset_id and s.id = o.sample_id
              and s.rowid not in
                (select rowid from samples where dataset_id = ${datasetId} and deleted = 1)`
        : sql`${join} samples s on s.dataset_id = ${datasetId} and s.id = ${item}`;
    return { joins, where: keep === 'inner' ? sql`1 = 1` : sql`s.id is null` };
  }
}

// SQL for datasets, their samples, objects, metadata fields, features, media and history.
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type {
  DB,
  DatasetsTable,
  FeaturesTable,
  HistoryRecordsTable,
  MetadataFieldsTable,
  ObjectsTable,
  SamplesTable,
} from '../db/schema.js';

export type DatasetRow = Selectable<DatasetsTable>;
export type SampleRow = Selectable<SamplesTable>;
export type ObjectRow = Selectable<ObjectsTable>;
export type MetadataFieldRow = Selectable<MetadataFieldsTable>;
export type FeatureRow = Selectable<FeaturesTable>;
export type HistoryRow = Selectable<HistoryRecordsTable>;

// Rows per INSERT statement: well under SQLite's 32,766 and PostgreSQL's 65,535 parameters.
const CHUNK = 500;

/** The condition of the partial index samples_unprocessed, as a literal. */
const UNPROCESSED = sql<boolean>`processed = 0`;

function chunks<T>(rows: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** Column order and PostgreSQL array types for bulk inserts of samples. */
const SAMPLE_COLUMNS: [keyof SampleRow, string][] = [
  ['dataset_id', 'text'],
  ['id', 'text'],
  ['seq', 'int4'],
  ['media_type', 'text'],
  ['media', 'text'],
  ['split', 'text'],
  ['label', 'text'],
  ['labels', 'text'],
  ['values_json', 'text'],
  ['transcript', 'text'],
  ['mask', 'text'],
  ['metadata', 'text'],
  ['computed', 'text'],
  ['thumbnail', 'text'],
  ['processed', 'int4'],
  ['deleted', 'int4'],
  ['created_record_id', 'text'],
  ['created_at', 'int8'],
  ['updated_at', 'int8'],
];

export class DatasetsRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: 'sqlite' | 'postgres' = 'sqlite',
  ) {}

  async insert(row: DatasetRow): Promise<void> {
    await this.db.insertInto('datasets').values(row).execute();
  }

  find(id: string): Promise<DatasetRow | undefined> {
    return this.db.selectFrom('datasets').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByName(name: string): Promise<DatasetRow | undefined> {
    return this.db.selectFrom('datasets').selectAll().where('name', '=', name).executeTakeFirst();
  }

  list(): Promise<DatasetRow[]> {
    return this.db.selectFrom('datasets').selectAll().orderBy('updated_at', 'desc').execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('datasets').where('id', '=', id).execute();
  }

  async update(id: string, changes: Partial<Omit<DatasetRow, 'id'>>): Promise<void> {
    await this.db.updateTable('datasets').set(changes).where('id', '=', id).execute();
  }

  /** Marks the dataset's items as changed: explorer tables built before are stale. */
  async bumpDataVersion(id: string): Promise<void> {
    await this.db
      .updateTable('datasets')
      .set((eb) => ({ data_version: eb('data_version', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /**
   * Holds the dataset's row until the transaction ends, so that uploads of samples or predictions
   * to one dataset take turns (SQLite's transactions already do): each sees what the one before
   * stored, and batches sent at once land whole, one after the other. FOR NO KEY UPDATE, the lock an
   * update of the row takes anyway, still lets other transactions insert rows that refer to it.
   */
  async lockForUpload(id: string): Promise<void> {
    if (this.dialect !== 'postgres') return;
    await this.db
      .selectFrom('datasets')
      .select('id')
      .where('id', '=', id)
      .forNoKeyUpdate()
      .execute();
  }

  /** Reserves `count` consecutive sequence numbers (card_index) for new samples. */
  async reserveSeq(id: string, count: number): Promise<number> {
    const row = await this.db
      .updateTable('datasets')
      .set((eb) => ({ next_seq: eb('next_seq', '+', count) }))
      .where('id', '=', id)
      .returning('next_seq')
      .executeTakeFirstOrThrow();
    return row.next_seq - count;
  }

  async addCounts(id: string, samples: number, objects: number, now: number): Promise<void> {
    await this.db
      .updateTable('datasets')
      .set((eb) => ({
        samples_count: eb('samples_count', '+', samples),
        objects_count: eb('objects_count', '+', objects),
        updated_at: now,
      }))
      .where('id', '=', id)
      .execute();
  }

  /**
   * The dataset's splits, ascending. A loose index scan on samples_split: one seek per split, so
   * the cost follows the number of splits, not of samples (a DISTINCT reads every row).
   */
  async splits(id: string): Promise<string[]> {
    const result = await sql<{ split: string }>`
      with recursive s(split) as (
        select min(split) from samples
          where dataset_id = ${id} and deleted = 0 and split is not null
        union all
        select (select min(split) from samples
                  where dataset_id = ${id} and deleted = 0 and split > s.split)
          from s where s.split is not null
      )
      select split from s where split is not null`.execute(this.db);
    return result.rows.map((row) => row.split);
  }

  /** The first samples with a thumbnail, for previews. */
  async previewSamples(
    id: string,
    limit: number,
  ): Promise<Pick<SampleRow, 'id' | 'thumbnail' | 'media'>[]> {
    return this.db
      .selectFrom('samples')
      .select(['id', 'thumbnail', 'media'])
      .where('dataset_id', '=', id)
      .where('deleted', '=', 0)
      .where('thumbnail', 'is not', null)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  // ---- samples and objects

  async samplesByIds(datasetId: string, ids: string[]): Promise<SampleRow[]> {
    if (ids.length === 0) return [];
    if (this.dialect === 'postgres') {
      // One primary-key lookup per id, whatever the planner's statistics say. `id = any($ids)`
      // and plain joins are planned from them: on a table that was never analyzed (autovacuum
      // off, or a million rows just arrived) PostgreSQL read every sample of the dataset for each
      // batch, 0.6 s per 5,000 ids at 1M samples. `limit 1` keeps the lateral subquery from
      // being flattened into such a join.
      const { rows } = await sql<SampleRow>`select s.* from unnest(${ids}::text[]) as u(id)
        cross join lateral (
          select * from samples where dataset_id = ${datasetId} and id = u.id limit 1
        ) as s`.execute(this.db);
      return rows;
    }
    const out: SampleRow[] = [];
    for (const part of chunks(ids, 900)) {
      out.push(
        ...(await this.db
          .selectFrom('samples')
          .selectAll()
          .where('dataset_id', '=', datasetId)
          .where('id', 'in', part)
          .execute()),
      );
    }
    return out;
  }

  async insertSamples(rows: SampleRow[]): Promise<void> {
    if (rows.length === 0) return;
    if (this.dialect === 'postgres') {
      // One statement with one array per column: PostgreSQL parses and plans it once per batch.
      const columns = sql.join(SAMPLE_COLUMNS.map(([name]) => sql.ref(name)));
      const arrays = sql.join(
        SAMPLE_COLUMNS.map(
          ([name, type]) => sql`${rows.map((row) => row[name])}::${sql.raw(type)}[]`,
        ),
      );
      await sql`insert into samples (${columns}) select * from unnest(${arrays})`.execute(this.db);
      return;
    }
    for (const part of chunks(rows)) await this.db.insertInto('samples').values(part).execute();
  }

  async updateSample(row: SampleRow): Promise<void> {
    const {
      dataset_id,
      id,
      seq: _seq,
      created_at: _created,
      created_record_id: _record,
      ...changes
    } = row;
    await this.db
      .updateTable('samples')
      .set(changes)
      .where('dataset_id', '=', dataset_id)
      .where('id', '=', id)
      .execute();
  }

  /** Replaces the objects of the given samples; answers how many objects were there before. */
  async replaceObjects(datasetId: string, sampleIds: string[], rows: ObjectRow[]): Promise<number> {
    let removed = 0;
    for (const part of chunks(sampleIds, 900)) {
      const result = await this.db
        .deleteFrom('objects')
        .where('dataset_id', '=', datasetId)
        .where('sample_id', 'in', part)
        .executeTakeFirst();
      removed += Number(result.numDeletedRows);
    }
    for (const part of chunks(rows)) await this.db.insertInto('objects').values(part).execute();
    return removed;
  }

  objectsOfSamples(datasetId: string, sampleIds: string[]): Promise<ObjectRow[]> {
    return this.db
      .selectFrom('objects')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('sample_id', 'in', sampleIds)
      .orderBy('id')
      .execute();
  }

  /**
   * The next unprocessed samples after `afterSeq` in upload order: a range scan of the partial
   * index samples_unprocessed, whose condition `processed = 0` the query repeats word for word.
   */
  unprocessedSamples(datasetId: string, limit: number, afterSeq = -1): Promise<SampleRow[]> {
    return this.unprocessedQuery(datasetId, limit, afterSeq).execute();
  }

  unprocessedQuery(datasetId: string, limit: number, afterSeq: number) {
    return this.db
      .selectFrom('samples')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where(UNPROCESSED)
      .where('seq', '>', afterSeq)
      .where('deleted', '=', 0)
      .orderBy('seq')
      .limit(limit);
  }

  async countUnprocessed(datasetId: string): Promise<number> {
    const row = await this.db
      .selectFrom('samples')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('dataset_id', '=', datasetId)
      .where(UNPROCESSED)
      .where('deleted', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async samplesWithoutThumbnail(
    datasetId: string,
    afterSeq: number,
    limit: number,
  ): Promise<SampleRow[]> {
    return this.db
      .selectFrom('samples')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('thumbnail', 'is', null)
      .where('deleted', '=', 0)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  async setSampleProcessing(
    datasetId: string,
    id: string,
    changes: { computed?: string; processed?: number; thumbnail?: string | null },
  ): Promise<void> {
    await this.db
      .updateTable('samples')
      .set(changes)
      .where('dataset_id', '=', datasetId)
      .where('id', '=', id)
      .execute();
  }

  /**
   * Stores a batch of computed metadata and marks the samples processed; a thumbnail is set only
   * where one was made. On PostgreSQL one statement per batch (a round trip per row costs more than
   * the update); SQLite runs in-process, where a statement per row is cheap.
   */
  async setSamplesProcessed(
    datasetId: string,
    rows: { id: string; computed: string; thumbnail?: string }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    if (this.dialect === 'postgres') {
      await sql`update samples as s
        set computed = u.computed, processed = 1, thumbnail = coalesce(u.thumbnail, s.thumbnail)
        from unnest(${rows.map((row) => row.id)}::text[], ${rows.map((row) => row.computed)}::text[],
          ${rows.map((row) => row.thumbnail ?? null)}::text[]) as u(id, computed, thumbnail)
        where s.dataset_id = ${datasetId} and s.id = u.id`.execute(this.db);
      return;
    }
    for (const row of rows)
      await this.setSampleProcessing(datasetId, row.id, {
        computed: row.computed,
        processed: 1,
        ...(row.thumbnail ? { thumbnail: row.thumbnail } : {}),
      });
  }

  /** Marks thumbnails as made, in one transaction-friendly pass. */
  async setThumbnails(datasetId: string, rows: { id: string; thumbnail: string }[]): Promise<void> {
    for (const row of rows) {
      await this.db
        .updateTable('samples')
        .set({ thumbnail: row.thumbnail })
        .where('dataset_id', '=', datasetId)
        .where('id', '=', row.id)
        .execute();
    }
  }

  async setObjectComputed(datasetId: string, id: string, computed: string): Promise<void> {
    await this.db
      .updateTable('objects')
      .set({ computed })
      .where('dataset_id', '=', datasetId)
      .where('id', '=', id)
      .execute();
  }

  async clearThumbnails(datasetId: string): Promise<void> {
    await this.db
      .updateTable('samples')
      .set({ thumbnail: null })
      .where('dataset_id', '=', datasetId)
      .execute();
  }

  async durationBounds(datasetId: string): Promise<{ min: number | null; max: number | null }> {
    // Durations live in the computed JSON; read them in SQL so 1M rows never cross into JS.
    const expression = sql<number>`cast(${sql.raw(this.jsonNumber('computed', 'audio.duration'))} as double precision)`;
    const row = await this.db
      .selectFrom('samples')
      .select([
        sql<number | null>`min(${expression})`.as('min'),
        sql<number | null>`max(${expression})`.as('max'),
      ])
      .where('dataset_id', '=', datasetId)
      .where('deleted', '=', 0)
      .where('media_type', '=', 'audio')
      .where('processed', '=', 1)
      .executeTakeFirstOrThrow();
    return {
      min: row.min === null ? null : Number(row.min),
      max: row.max === null ? null : Number(row.max),
    };
  }

  private jsonNumber(column: string, key: string): string {
    const pg = this.db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
    return pg ? `(${column}::json->>'${key}')` : `json_extract(${column}, '$."${key}"')`;
  }

  // ---- metadata fields

  metadataFields(datasetId: string, dataLevel?: string): Promise<MetadataFieldRow[]> {
    let query = this.db
      .selectFrom('metadata_fields')
      .selectAll()
      .where('dataset_id', '=', datasetId);
    if (dataLevel) query = query.where('data_level', '=', dataLevel);
    return query.orderBy('created_at').orderBy('id').execute();
  }

  async insertMetadataFields(rows: MetadataFieldRow[]): Promise<void> {
    for (const part of chunks(rows)) {
      await this.db
        .insertInto('metadata_fields')
        .values(part)
        .onConflict((oc) => oc.columns(['dataset_id', 'data_level', 'id']).doNothing())
        .execute();
    }
  }

  async setMetadataState(
    datasetId: string,
    source: string,
    state: 'available' | 'pending',
  ): Promise<void> {
    await this.db
      .updateTable('metadata_fields')
      .set({ state })
      .where('dataset_id', '=', datasetId)
      .where('source', '=', source)
      .execute();
  }

  // ---- features

  features(datasetId: string): Promise<FeatureRow[]> {
    return this.db
      .selectFrom('features')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .orderBy('created_at')
      .execute();
  }

  async upsertFeature(row: FeatureRow): Promise<void> {
    await this.db
      .insertInto('features')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['dataset_id', 'data_level', 'name'])
          // Strictly increasing, so it versions the vectors (embeddings are keyed by it) even
          // when two uploads land within one millisecond.
          .doUpdateSet({
            updated_at: sql<number>`case when features.updated_at >= ${row.updated_at} then features.updated_at + 1 else ${row.updated_at} end`,
          }),
      )
      .execute();
  }

  async upsertVectors(
    rows: {
      dataset_id: string;
      data_level: string;
      feature_name: string;
      item_id: string;
      vector: Buffer;
    }[],
  ): Promise<void> {
    for (const part of chunks(rows)) {
      await this.db
        .insertInto('feature_vectors')
        .values(part)
        .onConflict((oc) =>
          oc
            .columns(['dataset_id', 'data_level', 'feature_name', 'item_id'])
            .doUpdateSet((eb) => ({ vector: eb.ref('excluded.vector') })),
        )
        .execute();
    }
  }

  async countVectors(datasetId: string, dataLevel: string, name: string): Promise<number> {
    const row = await this.db
      .selectFrom('feature_vectors')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('dataset_id', '=', datasetId)
      .where('data_level', '=', dataLevel)
      .where('feature_name', '=', name)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countObjects(datasetId: string): Promise<number> {
    const row = await this.db
      .selectFrom('objects')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('dataset_id', '=', datasetId)
      .where('deleted', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  // ---- media blobs

  async recordMedia(row: {
    dataset_id: string;
    key: string;
    size: number;
    content_type: string;
    created_at: number;
  }): Promise<void> {
    await this.db
      .insertInto('media_blobs')
      .values(row)
      .onConflict((oc) => oc.columns(['dataset_id', 'key']).doNothing())
      .execute();
  }

  async existingMedia(datasetId: string, keys: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of chunks(keys, 900)) {
      const rows = await this.db
        .selectFrom('media_blobs')
        .select('key')
        .where('dataset_id', '=', datasetId)
        .where('key', 'in', part)
        .execute();
      for (const row of rows) found.add(row.key);
    }
    return found;
  }

  mediaInfo(datasetId: string, key: string) {
    return this.db
      .selectFrom('media_blobs')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('key', '=', key)
      .executeTakeFirst();
  }

  // ---- history

  history(datasetId: string): Promise<HistoryRow[]> {
    return this.db
      .selectFrom('history_records')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .orderBy('created_at', 'desc')
      .execute();
  }

  latestHistory(
    datasetId: string,
    operation: string,
    userId: string | null,
  ): Promise<HistoryRow | undefined> {
    let query = this.db
      .selectFrom('history_records')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('operation_type', '=', operation);
    query = userId ? query.where('user_id', '=', userId) : query.where('user_id', 'is', null);
    return query.orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  }

  async insertHistory(row: HistoryRow): Promise<void> {
    await this.db.insertInto('history_records').values(row).execute();
  }

  async growHistory(id: string, items: number, now: number): Promise<void> {
    await this.db
      .updateTable('history_records')
      .set((eb) => ({ num_items: eb('num_items', '+', items), updated_at: now }))
      .where('id', '=', id)
      .execute();
  }
}

// SQL for samples and their ground-truth objects: lookups by id, bulk writes of an upload, and
// the reads and writes of the processing passes. Rows leave as records: JSON columns decoded,
// flags as booleans.
import type { MetadataValue, ObjectInput } from '@loupe/contracts';
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../db/database.js';
import { readJson, writeJson } from '../db/json-columns.js';
import type { DB, ObjectsTable, SamplesTable } from '../db/schema.js';

type SampleRow = Selectable<SamplesTable>;
type ObjectRow = Selectable<ObjectsTable>;

/** Values of a regression sample or prediction: by name, or in the dataset's value order. */
export type NumericValues = Record<string, number> | number[];
/** What the metadata pass measured of an item (numbers, strings, booleans, an error). */
export type ComputedValues = Record<string, unknown>;
export type Segmentation = NonNullable<ObjectInput['segmentation']>;

export interface SampleRecord {
  dataset_id: string;
  id: string;
  seq: number;
  media_type: 'image' | 'audio' | null;
  media: string | null;
  split: string | null;
  label: string | null;
  labels: string[] | null;
  values: NumericValues | null;
  transcript: string | null;
  mask: string | null;
  metadata: Record<string, MetadataValue> | null;
  computed: ComputedValues | null;
  thumbnail: string | null;
  processed: boolean;
  deleted: boolean;
  created_record_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface ObjectRecord {
  dataset_id: string;
  id: string;
  sample_id: string;
  label: string;
  x: number | null;
  y: number | null;
  w: number | null;
  h: number | null;
  segmentation: Segmentation | null;
  iscrowd: boolean;
  deleted: boolean;
  computed: ComputedValues | null;
  created_at: number;
  updated_at: number;
}

export function decodeSample(row: SampleRow): SampleRecord {
  const { values_json, labels, metadata, computed, processed, deleted, ...rest } = row;
  return {
    ...rest,
    labels: readJson<string[]>(labels),
    values: readJson<NumericValues>(values_json),
    metadata: readJson<Record<string, MetadataValue>>(metadata),
    computed: readJson<ComputedValues>(computed),
    processed: processed === 1,
    deleted: deleted === 1,
  };
}

function encodeSample(sample: SampleRecord): SampleRow {
  const { values, labels, metadata, computed, processed, deleted, ...rest } = sample;
  return {
    ...rest,
    labels: writeJson(labels),
    values_json: writeJson(values),
    metadata: writeJson(metadata),
    computed: writeJson(computed),
    processed: processed ? 1 : 0,
    deleted: deleted ? 1 : 0,
  };
}

export function decodeObject(row: ObjectRow): ObjectRecord {
  const { segmentation, computed, iscrowd, deleted, ...rest } = row;
  return {
    ...rest,
    segmentation: readJson<Segmentation>(segmentation),
    computed: readJson<ComputedValues>(computed),
    iscrowd: iscrowd === 1,
    deleted: deleted === 1,
  };
}

function encodeObject(object: ObjectRecord): ObjectRow {
  const { segmentation, computed, iscrowd, deleted, ...rest } = object;
  return {
    ...rest,
    segmentation: writeJson(segmentation),
    computed: writeJson(computed),
    iscrowd: iscrowd ? 1 : 0,
    deleted: deleted ? 1 : 0,
  };
}

// Rows per INSERT statement: well under SQLite's 32,766 and PostgreSQL's 65,535 parameters.
const CHUNK = 500;
const IN_CHUNK = 900;

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

export class SamplesRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect = 'sqlite',
  ) {}

  /** The samples with these ids (deleted ones too), in no particular order. */
  async byIds(datasetId: string, ids: string[]): Promise<SampleRecord[]> {
    return (await this.rowsByIds(datasetId, ids)).map(decodeSample);
  }

  /** Which of these ids name samples of the dataset (only live ones when `live`). */
  async existingIds(
    datasetId: string,
    ids: string[],
    options: { live: boolean },
  ): Promise<Set<string>> {
    const rows = await this.rowsByIds(datasetId, ids);
    return new Set(rows.filter((row) => !options.live || row.deleted === 0).map((row) => row.id));
  }

  /** The seqs of those of these samples that are live, by id. */
  async liveSeqs(datasetId: string, ids: string[]): Promise<Map<string, number>> {
    const rows = await this.rowsByIds(datasetId, ids);
    return new Map(rows.filter((row) => row.deleted === 0).map((row) => [row.id, row.seq]));
  }

  private async rowsByIds(datasetId: string, ids: string[]): Promise<SampleRow[]> {
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
    for (const part of chunks(ids, IN_CHUNK)) {
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

  async insert(samples: SampleRecord[]): Promise<void> {
    if (samples.length === 0) return;
    const rows = samples.map(encodeSample);
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

  /** Writes a sample's content and state; its sequence number and creation stay. */
  async update(sample: SampleRecord): Promise<void> {
    const {
      dataset_id,
      id,
      seq: _seq,
      created_at: _created,
      created_record_id: _record,
      ...changes
    } = encodeSample(sample);
    await this.db
      .updateTable('samples')
      .set(changes)
      .where('dataset_id', '=', dataset_id)
      .where('id', '=', id)
      .execute();
  }

  /** Replaces the objects of the given samples; answers how many objects were there before. */
  async replaceObjects(
    datasetId: string,
    sampleIds: string[],
    objects: ObjectRecord[],
  ): Promise<number> {
    let removed = 0;
    for (const part of chunks(sampleIds, IN_CHUNK)) {
      const result = await this.db
        .deleteFrom('objects')
        .where('dataset_id', '=', datasetId)
        .where('sample_id', 'in', part)
        .executeTakeFirst();
      removed += Number(result.numDeletedRows);
    }
    for (const part of chunks(objects.map(encodeObject)))
      await this.db.insertInto('objects').values(part).execute();
    return removed;
  }

  /** The live (not deleted) objects of these samples. */
  async objectsOf(datasetId: string, sampleIds: string[]): Promise<ObjectRecord[]> {
    const rows = await this.db
      .selectFrom('objects')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('deleted', '=', 0)
      .where('sample_id', 'in', sampleIds)
      .orderBy('id')
      .execute();
    return rows.map(decodeObject);
  }

  // ---- processing

  /**
   * The next unprocessed samples after `afterSeq` in upload order: a range scan of the partial
   * index samples_unprocessed, whose condition `processed = 0` the query repeats word for word.
   */
  async unprocessed(datasetId: string, limit: number, afterSeq = -1): Promise<SampleRecord[]> {
    return (await this.unprocessedQuery(datasetId, limit, afterSeq).execute()).map(decodeSample);
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

  async withoutThumbnail(
    datasetId: string,
    afterSeq: number,
    limit: number,
  ): Promise<SampleRecord[]> {
    const rows = await this.db
      .selectFrom('samples')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('thumbnail', 'is', null)
      .where('deleted', '=', 0)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map(decodeSample);
  }

  /**
   * Stores a batch of computed metadata and marks the samples processed; a thumbnail is set only
   * where one was made. On PostgreSQL one statement per batch (a round trip per row costs more than
   * the update); SQLite runs in-process, where a statement per row is cheap.
   */
  async setProcessed(
    datasetId: string,
    samples: { id: string; computed: ComputedValues; thumbnail?: string }[],
  ): Promise<void> {
    if (samples.length === 0) return;
    const rows = samples.map((sample) => ({ ...sample, computed: writeJson(sample.computed)! }));
    if (this.dialect === 'postgres') {
      await sql`update samples as s
        set computed = u.computed, processed = 1, thumbnail = coalesce(u.thumbnail, s.thumbnail)
        from unnest(${rows.map((row) => row.id)}::text[], ${rows.map((row) => row.computed)}::text[],
          ${rows.map((row) => row.thumbnail ?? null)}::text[]) as u(id, computed, thumbnail)
        where s.dataset_id = ${datasetId} and s.id = u.id`.execute(this.db);
      return;
    }
    for (const row of rows)
      await this.db
        .updateTable('samples')
        .set({
          computed: row.computed,
          processed: 1,
          ...(row.thumbnail ? { thumbnail: row.thumbnail } : {}),
        })
        .where('dataset_id', '=', datasetId)
        .where('id', '=', row.id)
        .execute();
  }

  /** Records thumbnails made, in one transaction-friendly pass. */
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

  async setObjectComputed(datasetId: string, id: string, computed: ComputedValues): Promise<void> {
    await this.db
      .updateTable('objects')
      .set({ computed: writeJson(computed) })
      .where('dataset_id', '=', datasetId)
      .where('id', '=', id)
      .execute();
  }
}

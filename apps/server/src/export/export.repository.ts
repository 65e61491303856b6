// SQL of exports: a subset's item ids in pages, and the live samples, objects and predictions of
// one page of items. Only live items are exported: a sample not deleted, an object not deleted
// whose sample is not deleted. Rows leave decoded, with only the JSON columns asked for parsed.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../db/database.js';
import { readJson } from '../db/json-columns.js';
import type { DB } from '../db/schema.js';
import {
  decodePredictedObject,
  decodePrediction,
  type PredictedObjectRecord,
  type PredictionRecord,
} from '../prediction-sets/prediction-sets.repository.js';
import type { NumericValues, ObjectRecord, Segmentation } from '../samples/samples.repository.js';
import { MetadataCells } from './csv-cells.js';
import { pageRows, type PageRow } from './page-rows.js';

/** A page of a subset for a CSV's threads: see ExportRepository.csvPages. */
export interface CsvPage {
  /** The items read (at most a page: fewer means the last page), and the last of them. */
  scanned: number;
  last: string | null;
  /** PostgreSQL: the page's samples, live or not, as one text; null: the main thread's. */
  text?: Promise<{ count: number; text: string | null } | null>;
}

export interface CsvPages {
  /** The SQLite file the threads read; null: pages come with their text. */
  file: string | null;
  page(after: string): Promise<CsvPage>;
}

/** What an export reads of a sample. */
export interface ExportSample {
  id: string;
  seq: number;
  split: string | null;
  media: string | null;
  label: string | null;
  values: NumericValues | null;
  transcript: string | null;
  mask: string | null;
  /**
   * The CSV cells of `SampleFields.metadata` (`,a,b`; empty without columns), made from the
   * stored JSON as the row is read, without parsing it (csv-cells.ts).
   */
  metadataCells: string;
  /** Pixels, from the metadata pass; null before it ran (or with `size: false`). */
  width: number | null;
  height: number | null;
}

/** What an export reads of a ground-truth object. */
export type ExportObject = Pick<
  ObjectRecord,
  'id' | 'sample_id' | 'label' | 'x' | 'y' | 'w' | 'h' | 'segmentation' | 'iscrowd'
>;

export interface SubsetRef {
  id: string;
  name: string;
  data_level: string;
}

const IN_CHUNK = 900;
/** Pages of samples PostgreSQL reads beyond the one being written. */
const READ_AHEAD = 2;

function objectOf(text: string | null): Record<string, unknown> | null {
  const value = readJson<unknown>(text);
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function numberOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** What a page reads of a sample besides its id, order, split and media. */
export interface SampleFields {
  /** The task's ground truth column (a task with objects has none on its samples). */
  truth: 'label' | 'values_json' | 'mask' | 'transcript' | null;
  /** Width and height from the metadata pass (COCO needs them; a CSV does not). */
  size: boolean;
  /** The uploaded metadata fields whose CSV cells to make (none for COCO). */
  metadata: readonly string[];
}

interface SampleRow {
  id: string;
  seq: number;
  split: string | null;
  media: string | null;
  metadata: string | null;
  truth: string | null;
  computed: string | null;
}

/**
 * The select list of a sample page: only the columns the export writes (a million rows).
 * Callers keep only live samples (`deleted = 0`).
 */
function sampleColumns(fields: SampleFields) {
  const truth = fields.truth ? sql.ref(`s.${fields.truth}`) : sql`null`;
  return sql`s.id, s.seq, s.split, s.media,
    ${fields.metadata.length ? sql`s.metadata` : sql`null`} as metadata, ${truth} as truth,
    ${fields.size ? sql`s.computed` : sql`null`} as computed`;
}

/**
 * The same columns of a PostgreSQL page as one text, read back by `pageRows` (page-rows.ts);
 * with the number of rows, `count`.
 */
function sampleFieldsText(fields: SampleFields) {
  const truth = fields.truth ? sql.ref(`s.${fields.truth}`) : sql`null`;
  const metadata = fields.metadata.length ? sql`s.metadata` : sql`null`;
  const computed = fields.size ? sql`s.computed` : sql`null`;
  return sql`count(*)::int as count, string_agg(concat(s.id, chr(1), s.seq, chr(1),
    '.' || s.split, chr(1), s.media, chr(1), ${truth}, chr(1), ${metadata}, chr(1), ${computed},
    chr(1), s.deleted), chr(2)) as text`;
}

function sampleRow([id, seq, split, media, truth, metadata, computed, deleted]: PageRow) {
  return { id, seq, split, media, truth, metadata, computed, deleted };
}

/** One reader per request's fields (a page after page export asks with the same object). */
const readers = new WeakMap<SampleFields, MetadataCells>();

/** Rows of live samples as records. */
function decodeSamples(rows: SampleRow[], fields: SampleFields): ExportSample[] {
  let reader = readers.get(fields);
  if (!reader) readers.set(fields, (reader = new MetadataCells(fields.metadata)));
  const out: ExportSample[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const computed = fields.size ? objectOf(row.computed) : null;
    const values = fields.truth === 'values_json' ? readJson<unknown>(row.truth) : null;
    out[i] = {
      id: row.id,
      seq: row.seq,
      split: row.split,
      media: row.media,
      label: fields.truth === 'label' ? row.truth : null,
      values: values && typeof values === 'object' ? (values as NumericValues) : null,
      transcript: fields.truth === 'transcript' ? row.truth : null,
      mask: fields.truth === 'mask' ? row.truth : null,
      metadataCells: reader.read(row.metadata),
      width: numberOf(computed?.['image.width']),
      height: numberOf(computed?.['image.height']),
    };
  }
  return out;
}

export class ExportRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  findSubset(datasetId: string, subsetId: string): Promise<SubsetRef | undefined> {
    return this.db
      .selectFrom('subsets')
      .select(['id', 'name', 'data_level'])
      .where('id', '=', subsetId)
      .where('dataset_id', '=', datasetId)
      .executeTakeFirst();
  }

  /** A subset's item ids after `afterId`, in id order (keyset paging on the primary key). */
  async subsetItemIdsAfter(subsetId: string, afterId: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('subset_items')
      .select('item_id')
      .where('subset_id', '=', subsetId)
      .where('item_id', '>', afterId)
      .orderBy('item_id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.item_id);
  }

  /** The SQLite database's file, which a thread can open too; null on PostgreSQL or in memory. */
  async sqliteFile(): Promise<string | null> {
    if (this.dialect !== 'sqlite') return null;
    const { rows } = await sql<{ file: string | null }>`select file from pragma_database_list
      where name = 'main'`.execute(this.db);
    return rows[0]?.file || null;
  }

  /**
   * The live samples of a subset's items, page by page: each page the live samples among the
   * next `pageSize` items in item id order (keyset paging on the primary key of subset_items).
   * Pages with no live sample are skipped. `start`: the item id the first page starts after.
   */
  async *subsetSamplePages(
    datasetId: string,
    subsetId: string,
    pageSize: number,
    fields: SampleFields,
    start = '',
  ): AsyncGenerator<ExportSample[]> {
    if (this.dialect === 'postgres') {
      yield* this.subsetSamplePagesPostgres(datasetId, subsetId, pageSize, fields, start);
      return;
    }
    // SQLite reads on this thread: reading ahead would only hold a second page in memory.
    let after = start;
    for (;;) {
      const page = await this.subsetSamplesSqlite(datasetId, subsetId, after, pageSize, fields);
      if (page.samples.length) yield page.samples;
      if (page.scanned < pageSize) return;
      after = page.last;
    }
  }

  /**
   * PostgreSQL's pages, read ahead while the caller writes: the chain of item id pages runs
   * first (each needs the last id of the one before), and each page's samples are read as soon
   * as its ids are known, up to READ_AHEAD pages beyond the one being written.
   */
  private async *subsetSamplePagesPostgres(
    datasetId: string,
    subsetId: string,
    pageSize: number,
    fields: SampleFields,
    start: string,
  ): AsyncGenerator<ExportSample[]> {
    const pageIds = (after: string) => this.pageIdsPostgres(subsetId, after, pageSize);
    let ids = pageIds(start);
    const queue: Promise<{ samples: ExportSample[]; more: boolean }>[] = [];
    const launch = () => {
      const these = ids;
      queue.push(
        these.then(async (list) => ({
          samples: list.length ? await this.pageSamplesPostgres(datasetId, list, fields) : [],
          more: list.length === pageSize,
        })),
      );
      ids = these.then((list) => (list.length === pageSize ? pageIds(list.at(-1)!) : []));
    };
    try {
      for (let i = 0; i <= READ_AHEAD; i++) launch();
      for (;;) {
        const { samples, more } = await queue.shift()!;
        if (more) launch();
        if (samples.length) yield samples;
        if (!more) return;
      }
    } finally {
      // Done, or abandoned (the client went away): what was read ahead is not waited for.
      for (const page of queue) page.catch(() => {});
      ids.catch(() => {});
    }
  }

  /** How many of a subset's items follow `afterId` (at most `limit`), and the last of them. */
  async subsetPageExtent(
    subsetId: string,
    afterId: string,
    limit: number,
  ): Promise<{ scanned: number; first: string | null; last: string | null }> {
    const { rows } = await sql<{
      scanned: number | string;
      first: string | null;
      last: string | null;
    }>`
      select count(*) as scanned, min(item_id) as first, max(item_id) as last from (
        select item_id from subset_items
        where subset_id = ${subsetId} and item_id > ${afterId} order by item_id limit ${limit}
      ) as page`.execute(this.db);
    return { scanned: Number(rows[0]!.scanned), first: rows[0]!.first, last: rows[0]!.last };
  }

  /** The page's extent first, then its live samples, each looked up by primary key. */
  private async subsetSamplesSqlite(
    datasetId: string,
    subsetId: string,
    afterId: string,
    limit: number,
    fields: SampleFields,
  ): Promise<{ samples: ExportSample[]; scanned: number; last: string }> {
    const { scanned, last } = await this.subsetPageExtent(subsetId, afterId, limit);
    if (scanned === 0 || last === null) return { samples: [], scanned: 0, last: afterId };
    // `+s.deleted`: with `s.deleted` SQLite could walk the (dataset, deleted, split) index instead.
    const { rows } = await sql<SampleRow>`select ${sampleColumns(fields)}
      from subset_items as i join samples as s on s.dataset_id = ${datasetId} and s.id = i.item_id
      where i.subset_id = ${subsetId} and i.item_id > ${afterId} and i.item_id <= ${last}
      and +s.deleted = 0`.execute(this.db);
    return { samples: decodeSamples(rows, fields), scanned, last };
  }

  /** A page of a subset's item ids after `afterId`, in item id order (keyset paging). */
  private async pageIdsPostgres(
    subsetId: string,
    afterId: string,
    limit: number,
  ): Promise<string[]> {
    const { rows } = await sql<{ ids: string | null }>`select
      json_agg(item_id order by item_id)::text as ids from (select item_id from subset_items
        where subset_id = ${subsetId} and item_id > ${afterId} order by item_id limit ${limit}) as p`.execute(
      this.db,
    );
    return JSON.parse(rows[0]?.ids ?? '[]') as string[];
  }

  /**
   * The live samples among a page's item ids (in item id order): the samples whose ids lie
   * between its first and last, in one walk of the primary key, kept when they are among the
   * ids (a hashed `= any`); the items that walk did not reach (a sparse subset: it stops after
   * twice the page) or find, looked up one by one. A lookup per item cost about 5 µs of
   * PostgreSQL's time on text keys (docs/performance.md, "Curation (issue 16)"); the walk costs
   * a tenth of that.
   */
  private async pageSamplesPostgres(
    datasetId: string,
    ids: string[],
    fields: SampleFields,
  ): Promise<ExportSample[]> {
    const range = this.rangeOfPage(datasetId, ids);
    const { rows: found } = await sql<{ count: number; text: string | null }>`select
      ${sampleFieldsText(fields)} from ${range}`.execute(this.db);
    const rows =
      pageRows(found[0]!.text, found[0]!.count)?.map(sampleRow) ??
      (
        await sql<SampleRow & { deleted: number }>`select ${sampleColumns(fields)}, s.deleted
          from ${range}`.execute(this.db)
      ).rows;
    const live: SampleRow[] = rows.filter((row) => row.deleted === 0);
    // Ids are unique in both tables: as many rows as ids means every item was found.
    if (rows.length < ids.length) {
      const found = new Set(rows.map((row) => row.id));
      const rest = ids.filter((id) => !found.has(id));
      live.push(...(await this.liveRowsPostgres(datasetId, rest, fields)));
    }
    return decodeSamples(live, fields);
  }

  /**
   * The samples whose ids lie between a page's first and last item id, in one walk of the
   * primary key that stops after twice the page (however sparse the subset), kept when they are
   * among the ids (a hashed `= any`).
   */
  private rangeOfPage(datasetId: string, ids: string[]) {
    return sql`(select * from samples where dataset_id = ${datasetId}
      and id >= ${ids[0]!} and id <= ${ids.at(-1)!} order by id limit ${2 * ids.length}) as s
      where s.id = any(${ids}::text[])`;
  }

  /**
   * A subset's pages for a CSV's worker threads (csv-text.ts): each page's extent, and on
   * PostgreSQL its samples as one text (`pageRows`), or null when the page is the main thread's
   * (items the walk of the primary key did not reach or find). On SQLite the threads read the
   * pages themselves, from `file`; null for a database in memory: no thread can open it.
   */
  async csvPages(
    datasetId: string,
    subsetId: string,
    pageSize: number,
    fields: SampleFields,
  ): Promise<CsvPages | null> {
    if (this.dialect === 'sqlite') {
      const file = await this.sqliteFile();
      return file
        ? { file, page: (after) => this.subsetPageExtent(subsetId, after, pageSize) }
        : null;
    }
    return {
      file: null,
      page: async (after) => {
        const { scanned, first, last } = await this.subsetPageExtent(subsetId, after, pageSize);
        if (scanned === 0 || first === null || last === null) return { scanned: 0, last: null };
        const range = this.rangeOfExtent(datasetId, subsetId, first, last, scanned);
        const text = sql<{ count: number; text: string | null }>`select
          ${sampleFieldsText(fields)} from ${range}`
          .execute(this.db)
          .then(({ rows }) => (rows[0]!.count === scanned ? rows[0]! : null));
        return { scanned, last, text };
      },
    };
  }

  /**
   * The samples of a subset's items from `first` to `last` (`items` of them): the walk of
   * samples' primary key over that range (stopping after twice the items, however sparse the
   * subset) merged with the walk of subset_items' over the same range, both in id order. The
   * page's ids never leave PostgreSQL: sending 5,000 of them back as an array parameter cost
   * the main thread more than the page's text (docs/performance.md, Curation).
   */
  private rangeOfExtent(
    datasetId: string,
    subsetId: string,
    first: string,
    last: string,
    items: number,
  ) {
    return sql`(select * from samples where dataset_id = ${datasetId}
        and id >= ${first} and id <= ${last} order by id limit ${2 * items}) as s
      join (select item_id from subset_items where subset_id = ${subsetId}
        and item_id >= ${first} and item_id <= ${last}) as i on i.item_id = s.id`;
  }

  /** One primary-key lookup per id whatever the planner's statistics say (as SamplesRepository). */
  private async liveRowsPostgres(
    datasetId: string,
    ids: string[],
    fields: SampleFields,
  ): Promise<SampleRow[]> {
    const { rows } = await sql<SampleRow>`select ${sampleColumns(fields)}
      from unnest(${ids}::text[]) as u(id)
      cross join lateral (
        select * from samples where dataset_id = ${datasetId} and id = u.id limit 1
      ) as s
      where s.deleted = 0`.execute(this.db);
    return rows;
  }

  /** The live samples among `ids`, in no particular order. */
  async liveSamples(
    datasetId: string,
    ids: string[],
    fields: SampleFields,
  ): Promise<ExportSample[]> {
    if (ids.length === 0) return [];
    if (this.dialect === 'postgres')
      return decodeSamples(await this.liveRowsPostgres(datasetId, ids, fields), fields);
    const rows: SampleRow[] = [];
    for (let start = 0; start < ids.length; start += IN_CHUNK) {
      // `+s.deleted`: with `s.deleted` SQLite would walk the (dataset, deleted, split) index over
      // every sample instead of looking the ids up by primary key.
      const part = await sql<SampleRow>`select ${sampleColumns(fields)} from samples as s
        where s.dataset_id = ${datasetId}
        and s.id in (${sql.join(ids.slice(start, start + IN_CHUNK))}) and +s.deleted = 0`.execute(
        this.db,
      );
      rows.push(...part.rows);
    }
    return decodeSamples(rows, fields);
  }

  /** The live objects among `ids` (their samples' liveness is the caller's to check). */
  async liveObjectsByIds(datasetId: string, ids: string[]): Promise<ExportObject[]> {
    return this.objects(datasetId, 'id', ids);
  }

  /** The live objects of these samples, by sample and then id. */
  async liveObjectsOfSamples(datasetId: string, sampleIds: string[]): Promise<ExportObject[]> {
    const objects = await this.objects(datasetId, 'sample_id', sampleIds);
    return objects.sort((a, b) =>
      a.sample_id === b.sample_id ? compare(a.id, b.id) : compare(a.sample_id, b.sample_id),
    );
  }

  private async objects(
    datasetId: string,
    column: 'id' | 'sample_id',
    values: string[],
  ): Promise<ExportObject[]> {
    const out: ExportObject[] = [];
    for (let start = 0; start < values.length; start += IN_CHUNK) {
      const rows = await this.db
        .selectFrom('objects')
        .select(['id', 'sample_id', 'label', 'x', 'y', 'w', 'h', 'segmentation', 'iscrowd'])
        .where('dataset_id', '=', datasetId)
        .where('deleted', '=', 0)
        .where(column, 'in', values.slice(start, start + IN_CHUNK))
        .execute();
      for (const row of rows)
        out.push({
          ...row,
          segmentation: readJson<Segmentation>(row.segmentation),
          iscrowd: row.iscrowd === 1,
        });
    }
    return out;
  }

  async predictionsOf(setId: string, sampleIds: string[]): Promise<PredictionRecord[]> {
    const out: PredictionRecord[] = [];
    for (let start = 0; start < sampleIds.length; start += IN_CHUNK) {
      const rows = await this.db
        .selectFrom('predictions')
        .selectAll()
        .where('prediction_set_id', '=', setId)
        .where('sample_id', 'in', sampleIds.slice(start, start + IN_CHUNK))
        .execute();
      out.push(...rows.map(decodePrediction));
    }
    return out;
  }

  async predictedObjectsOf(setId: string, sampleIds: string[]): Promise<PredictedObjectRecord[]> {
    const out: PredictedObjectRecord[] = [];
    for (let start = 0; start < sampleIds.length; start += IN_CHUNK) {
      const rows = await this.db
        .selectFrom('predicted_objects')
        .selectAll()
        .where('prediction_set_id', '=', setId)
        .where('sample_id', 'in', sampleIds.slice(start, start + IN_CHUNK))
        .execute();
      out.push(...rows.map(decodePredictedObject));
    }
    return out.sort((a, b) =>
      a.sample_id === b.sample_id ? compare(a.id, b.id) : compare(a.sample_id, b.sample_id),
    );
  }

  /** Whether any prediction of the set has class probabilities (a prediction CSV's columns). */
  async hasProbabilities(setId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('predictions')
      .select('sample_id')
      .where('prediction_set_id', '=', setId)
      .where('probabilities', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

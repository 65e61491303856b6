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
  metadata: Record<string, unknown> | null;
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

function objectOf(text: string | null): Record<string, unknown> | null {
  const value = readJson<unknown>(text);
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function numberOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** What a page reads of a sample besides its id, order, split, media and metadata. */
export interface SampleFields {
  /** The task's ground truth column (a task with objects has none on its samples). */
  truth: 'label' | 'values_json' | 'mask' | 'transcript' | null;
  /** Width and height from the metadata pass (COCO needs them; a CSV does not). */
  size: boolean;
}

interface SampleRow {
  id: string | null;
  seq: number;
  split: string | null;
  media: string | null;
  metadata: string | null;
  deleted: number | null;
  truth: string | null;
  computed: string | null;
}

/** The select list of a sample page: only the columns the export writes (a million rows). */
function sampleColumns(fields: SampleFields) {
  const truth = fields.truth ? sql.ref(`s.${fields.truth}`) : sql`null`;
  return sql`s.id, s.seq, s.split, s.media, s.metadata, s.deleted, ${truth} as truth,
    ${fields.size ? sql`s.computed` : sql`null`} as computed`;
}

/** Rows of live samples as records; rows of deleted samples (or of none: a left join) dropped. */
function decodeSamples(rows: SampleRow[], fields: SampleFields): ExportSample[] {
  const out: ExportSample[] = [];
  for (const row of rows) {
    if (row.deleted !== 0 || row.id === null) continue;
    const computed = fields.size ? objectOf(row.computed) : null;
    const values = fields.truth === 'values_json' ? readJson<unknown>(row.truth) : null;
    out.push({
      id: row.id,
      seq: row.seq,
      split: row.split,
      media: row.media,
      label: fields.truth === 'label' ? row.truth : null,
      values: values && typeof values === 'object' ? (values as NumericValues) : null,
      transcript: fields.truth === 'transcript' ? row.truth : null,
      mask: fields.truth === 'mask' ? row.truth : null,
      metadata: objectOf(row.metadata),
      width: numberOf(computed?.['image.width']),
      height: numberOf(computed?.['image.height']),
    });
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

  /**
   * The live samples of a page of a subset's items, after `afterId` in item id order (keyset
   * paging on the primary key of subset_items, each item looked up by the samples' primary key
   * in the same statement). `scanned` counts the items read, live or not, and `last` is the last
   * one: the next page starts after it.
   */
  async subsetSamplesAfter(
    datasetId: string,
    subsetId: string,
    afterId: string,
    limit: number,
    fields: SampleFields,
  ): Promise<{ samples: ExportSample[]; scanned: number; last: string }> {
    const columns = sampleColumns(fields);
    const query =
      this.dialect === 'postgres'
        ? sql<SampleRow & { item_id: string }>`select i.item_id, ${columns}
          from (select item_id from subset_items where subset_id = ${subsetId}
            and item_id > ${afterId} order by item_id limit ${limit}) as i
          left join lateral (
            select * from samples where dataset_id = ${datasetId} and id = i.item_id limit 1
          ) as s on true
          order by i.item_id`
        : sql<SampleRow & { item_id: string }>`select i.item_id, ${columns}
          from subset_items as i
          left join samples as s on s.dataset_id = ${datasetId} and s.id = i.item_id
          where i.subset_id = ${subsetId} and i.item_id > ${afterId}
          order by i.item_id limit ${limit}`;
    const { rows } = await query.execute(this.db);
    return {
      samples: decodeSamples(rows, fields),
      scanned: rows.length,
      last: rows.length ? rows[rows.length - 1]!.item_id : afterId,
    };
  }

  /** The live samples among `ids`, in no particular order. */
  async liveSamples(
    datasetId: string,
    ids: string[],
    fields: SampleFields,
  ): Promise<ExportSample[]> {
    if (ids.length === 0) return [];
    const columns = sampleColumns(fields);
    if (this.dialect === 'postgres') {
      // One primary-key lookup per id whatever the planner's statistics say (as SamplesRepository).
      const { rows } = await sql<SampleRow>`select ${columns}
        from unnest(${ids}::text[]) as u(id)
        cross join lateral (
          select * from samples where dataset_id = ${datasetId} and id = u.id limit 1
        ) as s`.execute(this.db);
      return decodeSamples(rows, fields);
    }
    const rows: SampleRow[] = [];
    for (let start = 0; start < ids.length; start += IN_CHUNK) {
      // Not `deleted = 0` here: SQLite would then walk the (dataset, deleted, split) index over
      // every sample instead of looking the ids up by primary key.
      const part = await sql<SampleRow>`select ${columns} from samples as s
        where s.dataset_id = ${datasetId}
        and s.id in (${sql.join(ids.slice(start, start + IN_CHUNK))})`.execute(this.db);
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

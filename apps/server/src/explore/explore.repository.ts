// SQL for the explorer: pages of samples, objects, predictions and predicted objects in a stable
// order (to build item tables without holding a connection for a million rows), and the rows
// of one batch of items. Pages leave decoded, and only the JSON columns a table reads are parsed.
import type { Kysely, Selectable } from 'kysely';
import { readJson } from '../db/json-columns.js';
import type { DB, PredictedObjectsTable } from '../db/schema.js';
import type { MaskStats } from '../processing/mask-confusion.js';
import {
  decodePredictedObject,
  decodePrediction,
  readMaskStats,
  type PredictedObjectRecord,
  type PredictionRecord,
} from '../prediction-sets/prediction-sets.repository.js';
import {
  decodeObject,
  type ComputedValues,
  type NumericValues,
  type ObjectRecord,
} from '../samples/samples.repository.js';

/** What an item table reads of a sample. */
export interface SampleTableRecord {
  id: string;
  seq: number;
  split: string | null;
  label: string | null;
  values: NumericValues | null;
  transcript: string | null;
  metadata: Record<string, unknown> | null;
  computed: ComputedValues | null;
  created_record_id: string | null;
}
/** What an item table reads of an object. */
export type ObjectTableRecord = Pick<
  ObjectRecord,
  'id' | 'sample_id' | 'label' | 'x' | 'y' | 'w' | 'h' | 'computed'
>;
/** What an item table reads of a prediction. */
export type PredictionTableRecord = Pick<
  PredictionRecord,
  'sample_id' | 'label' | 'score' | 'values' | 'transcript'
> & { mask_stats: MaskStats | null };
export type PredictedObjectTableRecord = Pick<
  Selectable<PredictedObjectsTable>,
  'id' | 'sample_id' | 'label' | 'score' | 'x' | 'y' | 'w' | 'h'
>;

/** The JSON columns a page decodes; the others come back null (a million rows parse fewer). */
export interface Decode {
  values?: boolean;
  metadata?: boolean;
  computed?: boolean;
  /** A prediction's mask statistics (semantic segmentation). */
  maskStats?: boolean;
}

/** A JSON object column's value; null for anything else. */
function objectOf(text: string | null): Record<string, unknown> | null {
  const value = readJson<unknown>(text);
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** Numbers by name or in order; null for anything else. */
function valuesOf(text: string | null): NumericValues | null {
  const value = readJson<unknown>(text);
  return value && typeof value === 'object' ? (value as NumericValues) : null;
}

const IN_CHUNK = 900;

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class ExploreRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Live samples after `afterSeq` in upload order (keyset paging on the (dataset, seq) index). */
  async samplesAfter(
    datasetId: string,
    afterSeq: number,
    limit: number,
    decode: Decode = {},
  ): Promise<SampleTableRecord[]> {
    const rows = await this.db
      .selectFrom('samples')
      .select([
        'id',
        'seq',
        'split',
        'label',
        'values_json',
        'transcript',
        'metadata',
        'computed',
        'created_record_id',
      ])
      .where('dataset_id', '=', datasetId)
      .where('deleted', '=', 0)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map(({ values_json, metadata, computed, ...rest }) => ({
      ...rest,
      values: decode.values ? valuesOf(values_json) : null,
      metadata: decode.metadata ? objectOf(metadata) : null,
      computed: decode.computed ? objectOf(computed) : null,
    }));
  }

  /** Just what orders objects and gives them their split: live samples' keys in upload order. */
  sampleKeysAfter(datasetId: string, afterSeq: number, limit: number) {
    return this.db
      .selectFrom('samples')
      .select(['id', 'seq', 'split', 'created_record_id'])
      .where('dataset_id', '=', datasetId)
      .where('deleted', '=', 0)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /**
   * Live objects after `afterId` in id order (keyset paging on the primary key). Callers order
   * them by their sample's upload order themselves: that costs one pass in memory instead of a
   * join and sort of millions of rows in the database.
   */
  async objectsAfter(
    datasetId: string,
    afterId: string,
    limit: number,
    decode: Decode = {},
  ): Promise<ObjectTableRecord[]> {
    // The computed metadata text is read only when decoded (image tables match boxes only).
    const rows = await this.db
      .selectFrom('objects')
      .select(['id', 'sample_id', 'label', 'x', 'y', 'w', 'h'])
      .$if(decode.computed === true, (query) => query.select('computed'))
      .where('dataset_id', '=', datasetId)
      .where('deleted', '=', 0)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      ...row,
      computed: decode.computed ? objectOf(row.computed ?? null) : null,
    }));
  }

  async predictionsAfter(
    setId: string,
    afterSampleId: string,
    limit: number,
    decode: Decode = {},
  ): Promise<PredictionTableRecord[]> {
    const rows = await this.db
      .selectFrom('predictions')
      .select(['sample_id', 'label', 'score', 'values_json', 'transcript'])
      .$if(decode.maskStats === true, (query) => query.select('mask_stats'))
      .where('prediction_set_id', '=', setId)
      .where('sample_id', '>', afterSampleId)
      .orderBy('sample_id')
      .limit(limit)
      .execute();
    return rows.map(({ values_json, mask_stats, ...rest }) => ({
      ...rest,
      values: decode.values ? valuesOf(values_json) : null,
      mask_stats: decode.maskStats ? readMaskStats(mask_stats ?? null) : null,
    }));
  }

  predictedObjectsAfter(
    setId: string,
    afterId: string,
    limit: number,
  ): Promise<PredictedObjectTableRecord[]> {
    return this.db
      .selectFrom('predicted_objects')
      .select(['id', 'sample_id', 'label', 'score', 'x', 'y', 'w', 'h'])
      .where('prediction_set_id', '=', setId)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Live objects of the given samples (one items batch). */
  async objectsOfSamples(datasetId: string, sampleIds: string[]): Promise<ObjectRecord[]> {
    const rows = await this.inParts(sampleIds, (part) =>
      this.db
        .selectFrom('objects')
        .selectAll()
        .where('dataset_id', '=', datasetId)
        .where('deleted', '=', 0)
        .where('sample_id', 'in', part)
        .execute(),
    );
    // Sorted here: with ORDER BY id, SQLite may walk the whole primary key to avoid a sort.
    return rows.sort(byId).map(decodeObject);
  }

  async objectsByIds(datasetId: string, ids: string[]): Promise<ObjectRecord[]> {
    const rows = await this.inParts(ids, (part) =>
      this.db
        .selectFrom('objects')
        .selectAll()
        .where('dataset_id', '=', datasetId)
        .where('id', 'in', part)
        .execute(),
    );
    return rows.map(decodeObject);
  }

  async predictionsOf(setId: string, sampleIds: string[]): Promise<PredictionRecord[]> {
    const rows = await this.inParts(sampleIds, (part) =>
      this.db
        .selectFrom('predictions')
        .selectAll()
        .where('prediction_set_id', '=', setId)
        .where('sample_id', 'in', part)
        .execute(),
    );
    return rows.map(decodePrediction);
  }

  /** The attribution names each of these samples has a heatmap of, in the set. */
  async attributionsOfSamples(
    setId: string,
    sampleIds: string[],
  ): Promise<{ sample_id: string; name: string }[]> {
    return this.inParts(sampleIds, (part) =>
      this.db
        .selectFrom('attributions')
        .select(['sample_id', 'name'])
        .where('prediction_set_id', '=', setId)
        .where('sample_id', 'in', part)
        .orderBy('name')
        .execute(),
    );
  }

  async predictedObjectsOfSamples(
    setId: string,
    sampleIds: string[],
  ): Promise<PredictedObjectRecord[]> {
    const rows = await this.inParts(sampleIds, (part) =>
      this.db
        .selectFrom('predicted_objects')
        .selectAll()
        .where('prediction_set_id', '=', setId)
        .where('sample_id', 'in', part)
        .execute(),
    );
    return rows.sort(byId).map(decodePredictedObject);
  }

  /** How many of `itemIds` have a vector of each feature at this level. */
  async countVectorsAmong(
    datasetId: string,
    dataLevel: string,
    itemIds: string[],
  ): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const part of this.parts(itemIds)) {
      const rows = await this.db
        .selectFrom('feature_vectors')
        .select(['feature_name', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('dataset_id', '=', datasetId)
        .where('prediction_set_id', '=', '') // the dataset's own features
        .where('data_level', '=', dataLevel)
        .where('item_id', 'in', part)
        .groupBy('feature_name')
        .execute();
      for (const row of rows)
        counts.set(row.feature_name, (counts.get(row.feature_name) ?? 0) + Number(row.n));
    }
    return counts;
  }

  /** Runs `read` on chunks of `values` small enough for an IN list, and concatenates. */
  private async inParts<T>(values: string[], read: (part: string[]) => Promise<T[]>): Promise<T[]> {
    const out: T[] = [];
    for (const part of this.parts(values)) out.push(...(await read(part)));
    return out;
  }

  private parts<T>(values: T[]): T[][] {
    const out: T[][] = [];
    for (let i = 0; i < values.length; i += IN_CHUNK) out.push(values.slice(i, i + IN_CHUNK));
    return out;
  }
}

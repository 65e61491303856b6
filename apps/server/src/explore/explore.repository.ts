// SQL for the explorer: pages of samples, objects, predictions and predicted objects in a stable
// order (to build item tables without holding a connection for a million rows), and the rows
// of one batch of items.
import type { Kysely, Selectable } from 'kysely';
import type { DB, ObjectsTable, PredictedObjectsTable, PredictionsTable } from '../db/schema.js';
import {
  decodePredictedObject,
  decodePrediction,
  type PredictedObjectRecord,
  type PredictionRecord,
} from '../prediction-sets/prediction-sets.repository.js';
import { decodeObject, type ObjectRecord } from '../samples/samples.repository.js';

export interface SampleTableRow {
  id: string;
  seq: number;
  split: string | null;
  label: string | null;
  values_json: string | null;
  transcript: string | null;
  metadata: string | null;
  computed: string | null;
  created_record_id: string | null;
}
export type ObjectTableRow = Pick<
  Selectable<ObjectsTable>,
  'id' | 'sample_id' | 'label' | 'x' | 'y' | 'w' | 'h' | 'computed'
>;
export type PredictionTableRow = Pick<
  Selectable<PredictionsTable>,
  'sample_id' | 'label' | 'score' | 'values_json' | 'transcript'
>;
export type PredictedObjectTableRow = Pick<
  Selectable<PredictedObjectsTable>,
  'id' | 'sample_id' | 'label' | 'score' | 'x' | 'y' | 'w' | 'h'
>;

const IN_CHUNK = 900;

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class ExploreRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async dataVersion(datasetId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('datasets')
      .select('data_version')
      .where('id', '=', datasetId)
      .executeTakeFirst();
    return row?.data_version;
  }

  /** Live samples after `afterSeq` in upload order (keyset paging on the (dataset, seq) index). */
  samplesAfter(datasetId: string, afterSeq: number, limit: number): Promise<SampleTableRow[]> {
    return this.db
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
  objectsAfter(datasetId: string, afterId: string, limit: number): Promise<ObjectTableRow[]> {
    return this.db
      .selectFrom('objects')
      .select(['id', 'sample_id', 'label', 'x', 'y', 'w', 'h', 'computed'])
      .where('dataset_id', '=', datasetId)
      .where('deleted', '=', 0)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  predictionsAfter(setId: string, afterSampleId: string, limit: number) {
    return this.db
      .selectFrom('predictions')
      .select(['sample_id', 'label', 'score', 'values_json', 'transcript'])
      .where('prediction_set_id', '=', setId)
      .where('sample_id', '>', afterSampleId)
      .orderBy('sample_id')
      .limit(limit)
      .execute() as Promise<PredictionTableRow[]>;
  }

  predictedObjectsAfter(
    setId: string,
    afterId: string,
    limit: number,
  ): Promise<PredictedObjectTableRow[]> {
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

// SQL for prediction sets (a model's predictions on a dataset), their per-sample predictions,
// predicted objects and attributions. Rows leave as records, JSON columns decoded.
import type { Kysely, Selectable } from 'kysely';
import { readJson, writeJson } from '../db/json-columns.js';
import type {
  DB,
  PredictedObjectsTable,
  PredictionSetsTable,
  PredictionsTable,
} from '../db/schema.js';
import type { MaskStats } from '../processing/mask-confusion.js';
import type { NumericValues, Segmentation } from '../samples/samples.repository.js';

type PredictionRow = Selectable<PredictionsTable>;
type PredictedObjectRow = Selectable<PredictedObjectsTable>;

export type PredictionSetRecord = Selectable<PredictionSetsTable>;

export interface PredictionRecord {
  prediction_set_id: string;
  sample_id: string;
  /** The sample's seq, which never changes (a set's predictions are read in its order). */
  sample_seq: number;
  label: string | null;
  score: number | null;
  /** Per class, in the dataset's class order or by name. */
  probabilities: number[] | Record<string, number> | null;
  values: NumericValues | null;
  transcript: string | null;
  mask: string | null;
  created_at: number;
}

export interface PredictedObjectRecord {
  prediction_set_id: string;
  id: string;
  sample_id: string;
  label: string;
  score: number;
  x: number | null;
  y: number | null;
  w: number | null;
  h: number | null;
  segmentation: Segmentation | null;
}

/** An attribution heatmap: an image (media reference) or rows of numbers. */
export interface AttributionRecord {
  prediction_set_id: string;
  name: string;
  sample_id: string;
  heatmap: string | number[][];
}

/** A prediction's mask statistics; null until computed (or for text that is none). */
export function readMaskStats(text: string | null): MaskStats | null {
  const value = readJson<Partial<Record<'counts' | 'error', unknown>>>(text);
  if (value && Array.isArray(value.counts))
    return { counts: value.counts as [number, number, number][] };
  if (value && typeof value.error === 'string') return { error: value.error };
  return null;
}

/** A predicted mask whose statistics are not computed yet, with its sample's ground truth. */
export interface PendingMask {
  sample_id: string;
  mask: string;
  /** The sample's ground-truth mask; null when it has none. */
  truth: string | null;
}

export function decodePrediction(row: PredictionRow): PredictionRecord {
  // The mask statistics are the explorer's alone (readMaskStats).
  const { probabilities, values_json, mask_stats: _stats, ...rest } = row;
  return {
    ...rest,
    probabilities: readJson<PredictionRecord['probabilities']>(probabilities),
    values: readJson<NumericValues>(values_json),
  };
}

export function decodePredictedObject(row: PredictedObjectRow): PredictedObjectRecord {
  return { ...row, segmentation: readJson<Segmentation>(row.segmentation) };
}

const CHUNK = 500;
const IN_CHUNK = 900;

export class PredictionSetsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insertSet(set: PredictionSetRecord): Promise<void> {
    await this.db.insertInto('prediction_sets').values(set).execute();
  }

  findSet(id: string): Promise<PredictionSetRecord | undefined> {
    return this.db
      .selectFrom('prediction_sets')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findSetByName(datasetId: string, name: string): Promise<PredictionSetRecord | undefined> {
    return this.db
      .selectFrom('prediction_sets')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  /** The prediction sets of a dataset (of every dataset without one), oldest first. */
  listSets(datasetId?: string): Promise<PredictionSetRecord[]> {
    let query = this.db.selectFrom('prediction_sets').selectAll().orderBy('created_at');
    if (datasetId) query = query.where('dataset_id', '=', datasetId);
    return query.execute();
  }

  /** Records an upload of the set's predictions: its count, time, and a new version. */
  async wrotePredictions(
    id: string,
    changes: Pick<PredictionSetRecord, 'num_present' | 'updated_at'>,
  ): Promise<void> {
    await this.db
      .updateTable('prediction_sets')
      .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /** Which of these samples have a prediction in the set. */
  async existingSampleIds(setId: string, sampleIds: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < sampleIds.length; i += IN_CHUNK) {
      const rows = await this.db
        .selectFrom('predictions')
        .select('sample_id')
        .where('prediction_set_id', '=', setId)
        .where('sample_id', 'in', sampleIds.slice(i, i + IN_CHUNK))
        .execute();
      for (const row of rows) found.add(row.sample_id);
    }
    return found;
  }

  /** Replaces the predictions (and predicted objects) of the given samples. */
  async replacePredictions(
    setId: string,
    predictions: PredictionRecord[],
    objects: PredictedObjectRecord[],
  ): Promise<void> {
    const ids = predictions.map((p) => p.sample_id);
    for (let i = 0; i < ids.length; i += IN_CHUNK) {
      const part = ids.slice(i, i + IN_CHUNK);
      await this.db
        .deleteFrom('predictions')
        .where('prediction_set_id', '=', setId)
        .where('sample_id', 'in', part)
        .execute();
      await this.db
        .deleteFrom('predicted_objects')
        .where('prediction_set_id', '=', setId)
        .where('sample_id', 'in', part)
        .execute();
    }
    // A replaced prediction's mask statistics are computed again (mask-stats.service.ts).
    const rows: PredictionRow[] = predictions.map(({ probabilities, values, ...rest }) => ({
      ...rest,
      probabilities: writeJson(probabilities),
      values_json: writeJson(values),
      mask_stats: null,
    }));
    for (let i = 0; i < rows.length; i += CHUNK)
      await this.db
        .insertInto('predictions')
        .values(rows.slice(i, i + CHUNK))
        .execute();
    const objectRows: PredictedObjectRow[] = objects.map((o) => ({
      ...o,
      segmentation: writeJson(o.segmentation),
    }));
    for (let i = 0; i < objectRows.length; i += CHUNK)
      await this.db
        .insertInto('predicted_objects')
        .values(objectRows.slice(i, i + CHUNK))
        .execute();
  }

  async countPredictions(setId: string): Promise<number> {
    const row = await this.db
      .selectFrom('predictions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('prediction_set_id', '=', setId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** How many predicted masks of the set wait for their statistics (through their partial index). */
  async countPendingMaskStats(setId: string): Promise<number> {
    const row = await this.db
      .selectFrom('predictions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('prediction_set_id', '=', setId)
      .where('mask', 'is not', null)
      .where('mask_stats', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The next predicted masks of the set without statistics, after `afterSampleId`, by sample id. */
  async pendingMaskStats(
    datasetId: string,
    setId: string,
    afterSampleId: string,
    limit: number,
  ): Promise<PendingMask[]> {
    const rows = await this.pendingMaskStatsQuery(datasetId, setId, afterSampleId, limit).execute();
    return rows.map((row) => ({ sample_id: row.sample_id, mask: row.mask!, truth: row.truth }));
  }

  /** The query of pendingMaskStats (its plan is tested: it reads the partial index of pending masks). */
  pendingMaskStatsQuery(datasetId: string, setId: string, afterSampleId: string, limit: number) {
    return this.db
      .selectFrom('predictions as p')
      .leftJoin('samples as s', (join) =>
        join.on('s.dataset_id', '=', datasetId).onRef('s.id', '=', 'p.sample_id'),
      )
      .select(['p.sample_id', 'p.mask', 's.mask as truth'])
      .where('p.prediction_set_id', '=', setId)
      .where('p.mask', 'is not', null)
      .where('p.mask_stats', 'is', null)
      .where('p.sample_id', '>', afterSampleId)
      .orderBy('p.sample_id')
      .limit(limit);
  }

  /**
   * Stores computed mask statistics; answers how many were stored. One is stored only while the
   * prediction and its sample still have the masks it was computed from and none is stored yet:
   * an upload during the computation leaves its rows to the job it enqueued.
   */
  async setMaskStats(
    datasetId: string,
    setId: string,
    computed: (PendingMask & { stats: MaskStats })[],
  ): Promise<number> {
    let stored = 0;
    for (const { sample_id, mask, truth, stats } of computed) {
      const result = await this.db
        .updateTable('predictions')
        .set({ mask_stats: JSON.stringify(stats) })
        .where('prediction_set_id', '=', setId)
        .where('sample_id', '=', sample_id)
        .where('mask', '=', mask)
        .where('mask_stats', 'is', null)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('samples')
              .select('samples.id')
              .where('samples.dataset_id', '=', datasetId)
              .where('samples.id', '=', sample_id)
              .where('samples.mask', truth === null ? 'is' : '=', truth),
          ),
        )
        .executeTakeFirst();
      stored += Number(result.numUpdatedRows);
    }
    return stored;
  }

  /**
   * Forgets the mask statistics of these samples' predictions in every set of the dataset (their
   * ground-truth mask changed); answers the sets that had any.
   */
  async clearMaskStats(datasetId: string, sampleIds: string[]): Promise<string[]> {
    const sets = new Set<string>();
    for (let i = 0; i < sampleIds.length; i += IN_CHUNK) {
      const part = sampleIds.slice(i, i + IN_CHUNK);
      const rows = await this.db
        .updateTable('predictions')
        .set({ mask_stats: null })
        .where('prediction_set_id', 'in', (eb) =>
          eb.selectFrom('prediction_sets').select('id').where('dataset_id', '=', datasetId),
        )
        .where('sample_id', 'in', part)
        .where('mask', 'is not', null)
        .returning('prediction_set_id')
        .execute();
      for (const row of rows) sets.add(row.prediction_set_id);
    }
    return [...sets];
  }

  /** Stores heatmaps; one of the same set, name and sample is replaced. */
  async upsertAttributions(attributions: AttributionRecord[]): Promise<void> {
    // An image reference is kept as it is, rows of numbers as their JSON.
    const rows = attributions.map((a) => ({
      ...a,
      heatmap: typeof a.heatmap === 'string' ? a.heatmap : JSON.stringify(a.heatmap),
    }));
    for (let i = 0; i < rows.length; i += CHUNK) {
      await this.db
        .insertInto('attributions')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc
            .columns(['prediction_set_id', 'name', 'sample_id'])
            .doUpdateSet((eb) => ({ heatmap: eb.ref('excluded.heatmap') })),
        )
        .execute();
    }
  }
}

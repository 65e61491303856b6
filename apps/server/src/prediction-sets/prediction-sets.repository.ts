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
import type { NumericValues, Segmentation } from '../samples/samples.repository.js';

type PredictionRow = Selectable<PredictionsTable>;
type PredictedObjectRow = Selectable<PredictedObjectsTable>;

export type PredictionSetRecord = Selectable<PredictionSetsTable>;

export interface PredictionRecord {
  prediction_set_id: string;
  sample_id: string;
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

export function decodePrediction(row: PredictionRow): PredictionRecord {
  const { probabilities, values_json, ...rest } = row;
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

  async updateSet(
    id: string,
    changes: Partial<Pick<PredictionSetRecord, 'num_present' | 'updated_at'>>,
  ): Promise<void> {
    await this.db.updateTable('prediction_sets').set(changes).where('id', '=', id).execute();
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
    const rows: PredictionRow[] = predictions.map(({ probabilities, values, ...rest }) => ({
      ...rest,
      probabilities: writeJson(probabilities),
      values_json: writeJson(values),
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

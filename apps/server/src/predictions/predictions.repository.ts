// SQL for prediction sets, their per-sample predictions, predicted objects and attributions.
import type { Kysely, Selectable } from 'kysely';
import type {
  DB,
  PredictedObjectsTable,
  PredictionSetsTable,
  PredictionsTable,
} from '../db/schema.js';

export type PredictionSetRow = Selectable<PredictionSetsTable>;
export type PredictionRow = Selectable<PredictionsTable>;
export type PredictedObjectRow = Selectable<PredictedObjectsTable>;

const CHUNK = 500;

export class PredictionsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insertSet(row: PredictionSetRow): Promise<void> {
    await this.db.insertInto('prediction_sets').values(row).execute();
  }

  findSet(id: string): Promise<PredictionSetRow | undefined> {
    return this.db
      .selectFrom('prediction_sets')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findSetByName(datasetId: string, name: string): Promise<PredictionSetRow | undefined> {
    return this.db
      .selectFrom('prediction_sets')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  listSets(datasetId?: string): Promise<PredictionSetRow[]> {
    let query = this.db.selectFrom('prediction_sets').selectAll().orderBy('created_at');
    if (datasetId) query = query.where('dataset_id', '=', datasetId);
    return query.execute();
  }

  async countSetsByDataset(): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('prediction_sets')
      .select(['dataset_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('dataset_id')
      .execute();
    return new Map(rows.map((row) => [row.dataset_id, Number(row.n)]));
  }

  async existingSampleIds(setId: string, sampleIds: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < sampleIds.length; i += 900) {
      const rows = await this.db
        .selectFrom('predictions')
        .select('sample_id')
        .where('prediction_set_id', '=', setId)
        .where('sample_id', 'in', sampleIds.slice(i, i + 900))
        .execute();
      for (const row of rows) found.add(row.sample_id);
    }
    return found;
  }

  /** Replaces the predictions (and predicted objects) of the given samples. */
  async replacePredictions(
    setId: string,
    rows: PredictionRow[],
    objects: PredictedObjectRow[],
  ): Promise<void> {
    const ids = rows.map((row) => row.sample_id);
    for (let i = 0; i < ids.length; i += 900) {
      const part = ids.slice(i, i + 900);
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
    for (let i = 0; i < rows.length; i += CHUNK)
      await this.db
        .insertInto('predictions')
        .values(rows.slice(i, i + CHUNK))
        .execute();
    for (let i = 0; i < objects.length; i += CHUNK)
      await this.db
        .insertInto('predicted_objects')
        .values(objects.slice(i, i + CHUNK))
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

  async updateSet(
    id: string,
    changes: Partial<Pick<PredictionSetRow, 'num_present' | 'updated_at'>>,
  ): Promise<void> {
    await this.db.updateTable('prediction_sets').set(changes).where('id', '=', id).execute();
  }

  predictionsOf(setId: string, sampleIds: string[]): Promise<PredictionRow[]> {
    return this.db
      .selectFrom('predictions')
      .selectAll()
      .where('prediction_set_id', '=', setId)
      .where('sample_id', 'in', sampleIds)
      .execute();
  }

  predictedObjectsOf(setId: string, sampleIds: string[]): Promise<PredictedObjectRow[]> {
    return this.db
      .selectFrom('predicted_objects')
      .selectAll()
      .where('prediction_set_id', '=', setId)
      .where('sample_id', 'in', sampleIds)
      .orderBy('id')
      .execute();
  }

  async upsertAttributions(
    rows: { prediction_set_id: string; name: string; sample_id: string; heatmap: string }[],
  ): Promise<void> {
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

  async attributionNames(setId: string): Promise<{ name: string; n: number }[]> {
    const rows = await this.db
      .selectFrom('attributions')
      .select(['name', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('prediction_set_id', '=', setId)
      .groupBy('name')
      .execute();
    return rows.map((row) => ({ name: row.name, n: Number(row.n) }));
  }
}

// SQL for embeddings: the scatter plot's stored settings, the computed layouts, and the feature
// vectors read page by page into one float32 matrix for the compute code. Settings and layouts
// leave decoded: the reduction setting as an object, a layout's ids and coordinates as arrays.
import { DimensionalityReductionSetting } from '@loupe/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { DB, EmbeddingSettingsTable, EmbeddingsTable } from '../db/schema.js';

type EmbeddingRow = Selectable<EmbeddingsTable>;

export interface EmbeddingSettingsRecord extends Omit<
  Selectable<EmbeddingSettingsTable>,
  'setting'
> {
  setting: DimensionalityReductionSetting;
}
export type EmbeddingState = Omit<EmbeddingRow, 'item_ids' | 'coords'>;
/** The dataset's own features' layouts: no prediction set (features.repository's ''). */
const DATASET_FEATURES = '';
/** A layout: `coords[2i], coords[2i+1]` place `ids[i]`. */
export interface EmbeddingLayout extends EmbeddingState {
  ids: string[] | null;
  coords: Float32Array | null;
}

export interface EmbeddingKey {
  dataset_id: string;
  /** '' for a dataset's feature, else the prediction set whose own feature is laid out. */
  prediction_set_id: string;
  data_level: string;
  feature_name: string;
  method_key: string;
}

/** A feature's vectors: `ids[i]` owns `data[i·dimension … (i+1)·dimension)`. */
export interface VectorMatrix {
  ids: string[];
  data: Float32Array;
  dimension: number;
}

const PAGE = 5000;

export class EmbeddingsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async settings(
    datasetId: string,
    level: string,
    predictionsId: string,
  ): Promise<EmbeddingSettingsRecord | undefined> {
    const row = await this.db
      .selectFrom('embedding_settings')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('data_level', '=', level)
      .where('predictions_id', '=', predictionsId)
      .executeTakeFirst();
    return (
      row && { ...row, setting: DimensionalityReductionSetting.parse(JSON.parse(row.setting)) }
    );
  }

  async saveSettings(settings: EmbeddingSettingsRecord): Promise<void> {
    const row = { ...settings, setting: JSON.stringify(settings.setting) };
    await this.db
      .insertInto('embedding_settings')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['dataset_id', 'data_level', 'predictions_id']).doUpdateSet({
          feature_name: row.feature_name,
          setting: row.setting,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  }

  /** Forgets the settings stored for a prediction set, at every data level. */
  async clearSettings(datasetId: string, predictionsId: string): Promise<void> {
    await this.db
      .deleteFrom('embedding_settings')
      .where('dataset_id', '=', datasetId)
      .where('predictions_id', '=', predictionsId)
      .execute();
  }

  private where(key: EmbeddingKey) {
    return this.db
      .selectFrom('embeddings')
      .where('dataset_id', '=', key.dataset_id)
      .where('prediction_set_id', '=', key.prediction_set_id)
      .where('data_level', '=', key.data_level)
      .where('feature_name', '=', key.feature_name)
      .where('method_key', '=', key.method_key);
  }

  /** The layout's state without its (large) coordinates. */
  state(key: EmbeddingKey): Promise<EmbeddingState | undefined> {
    return this.where(key)
      .select([
        'dataset_id',
        'prediction_set_id',
        'data_level',
        'feature_name',
        'method_key',
        'status',
        'source_version',
        'job_key',
        'error',
        'input_hash',
        'num_points',
        'updated_at',
      ])
      .executeTakeFirst();
  }

  /** The stored layout with its ids and coordinates. */
  async result(key: EmbeddingKey): Promise<EmbeddingLayout | undefined> {
    const row = await this.where(key).selectAll().executeTakeFirst();
    if (!row) return undefined;
    const { item_ids, coords, ...state } = row;
    let points: Float32Array | null = null;
    if (coords) {
      // A copy: the driver's buffer may be a view into a larger one, unaligned for floats.
      const bytes = new Uint8Array(coords.byteLength);
      bytes.set(coords);
      points = new Float32Array(bytes.buffer);
    }
    return {
      ...state,
      ids: item_ids ? (JSON.parse(item_ids.toString('utf8')) as string[]) : null,
      coords: points,
    };
  }

  /** Records a new state (computing or failed); the last good coordinates stay until replaced. */
  async setState(
    key: EmbeddingKey,
    state: Pick<EmbeddingRow, 'status' | 'source_version' | 'job_key' | 'error' | 'updated_at'>,
  ): Promise<void> {
    await this.db
      .insertInto('embeddings')
      .values({
        ...key,
        ...state,
        input_hash: null,
        num_points: 0,
        item_ids: null,
        coords: null,
      })
      .onConflict((oc) =>
        oc
          .columns(['dataset_id', 'prediction_set_id', 'data_level', 'feature_name', 'method_key'])
          .doUpdateSet(state),
      )
      .execute();
  }

  /** Stores a finished layout. */
  async saveResult(
    key: EmbeddingKey,
    result: {
      source_version: number;
      input_hash: string;
      ids: string[];
      coords: Float32Array;
      updated_at: number;
    },
  ): Promise<void> {
    const { ids, coords, ...rest } = result;
    const values = {
      ...rest,
      item_ids: Buffer.from(JSON.stringify(ids)),
      coords: Buffer.from(coords.buffer, coords.byteOffset, coords.byteLength),
      num_points: ids.length,
      status: 'ready' as const,
      error: null,
    };
    await this.db
      .insertInto('embeddings')
      .values({ ...key, ...values, job_key: null })
      .onConflict((oc) =>
        oc
          .columns(['dataset_id', 'prediction_set_id', 'data_level', 'feature_name', 'method_key'])
          .doUpdateSet(values),
      )
      .execute();
  }

  /**
   * Pages of a feature's vectors in item id order: the dataset's own, or with `predictionSetId`
   * a prediction set's (never the other of the same name).
   */
  private async *vectorPages(
    datasetId: string,
    level: string,
    featureName: string,
    predictionSetId = DATASET_FEATURES,
  ): AsyncGenerator<{ item_id: string; vector: Buffer }[]> {
    let after: string | null = null;
    for (;;) {
      let query = this.db
        .selectFrom('feature_vectors')
        .select(['item_id', 'vector'])
        .where('dataset_id', '=', datasetId)
        .where('prediction_set_id', '=', predictionSetId)
        .where('data_level', '=', level)
        .where('feature_name', '=', featureName);
      if (after !== null) query = query.where('item_id', '>', after);
      const page = await query.orderBy('item_id').limit(PAGE).execute();
      yield page;
      if (page.length < PAGE) return;
      after = page[page.length - 1]!.item_id;
    }
  }

  /** Every vector of a feature (the dataset's, or a prediction set's own), in item id order. */
  async vectors(
    datasetId: string,
    level: string,
    featureName: string,
    dimension: number,
    predictionSetId = DATASET_FEATURES,
  ): Promise<VectorMatrix> {
    const ids: string[] = [];
    const parts: Buffer[] = [];
    for await (const page of this.vectorPages(datasetId, level, featureName, predictionSetId))
      for (const row of page) {
        ids.push(row.item_id);
        parts.push(row.vector);
      }
    const data = new Float32Array(ids.length * dimension);
    const bytes = new Uint8Array(data.buffer);
    parts.forEach((part, i) => {
      // A vector of another length (should not happen: uploads check it) is cut or zero-padded.
      bytes.set(part.subarray(0, dimension * 4), i * dimension * 4);
    });
    return { ids, data, dimension };
  }

  /**
   * Every vector of a feature, a page at a time, each with the row of its item (`rowOf`; vectors
   * of items without a row are skipped) and cut or zero-padded to `dimension` floats (uploads
   * check the length): `put` gets the page's rows ascending and their vectors, row after row in
   * one buffer, and the database's page is let go before the next is read. Answers which rows got
   * a vector.
   */
  async vectorsByRow(
    datasetId: string,
    level: string,
    featureName: string,
    dimension: number,
    rows: number,
    rowOf: (id: string) => number | undefined,
    put: (rows: Int32Array, vectors: Uint8Array) => void,
  ): Promise<Uint8Array> {
    const present = new Uint8Array(rows);
    const width = dimension * 4;
    for await (const page of this.vectorPages(datasetId, level, featureName)) {
      const found: { row: number; vector: Buffer }[] = [];
      for (const { item_id: id, vector } of page) {
        const row = rowOf(id);
        if (row !== undefined && present[row] === 0) {
          present[row] = 1;
          found.push({ row, vector });
        }
      }
      found.sort((a, b) => a.row - b.row);
      const bytes = new Uint8Array(found.length * width);
      found.forEach(({ vector }, k) => bytes.set(vector.subarray(0, width), k * width));
      put(
        Int32Array.from(found, (f) => f.row),
        bytes,
      );
    }
    return present;
  }

  /** The vectors of some items (the query of a similar-items search). */
  async vectorsOf(
    datasetId: string,
    level: string,
    featureName: string,
    itemIds: string[],
  ): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    for (let i = 0; i < itemIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('feature_vectors')
        .select(['item_id', 'vector'])
        .where('dataset_id', '=', datasetId)
        // The dataset's own vectors, not a prediction set's of the same name.
        .where('prediction_set_id', '=', '')
        .where('data_level', '=', level)
        .where('feature_name', '=', featureName)
        .where('item_id', 'in', itemIds.slice(i, i + 500))
        .execute();
      for (const row of rows) {
        const copy = new Uint8Array(row.vector.byteLength);
        copy.set(row.vector);
        out.set(row.item_id, new Float32Array(copy.buffer));
      }
    }
    return out;
  }
}

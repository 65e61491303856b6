// SQL for features (named vectors per item and data level) and their vectors: a dataset's own
// (prediction_set_id '') and a prediction set's (a model's features, beside the dataset's).
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { DB, FeaturesTable } from '../db/schema.js';

export type FeatureRecord = Selectable<FeaturesTable>;
/** A feature to store; without prediction_set_id it is the dataset's. */
export type FeatureWrite = Omit<FeatureRecord, 'prediction_set_id'> & {
  prediction_set_id?: string;
};

/** The dataset's own features: no prediction set. */
export const DATASET_FEATURES = '';

/** One item's vector of a feature, as float32 bytes. */
export interface FeatureVector {
  dataset_id: string;
  /** Absent: the dataset's feature. */
  prediction_set_id?: string;
  data_level: string;
  feature_name: string;
  item_id: string;
  vector: Buffer;
}

const CHUNK = 500;

export class FeaturesRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The dataset's own features (a prediction set's with its id), oldest first. */
  list(datasetId: string, predictionSetId: string = DATASET_FEATURES): Promise<FeatureRecord[]> {
    return this.db
      .selectFrom('features')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('prediction_set_id', '=', predictionSetId)
      .orderBy('created_at')
      .execute();
  }

  async upsert(feature: FeatureWrite): Promise<void> {
    await this.db
      .insertInto('features')
      .values({ ...feature, prediction_set_id: feature.prediction_set_id ?? DATASET_FEATURES })
      .onConflict((oc) =>
        oc
          .columns(['dataset_id', 'prediction_set_id', 'data_level', 'name'])
          // Strictly increasing, so it versions the vectors (embeddings are keyed by it) even
          // when two uploads land within one millisecond.
          .doUpdateSet({
            updated_at: sql<number>`case when features.updated_at >= ${feature.updated_at} then features.updated_at + 1 else ${feature.updated_at} end`,
          }),
      )
      .execute();
  }

  async upsertVectors(vectors: FeatureVector[]): Promise<void> {
    for (let i = 0; i < vectors.length; i += CHUNK) {
      await this.db
        .insertInto('feature_vectors')
        .values(
          vectors
            .slice(i, i + CHUNK)
            .map((v) => ({ ...v, prediction_set_id: v.prediction_set_id ?? DATASET_FEATURES })),
        )
        .onConflict((oc) =>
          oc
            .columns(['dataset_id', 'prediction_set_id', 'data_level', 'feature_name', 'item_id'])
            .doUpdateSet((eb) => ({ vector: eb.ref('excluded.vector') })),
        )
        .execute();
    }
  }

  async countVectors(
    datasetId: string,
    dataLevel: string,
    name: string,
    predictionSetId: string = DATASET_FEATURES,
  ): Promise<number> {
    const row = await this.db
      .selectFrom('feature_vectors')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('dataset_id', '=', datasetId)
      .where('prediction_set_id', '=', predictionSetId)
      .where('data_level', '=', dataLevel)
      .where('feature_name', '=', name)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

// Each prediction carries its sample's seq (docs/decisions.md, decision 65): a sample's seq never
// changes, and a set's class predictions are read in upload order of their samples from the set's
// rows alone, through (prediction_set_id, sample_seq), instead of joined with every sample of the
// dataset (performance/prediction-columns.ts). Existing predictions take their sample's seq here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('predictions').addColumn('sample_seq', 'integer').execute();
  await sql`update predictions set sample_seq = (
      select s.seq from prediction_sets as ps
        join samples as s on s.dataset_id = ps.dataset_id and s.id = predictions.sample_id
      where ps.id = predictions.prediction_set_id
    )`.execute(db);
  await db.schema
    .createIndex('predictions_sample_seq')
    .on('predictions')
    .columns(['prediction_set_id', 'sample_seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('predictions_sample_seq').execute();
  await db.schema.alterTable('predictions').dropColumn('sample_seq').execute();
}

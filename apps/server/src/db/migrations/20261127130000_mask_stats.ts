// Mask statistics of semantic segmentation predictions (the explorer's prediction.iou and
// prediction.pixel_accuracy): predictions.mask_stats holds JSON of each class's intersection and
// union in pixels, written by the job after an upload; NULL until then. A partial index holds
// only the predictions still waiting, so the job finds them without reading the others.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('predictions').addColumn('mask_stats', 'text').execute();
  await db.schema
    .createIndex('predictions_mask_stats_pending')
    .on('predictions')
    .columns(['prediction_set_id', 'sample_id'])
    .where(sql.ref('mask'), 'is not', null)
    .where(sql.ref('mask_stats'), 'is', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('predictions_mask_stats_pending').execute();
  await db.schema.alterTable('predictions').dropColumn('mask_stats').execute();
}

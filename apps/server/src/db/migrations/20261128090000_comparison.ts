// Comparing two models: the job-computed comparison of a pair of prediction sets of a dataset, one
// per split, metric and regression value name (the key), with the data it was computed from, so a
// read knows whether it is current. Either set's deletion takes its comparisons with it.
import type { Kysely } from 'kysely';
import { types } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('comparison_results')
    .addColumn('prediction_set_a', 'varchar(36)', (c) =>
      c.notNull().references('prediction_sets.id').onDelete('cascade'),
    )
    .addColumn('prediction_set_b', 'varchar(36)', (c) =>
      c.notNull().references('prediction_sets.id').onDelete('cascade'),
    )
    // JSON of [split, metric, regression value name or null].
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('data_version', 'bigint', (c) => c.notNull())
    .addColumn('iou_threshold', t.double, (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('progress', t.double, (c) => c.notNull().defaultTo(0))
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('comparison_results_pk', [
      'prediction_set_a',
      'prediction_set_b',
      'key',
    ])
    .execute();
  // B's deletion cascades through this index (A's uses the primary key).
  await db.schema
    .createIndex('comparison_results_b')
    .on('comparison_results')
    .column('prediction_set_b')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('comparison_results').execute();
}

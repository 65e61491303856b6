// Model performance: the job-computed results of a prediction set (its report, its fine-grained
// curves, and one entry per subset), each with the data it was computed from, so a read knows
// whether it is current; and the metric a subset shows in its performance entry.
import type { Kysely } from 'kysely';
import { types } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('performance_results')
    .addColumn('prediction_set_id', 'varchar(36)', (c) =>
      c.notNull().references('prediction_sets.id').onDelete('cascade'),
    )
    // 'report', 'finegrained' or 'subset:<subset id>'.
    .addColumn('kind', 'varchar(60)', (c) => c.notNull())
    .addColumn('data_version', 'bigint', (c) => c.notNull())
    .addColumn('iou_threshold', t.double, (c) => c.notNull())
    // The subset's updated_at for a subset entry; 0 otherwise.
    .addColumn('subset_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('progress', t.double, (c) => c.notNull().defaultTo(0))
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('performance_results_pk', ['prediction_set_id', 'kind'])
    .execute();
  // null: the task's first slice metric.
  await db.schema.alterTable('subsets').addColumn('performance_metric', 'varchar(100)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subsets').dropColumn('performance_metric').execute();
  await db.schema.dropTable('performance_results').execute();
}

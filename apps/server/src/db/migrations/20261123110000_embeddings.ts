// Embeddings: the scatter plot's settings per (dataset, data level, prediction set), and the
// computed 2-D layouts per (dataset, data level, feature, method) with what they were computed
// from, so a layout is reused until its feature's vectors change.
import type { Kysely } from 'kysely';
import { types } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('embedding_settings')
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('data_level', 'varchar(16)', (c) => c.notNull())
    // '' when no prediction set: primary key columns cannot be null.
    .addColumn('predictions_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('feature_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('setting', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('embedding_settings_pk', [
      'dataset_id',
      'data_level',
      'predictions_id',
    ])
    .execute();

  await db.schema
    .createTable('embeddings')
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('data_level', 'varchar(16)', (c) => c.notNull())
    .addColumn('feature_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('method_key', 'varchar(60)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    // The feature's updated_at the current job or result belongs to.
    .addColumn('source_version', 'bigint', (c) => c.notNull())
    .addColumn('job_key', 'text')
    .addColumn('error', 'text')
    // sha256 of the item ids and vectors the coordinates were computed from.
    .addColumn('input_hash', 'varchar(64)')
    .addColumn('num_points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('item_ids', t.blob)
    .addColumn('coords', t.blob)
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('embeddings_pk', [
      'dataset_id',
      'data_level',
      'feature_name',
      'method_key',
    ])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('embeddings').execute();
  await db.schema.dropTable('embedding_settings').execute();
}

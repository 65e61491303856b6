// Data health checks (docs/health-checks.md, "How checks are computed"): the user's state of a
// dataset's checks (custom checks, params, enabled flags), each check's stored result per
// prediction set ('' for data checks) with the fingerprint of what it was computed from, the items
// a user ignored, and a per-dataset version the explorer's derived check columns key on. A
// dataset's deletion takes all of it; prediction sets go only with their dataset.
import type { Kysely } from 'kysely';
import { types } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('health_checks')
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('id', 'varchar(200)', (c) => c.notNull())
    .addColumn('key', 'varchar(100)', (c) => c.notNull())
    .addColumn('level', 'varchar(20)', (c) => c.notNull())
    .addColumn('type', 'varchar(10)', (c) => c.notNull())
    // A custom check's name; null for a default check (its definition names it).
    .addColumn('name', 'varchar(200)')
    // JSON of the user's param values by name.
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('health_checks_pk', ['dataset_id', 'id'])
    .execute();
  await db.schema
    .createTable('health_check_results')
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('check_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('prediction_set_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('data_version', 'bigint', (c) => c.notNull())
    .addColumn('params_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    // zlib-compressed JSON: the outcome, the missing requirements or the error message.
    .addColumn('outcome', t.blob, (c) => c.notNull())
    .addColumn('computed_at', 'bigint', (c) => c.notNull())
    // How long the check's run took on the checks thread (0 when kept or not run).
    .addColumn('duration_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('health_check_results_pk', [
      'dataset_id',
      'check_id',
      'prediction_set_id',
    ])
    .execute();
  await db.schema
    .createTable('health_check_ignored')
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('check_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('prediction_set_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('item_id', 'varchar(1100)', (c) => c.notNull())
    .addPrimaryKeyConstraint('health_check_ignored_pk', [
      'dataset_id',
      'check_id',
      'prediction_set_id',
      'item_id',
    ])
    .execute();
  await db.schema
    .createTable('health_check_state')
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.primaryKey().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('health_check_state').execute();
  await db.schema.dropTable('health_check_ignored').execute();
  await db.schema.dropTable('health_check_results').execute();
  await db.schema.dropTable('health_checks').execute();
}

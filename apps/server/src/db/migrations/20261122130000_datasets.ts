// Datasets and everything uploaded into them: samples, ground-truth objects, metadata fields,
// features, prediction sets with their predictions and attributions, media blobs, history, jobs.
// Sized for 1,000,000 samples and 10,000,000 objects per dataset: composite primary keys lead
// with the dataset, and counts are kept on the dataset row instead of counted on every read.
import { sql, type Kysely } from 'kysely';
import { types } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = types(db);

  await db.schema
    .createTable('datasets')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('task_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('class_names', 'text', (c) => c.notNull())
    .addColumn('value_names', 'text', (c) => c.notNull())
    .addColumn('label_map', 'text')
    .addColumn('closed_classes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('iou_threshold', t.double, (c) => c.notNull())
    .addColumn('thumbnails_enabled', 'integer', (c) => c.notNull())
    .addColumn('samples_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('objects_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('samples')
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('id', 'varchar(1000)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('media_type', 'varchar(8)')
    .addColumn('media', 'text')
    .addColumn('split', 'varchar(100)')
    .addColumn('label', 'varchar(200)')
    .addColumn('labels', 'text')
    .addColumn('values_json', 'text')
    .addColumn('transcript', 'text')
    .addColumn('mask', 'text')
    .addColumn('metadata', 'text')
    .addColumn('computed', 'text')
    .addColumn('thumbnail', 'text')
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_record_id', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('samples_pk', ['dataset_id', 'id'])
    .execute();
  await db.schema.createIndex('samples_seq').on('samples').columns(['dataset_id', 'seq']).execute();
  await db.schema
    .createIndex('samples_processed')
    .on('samples')
    // With seq last, "the next unprocessed samples in upload order" is an index range scan, not
    // a sort of every unprocessed row (quadratic over a million-sample upload).
    .columns(['dataset_id', 'processed', 'seq'])
    .execute();

  await db.schema
    .createTable('objects')
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('id', 'varchar(1100)', (c) => c.notNull())
    .addColumn('sample_id', 'varchar(1000)', (c) => c.notNull())
    .addColumn('label', 'varchar(200)', (c) => c.notNull())
    .addColumn('x', t.double)
    .addColumn('y', t.double)
    .addColumn('w', t.double)
    .addColumn('h', t.double)
    .addColumn('segmentation', 'text')
    .addColumn('iscrowd', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('computed', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('objects_pk', ['dataset_id', 'id'])
    .execute();
  await db.schema
    .createIndex('objects_sample')
    .on('objects')
    .columns(['dataset_id', 'sample_id'])
    .execute();

  await db.schema
    .createTable('metadata_fields')
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('data_level', 'varchar(16)', (c) => c.notNull())
    .addColumn('id', 'varchar(300)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('label', 'varchar(200)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('group_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('source', 'varchar(20)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('metadata_fields_pk', ['dataset_id', 'data_level', 'id'])
    .execute();

  await db.schema
    .createTable('features')
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('data_level', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('dimension', 'integer', (c) => c.notNull())
    .addColumn('source', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('features_pk', ['dataset_id', 'data_level', 'name'])
    .execute();

  await db.schema
    .createTable('feature_vectors')
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('data_level', 'varchar(16)', (c) => c.notNull())
    .addColumn('feature_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('item_id', 'varchar(1100)', (c) => c.notNull())
    .addColumn('vector', t.blob, (c) => c.notNull())
    .addPrimaryKeyConstraint('feature_vectors_pk', [
      'dataset_id',
      'data_level',
      'feature_name',
      'item_id',
    ])
    .execute();

  await db.schema
    .createTable('prediction_sets')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('num_present', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('prediction_sets_name', ['dataset_id', 'name'])
    .execute();

  await db.schema
    .createTable('predictions')
    .addColumn('prediction_set_id', 'varchar(36)', (c) =>
      c.notNull().references('prediction_sets.id').onDelete('cascade'),
    )
    .addColumn('sample_id', 'varchar(1000)', (c) => c.notNull())
    .addColumn('label', 'varchar(200)')
    .addColumn('score', t.double)
    .addColumn('probabilities', 'text')
    .addColumn('values_json', 'text')
    .addColumn('transcript', 'text')
    .addColumn('mask', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('predictions_pk', ['prediction_set_id', 'sample_id'])
    .execute();

  await db.schema
    .createTable('predicted_objects')
    .addColumn('prediction_set_id', 'varchar(36)', (c) =>
      c.notNull().references('prediction_sets.id').onDelete('cascade'),
    )
    .addColumn('id', 'varchar(1100)', (c) => c.notNull())
    .addColumn('sample_id', 'varchar(1000)', (c) => c.notNull())
    .addColumn('label', 'varchar(200)', (c) => c.notNull())
    .addColumn('score', t.double, (c) => c.notNull())
    .addColumn('x', t.double)
    .addColumn('y', t.double)
    .addColumn('w', t.double)
    .addColumn('h', t.double)
    .addColumn('segmentation', 'text')
    .addPrimaryKeyConstraint('predicted_objects_pk', ['prediction_set_id', 'id'])
    .execute();
  await db.schema
    .createIndex('predicted_objects_sample')
    .on('predicted_objects')
    .columns(['prediction_set_id', 'sample_id'])
    .execute();

  await db.schema
    .createTable('attributions')
    .addColumn('prediction_set_id', 'varchar(36)', (c) =>
      c.notNull().references('prediction_sets.id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('sample_id', 'varchar(1000)', (c) => c.notNull())
    .addColumn('heatmap', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('attributions_pk', ['prediction_set_id', 'name', 'sample_id'])
    .execute();

  await db.schema
    .createTable('media_blobs')
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('key', 'varchar(100)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_blobs_pk', ['dataset_id', 'key'])
    .execute();

  await db.schema
    .createTable('history_records')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('operation_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('data_level', 'varchar(16)', (c) => c.notNull())
    .addColumn('num_items', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('history_dataset')
    .on('history_records')
    .columns(['dataset_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(60)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_after', 'bigint', (c) => c.notNull())
    .addColumn('locked_by', 'varchar(100)')
    .addColumn('locked_until', 'bigint')
    .addColumn('dedupe_key', 'varchar(300)')
    .addColumn('user_id', 'varchar(36)')
    .addColumn('dataset_id', 'varchar(36)')
    .addColumn('progress', t.double)
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['status', 'run_after']).execute();
  await db.schema.createIndex('jobs_updated').on('jobs').columns(['updated_at']).execute();
  // At most one waiting job per dedupe key: enqueueing the same work twice coalesces.
  await db.schema
    .createIndex('jobs_dedupe')
    .on('jobs')
    .column('dedupe_key')
    .unique()
    .where(sql.ref('status'), '=', 'queued')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'jobs',
    'history_records',
    'media_blobs',
    'attributions',
    'predicted_objects',
    'predictions',
    'prediction_sets',
    'feature_vectors',
    'features',
    'metadata_fields',
    'objects',
    'samples',
    'datasets',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

// Curation: subsets and their items, and the items each history record touched (so the history
// filter selects exactly them and a delete can be restored). A restore record points at the
// delete record it undid.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('subsets')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('data_level', 'varchar(16)', (c) => c.notNull())
    .addColumn('enabled_for_performance', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('num_items', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('subsets_name', ['dataset_id', 'name'])
    .execute();

  await db.schema
    .createTable('subset_items')
    .addColumn('subset_id', 'varchar(36)', (c) =>
      c.notNull().references('subsets.id').onDelete('cascade'),
    )
    .addColumn('item_id', 'varchar(1100)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('subset_items_pk', ['subset_id', 'item_id'])
    .execute();

  await db.schema
    .createTable('history_items')
    .addColumn('record_id', 'varchar(36)', (c) =>
      c.notNull().references('history_records.id').onDelete('cascade'),
    )
    .addColumn('item_id', 'varchar(1100)', (c) => c.notNull())
    .addPrimaryKeyConstraint('history_items_pk', ['record_id', 'item_id'])
    .execute();

  await db.schema.alterTable('history_records').addColumn('restored_by', 'varchar(36)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table samples reset (fillfactor)`.execute(db);
    await sql`alter table objects reset (fillfactor)`.execute(db);
  }
  await db.schema.alterTable('history_records').dropColumn('restored_by').execute();
  await db.schema.dropTable('history_items').execute();
  await db.schema.dropTable('subset_items').execute();
  await db.schema.dropTable('subsets').execute();
}

// Samples waiting for the metadata pass are found through a partial index of only those rows,
// instead of an index over every sample's (dataset, processed, seq). Samples without media or
// objects are done when they arrive and never enter it, so a metadata-only upload maintains one
// index fewer per row, and processed samples leave it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('samples_unprocessed')
    .on('samples')
    .columns(['dataset_id', 'seq'])
    .where(sql.ref('processed'), '=', sql.lit(0))
    .execute();
  await db.schema.dropIndex('samples_processed').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('samples_processed')
    .on('samples')
    .columns(['dataset_id', 'processed', 'seq'])
    .execute();
  await db.schema.dropIndex('samples_unprocessed').execute();
}

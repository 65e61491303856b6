// Indexes behind the dataset summary (GET /api/datasets/:id) so it stays a few index seeks at a
// million samples: the distinct splits are read by a loose index scan over (dataset, deleted,
// split), and the preview thumbnails by a partial index of the samples that have one. Without
// them both read every sample row (4 s at 1M on SQLite, blocking other requests).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('samples_split')
    .on('samples')
    .columns(['dataset_id', 'deleted', 'split'])
    .execute();
  await db.schema
    .createIndex('samples_preview')
    .on('samples')
    .columns(['dataset_id', 'seq'])
    .where(sql.ref('thumbnail'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('samples_preview').execute();
  await db.schema.dropIndex('samples_split').execute();
}

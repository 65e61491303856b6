// PostgreSQL: no index of samples holds `deleted`, so deleting and restoring samples are HOT
// updates (the row's new version beside the old one, no new index entries; see
// 20261127120000_edit_room). With `deleted` in samples_split each of the 100,000 rows of a
// deletion or a restore got three index entries and the statement wrote about 520 MB of WAL
// (3.7 s); without, 19 MB (1.3 s; docs/performance.md, Curation). The splits are still read by a
// loose scan of (dataset, split), and a dataset's deleted samples are found through the delete
// records of its history (docs/decisions.md, decision 61). SQLite keeps the index as it was: it
// rewrites a changed row in place either way, and reads the deleted samples from this index.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index samples_split`.execute(db);
  await sql`create index samples_split on samples (dataset_id, split)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index samples_split`.execute(db);
  await sql`create index samples_split on samples (dataset_id, deleted, split)`.execute(db);
}

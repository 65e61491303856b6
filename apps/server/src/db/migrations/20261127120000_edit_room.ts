// PostgreSQL pages of samples and objects keep a tenth of their room free, so a label or split
// edit writes the row's new version beside the old one (a HOT update, for columns no index
// holds: no new index entries) instead of on a page at the end of the table. A relabel of
// 100,000 samples of 1,000,000 wrote 520 MB of WAL and took 2.2-3.7 s on a freshly loaded
// table, 340 MB and 1.2-2.3 s with the room (docs/performance.md, Curation). Rows written before
// this migration get the room when a VACUUM FULL rewrites the table; SQLite has no such setting.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table samples set (fillfactor = 90)`.execute(db);
  await sql`alter table objects set (fillfactor = 90)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table samples reset (fillfactor)`.execute(db);
  await sql`alter table objects reset (fillfactor)`.execute(db);
}

// A per-dataset counter bumped in the same transaction as every write that changes its items,
// metadata, predictions or processing results: API processes validate their in-memory explorer
// tables against it with one cheap read per request, so they stay stateless.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('datasets')
    .addColumn('data_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('datasets').dropColumn('data_version').execute();
}

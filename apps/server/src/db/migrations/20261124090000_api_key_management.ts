// API keys users can list, name, rotate and revoke: a non-secret hint to tell them apart and when
// each was last used. Keys shown only once keep an empty key_ciphertext.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('hint', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
  await db.schema.alterTable('api_keys').dropColumn('hint').execute();
}

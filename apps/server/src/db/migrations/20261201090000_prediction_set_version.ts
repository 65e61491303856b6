// A prediction set's own version: raised by every upload of its predictions (the only writes of
// its labels, scores and probabilities), so a process can keep a set's evaluation columns while
// only the samples change (performance/prediction-columns.ts).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('prediction_sets')
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('prediction_sets').dropColumn('version').execute();
}

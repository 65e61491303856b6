// Layouts of a prediction set's own features (a model's embeddings on its explore page): the
// embeddings table gets a prediction_set_id, '' for a dataset's feature, second in its primary
// key, since a model may name a feature like its dataset does. SQLite cannot change a primary key
// in place: the table is rebuilt and its layouts copied (they are costly to compute again).
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { isPostgres, types } from '../dialect.js';

const COLUMNS = [
  'dataset_id',
  'data_level',
  'feature_name',
  'method_key',
  'status',
  'source_version',
  'job_key',
  'error',
  'input_hash',
  'num_points',
  'item_ids',
  'coords',
  'updated_at',
];
const KEY = ['dataset_id', 'data_level', 'feature_name', 'method_key'];
const KEY_WITH_SET = [
  'dataset_id',
  'prediction_set_id',
  'data_level',
  'feature_name',
  'method_key',
];

async function createEmbeddings(db: Kysely<unknown>, table: string, withSet: boolean) {
  const t = types(db);
  // Typed loosely: which columns the key names depends on withSet.
  let builder: CreateTableBuilder<string, string> = db.schema
    .createTable(table)
    .addColumn('dataset_id', 'varchar(36)', (c) =>
      c.notNull().references('datasets.id').onDelete('cascade'),
    );
  if (withSet)
    builder = builder.addColumn('prediction_set_id', 'varchar(36)', (c) =>
      c.notNull().defaultTo(''),
    );
  await builder
    .addColumn('data_level', 'varchar(16)', (c) => c.notNull())
    .addColumn('feature_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('method_key', 'varchar(60)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('source_version', 'bigint', (c) => c.notNull())
    .addColumn('job_key', 'text')
    .addColumn('error', 'text')
    .addColumn('input_hash', 'varchar(64)')
    .addColumn('num_points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('item_ids', t.blob)
    .addColumn('coords', t.blob)
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('embeddings_pk', withSet ? KEY_WITH_SET : KEY)
    .execute();
}

/** SQLite: builds the table anew, copies the rows `where` keeps, swaps. */
async function rebuild(db: Kysely<unknown>, withSet: boolean, where = sql`1 = 1`) {
  await createEmbeddings(db, 'embeddings_next', withSet);
  const list = sql.join(COLUMNS.map((c) => sql.ref(c)));
  await sql`insert into embeddings_next (${list}) select ${list} from embeddings where ${where}`.execute(
    db,
  );
  await db.schema.dropTable('embeddings').execute();
  await sql`alter table embeddings_next rename to embeddings`.execute(db);
}

async function replaceKey(db: Kysely<unknown>, key: string[]) {
  await sql`alter table embeddings drop constraint embeddings_pk`.execute(db);
  await sql`alter table embeddings add constraint embeddings_pk primary key (${sql.join(key.map((c) => sql.ref(c)))})`.execute(
    db,
  );
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return rebuild(db, true);
  await db.schema
    .alterTable('embeddings')
    .addColumn('prediction_set_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .execute();
  await replaceKey(db, KEY_WITH_SET);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const datasetOnly = sql`prediction_set_id = ''`;
  if (!isPostgres(db)) return rebuild(db, false, datasetOnly);
  await sql`delete from embeddings where prediction_set_id <> ''`.execute(db);
  await sql`alter table embeddings drop constraint embeddings_pk`.execute(db);
  await db.schema.alterTable('embeddings').dropColumn('prediction_set_id').execute();
  await sql`alter table embeddings add constraint embeddings_pk primary key (${sql.join(KEY.map((c) => sql.ref(c)))})`.execute(
    db,
  );
}

// Features of a prediction set (a model's own vectors, beside the dataset's): features and
// feature_vectors get a prediction_set_id, '' for a dataset's feature, and it joins their primary
// keys, second, so the dataset's reads (prediction_set_id = '') keep a full key prefix.
// SQLite cannot change a primary key in place: its tables are rebuilt, rows copied. Also an
// index for the items call, which reads the attributions of a page of samples.
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { isPostgres, types } from '../dialect.js';

const FEATURE_COLUMNS = [
  'dataset_id',
  'data_level',
  'name',
  'dimension',
  'source',
  'created_at',
  'updated_at',
];
const VECTOR_COLUMNS = ['dataset_id', 'data_level', 'feature_name', 'item_id', 'vector'];

async function createFeatures(db: Kysely<unknown>, table: string, withSet: boolean) {
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
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('dimension', 'integer', (c) => c.notNull())
    .addColumn('source', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint(
      'features_pk',
      withSet
        ? ['dataset_id', 'prediction_set_id', 'data_level', 'name']
        : ['dataset_id', 'data_level', 'name'],
    )
    .execute();
}

async function createVectors(db: Kysely<unknown>, table: string, withSet: boolean) {
  const t = types(db);
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
    .addColumn('item_id', 'varchar(1100)', (c) => c.notNull())
    .addColumn('vector', t.blob, (c) => c.notNull())
    .addPrimaryKeyConstraint(
      'feature_vectors_pk',
      withSet
        ? ['dataset_id', 'prediction_set_id', 'data_level', 'feature_name', 'item_id']
        : ['dataset_id', 'data_level', 'feature_name', 'item_id'],
    )
    .execute();
}

/** SQLite: builds `table` anew with `create`, copies `columns` (rows `where` keeps), swaps. */
async function rebuild(
  db: Kysely<unknown>,
  table: string,
  columns: string[],
  create: (db: Kysely<unknown>, table: string) => Promise<void>,
  where = sql`1 = 1`,
) {
  const next = `${table}_next`;
  await create(db, next);
  const list = sql.join(columns.map((c) => sql.ref(c)));
  await sql`insert into ${sql.table(next)} (${list}) select ${list} from ${sql.table(table)} where ${where}`.execute(
    db,
  );
  await db.schema.dropTable(table).execute();
  await sql`alter table ${sql.table(next)} rename to ${sql.table(table)}`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('attributions_sample')
    .on('attributions')
    .columns(['prediction_set_id', 'sample_id'])
    .execute();
  if (isPostgres(db)) {
    for (const [table, key] of [
      ['features', ['dataset_id', 'prediction_set_id', 'data_level', 'name']],
      [
        'feature_vectors',
        ['dataset_id', 'prediction_set_id', 'data_level', 'feature_name', 'item_id'],
      ],
    ] as const) {
      await db.schema
        .alterTable(table)
        .addColumn('prediction_set_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
        .execute();
      await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(`${table}_pk`)}`.execute(
        db,
      );
      await sql`alter table ${sql.table(table)} add constraint ${sql.ref(`${table}_pk`)} primary key (${sql.join(key.map((c) => sql.ref(c)))})`.execute(
        db,
      );
    }
    return;
  }
  // SQLite scopes constraint names by table: the copies keep the original key names.
  await rebuild(db, 'features', FEATURE_COLUMNS, (d, name) => createFeatures(d, name, true));
  await rebuild(db, 'feature_vectors', VECTOR_COLUMNS, (d, name) => createVectors(d, name, true));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('attributions_sample').execute();
  if (isPostgres(db)) {
    for (const [table, key] of [
      ['features', ['dataset_id', 'data_level', 'name']],
      ['feature_vectors', ['dataset_id', 'data_level', 'feature_name', 'item_id']],
    ] as const) {
      await sql`delete from ${sql.table(table)} where prediction_set_id <> ''`.execute(db);
      await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(`${table}_pk`)}`.execute(
        db,
      );
      await db.schema.alterTable(table).dropColumn('prediction_set_id').execute();
      await sql`alter table ${sql.table(table)} add constraint ${sql.ref(`${table}_pk`)} primary key (${sql.join(key.map((c) => sql.ref(c)))})`.execute(
        db,
      );
    }
    return;
  }
  const datasetOnly = sql`prediction_set_id = ''`;
  await rebuild(
    db,
    'features',
    FEATURE_COLUMNS,
    (d, name) => createFeatures(d, name, false),
    datasetOnly,
  );
  await rebuild(
    db,
    'feature_vectors',
    VECTOR_COLUMNS,
    (d, name) => createVectors(d, name, false),
    datasetOnly,
  );
}

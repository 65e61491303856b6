// Bulk writes of generated benchmark data, the same code on SQLite and PostgreSQL: one row as an
// object, or batches of rows in a table's column order (prepared statements in one transaction on
// SQLite, one `insert … select * from unnest(…)` per batch on PostgreSQL).
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '@loupe/server/embedded';

/** A table's columns with their PostgreSQL types, in the order of its batch rows. */
export type Columns = readonly (readonly [name: string, pgType: string])[];

/** One row as `insert into table (keys) values ($1, …)`. */
export function insertObject(table: string, row: Record<string, unknown>) {
  const keys = Object.keys(row);
  return {
    text: `insert into ${table} (${keys.join(', ')}) values (${keys.map((_, i) => `$${i + 1}`).join(', ')})`,
    values: Object.values(row),
  };
}

/** Rows as one `insert … select * from unnest($1::type[], …)`: one array per column. */
export function unnest(table: string, columns: string, types: string[], rows: unknown[][]) {
  return {
    text: `insert into ${table} (${columns}) select * from unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`,
    values: types.map((_, c) => rows.map((row) => row[c])),
  };
}

export interface BulkWriter {
  /** The rows of a query with `?` placeholders. */
  select<T>(text: string, params: unknown[]): Promise<T[]>;
  run(text: string, params: unknown[]): Promise<void>;
  insert(table: string, row: Record<string, unknown>): Promise<void>;
  /** Batches of rows of several tables, written together in one transaction. */
  batch(parts: { table: string; columns: Columns; rows: unknown[][] }[]): Promise<void>;
  /** Planner statistics, after a bulk write (PostgreSQL). */
  analyze(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Rows of several tables gathered for `bulk.batch`: `push` a sample's rows, then `next()` writes
 * every table's rows together once the first table holds `size`; `end()` writes what is left.
 */
export function tableBatches<T extends string>(
  bulk: BulkWriter,
  tables: Record<T, Columns>,
  size: number,
) {
  const names = Object.keys(tables) as T[];
  const empty = () =>
    Object.fromEntries(names.map((t) => [t, [] as unknown[][]])) as Record<T, unknown[][]>;
  let rows = empty();
  const write = async () => {
    await bulk.batch(names.map((t) => ({ table: t, columns: tables[t], rows: rows[t] })));
    rows = empty();
  };
  return {
    push: (table: T, row: unknown[]) => void rows[table].push(row),
    next: async () => {
      if (rows[names[0]!].length >= size) await write();
    },
    end: async () => {
      if (rows[names[0]!].length > 0) await write();
    },
  };
}

export async function openBulkWriter(database: DatabaseConfig): Promise<BulkWriter> {
  if (database.kind === 'sqlite') {
    const db = new SQLite(database.path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = ON'); // deleting a half-generated dataset deletes its rows
    const statements = new Map<string, SQLite.Statement>();
    const prepared = (table: string, columns: Columns) => {
      const key = `${table}(${columns.map(([name]) => name).join(',')})`;
      let statement = statements.get(key);
      if (!statement) {
        statement = db.prepare(
          `insert into ${table} (${columns.map(([name]) => name).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
        );
        statements.set(key, statement);
      }
      return statement;
    };
    const write = db.transaction((parts: Parameters<BulkWriter['batch']>[0]) => {
      for (const { table, columns, rows } of parts) {
        const statement = prepared(table, columns);
        for (const row of rows) statement.run(...row);
      }
    });
    return {
      select: <T>(text: string, params: unknown[]) =>
        Promise.resolve(db.prepare(text).all(...params) as T[]),
      run: async (text, params) => void db.prepare(text).run(...params),
      insert: async (table, row) => {
        const keys = Object.keys(row);
        db.prepare(
          `insert into ${table} (${keys.join(', ')}) values (${keys.map(() => '?').join(', ')})`,
        ).run(...Object.values(row));
      },
      batch: async (parts) => void write(parts),
      analyze: async () => undefined,
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({
    connectionString: database.url,
    ...(database.schema ? { options: `-c search_path=${database.schema}` } : {}),
  });
  await client.connect();
  const numbered = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  return {
    select: async <T>(text: string, params: unknown[]) =>
      (await client.query(numbered(text), params)).rows as T[],
    run: async (text, params) => void (await client.query(numbered(text), params)),
    insert: async (table, row) => void (await client.query(insertObject(table, row))),
    batch: async (parts) => {
      await client.query('begin');
      for (const { table, columns, rows } of parts)
        if (rows.length > 0)
          await client.query(
            unnest(
              table,
              columns.map(([name]) => name).join(', '),
              columns.map(([, type]) => type),
              rows,
            ),
          );
      await client.query('commit');
    },
    analyze: async () => void (await client.query('analyze')),
    close: () => client.end(),
  };
}

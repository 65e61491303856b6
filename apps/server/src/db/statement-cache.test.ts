// The SQLite connection reuses prepared statements, and never one that is still reading rows.
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './database.js';

describe('withStatementCache', () => {
  let connection: SQLite.Database;
  beforeEach(() => {
    connection = new SQLite(':memory:');
    connection.exec('create table t (n integer)');
    connection.exec('insert into t values (1), (2), (3)');
  });
  afterEach(() => connection.close());

  it('hands out the same statement for the same SQL, with fresh parameters each time', () => {
    const cached = withStatementCache(connection);
    const first = cached.prepare('select n from t where n > ?');
    expect(cached.prepare('select n from t where n > ?')).toBe(first);
    expect(cached.prepare('select n from t where n > ?').all(1)).toEqual([{ n: 2 }, { n: 3 }]);
    expect(cached.prepare('select n from t where n > ?').all(2)).toEqual([{ n: 3 }]);
    expect(cached.prepare('select n from t where n < ?')).not.toBe(first);
  });

  it('prepares a new statement while the cached one is still iterating', () => {
    const cached = withStatementCache(connection);
    const sql = 'select n from t order by n';
    const outer = cached.prepare(sql);
    const seen: number[][] = [];
    for (const row of outer.iterate() as Iterable<{ n: number }>) {
      const inner = cached.prepare(sql);
      expect(inner).not.toBe(outer);
      seen.push([row.n, (inner.all() as { n: number }[]).length]);
    }
    expect(seen).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    // Done iterating, the cached statement is handed out again.
    expect(cached.prepare(sql)).toBe(outer);
  });

  it('keeps at most 256 statements, dropping the least recently used', () => {
    const cached = withStatementCache(connection);
    const keep = cached.prepare('select 0');
    const first = cached.prepare('select 1');
    for (let i = 2; i < 256; i++) cached.prepare(`select ${i}`); // 256 kept
    expect(cached.prepare('select 0')).toBe(keep); // used again: now the most recent
    cached.prepare('select 256'); // one too many: 'select 1' is the oldest and goes
    expect(cached.prepare('select 0')).toBe(keep);
    expect(cached.prepare('select 1')).not.toBe(first);
  });
});

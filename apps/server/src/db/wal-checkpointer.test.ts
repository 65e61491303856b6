import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function until(condition: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((wake) => setTimeout(wake, 20));
  }
}

describe('SQLite checkpoints off the main thread', () => {
  it('a large commit leaves its pages in the log; a thread copies them into the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-wal-'));
    dirs.push(dir);
    const path = join(dir, 'loupe.db');
    const database = openDatabase({ kind: 'sqlite', path });
    const fileSize = () => statSync(path).size;
    try {
      await sql`create table blobs (b blob)`.execute(database.db);
      const before = fileSize();
      // About 12 MB in one transaction: 3,000 pages past SQLite's own checkpoint threshold.
      await database.db.transaction().execute(async (trx) => {
        await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000)
          insert into blobs select randomblob(4000) from n`.execute(trx);
      });
      // The commit returned without copying its pages into the database file…
      expect(fileSize()).toBe(before);
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(12_000_000);
      // …which the thread then does.
      await until(() => fileSize() > 12_000_000);
      const { rows } = await sql<{ n: number }>`select count(*) as n from blobs`.execute(
        database.db,
      );
      expect(rows[0]!.n).toBe(3000);
    } finally {
      await database.destroy();
    }
    // Closed cleanly: the last connection removed the log, and everything is in the file.
    const reopened = new SQLite(path, { readonly: true });
    expect(reopened.prepare('select count(*) as n from blobs').get()).toEqual({ n: 3000 });
    reopened.close();
  });

  it('small databases never start the thread and still close cleanly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-wal-'));
    dirs.push(dir);
    const path = join(dir, 'loupe.db');
    const database = openDatabase({ kind: 'sqlite', path });
    await sql`create table t (x integer)`.execute(database.db);
    await sql`insert into t values (1), (2)`.execute(database.db);
    await database.destroy();
    const reopened = new SQLite(path, { readonly: true });
    expect(reopened.prepare('select count(*) as n from t').get()).toEqual({ n: 2 });
    reopened.close();
  });
});

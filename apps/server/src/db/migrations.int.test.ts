import { readdirSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { SamplesRepository } from '../samples/samples.repository.js';
import { freshDatabaseConfig, testDialect } from '../testing/test-app.js';
import { migrateToLatest, migrationState, migrator, openDatabase } from './database.js';
import { migrations } from './migrations/index.js';

describe(`migrations on ${testDialect}`, () => {
  it('lists every timestamped migration file', () => {
    const files = readdirSync(join(import.meta.dirname, 'migrations'))
      .filter((name) => /^\d{14}_.+\.ts$/.test(name) && !name.endsWith('.d.ts'))
      .map((name) => name.replace(/\.ts$/, ''));
    expect(Object.keys(migrations).sort()).toEqual(files.sort());
  });

  it('run up, all the way down, and up again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'loupe-migrate-'));
    const { database: config, drop } = await freshDatabaseConfig(dataDir);
    const database = openDatabase(config);
    try {
      expect(await migrateToLatest(database)).toEqual(Object.keys(migrations).sort());
      expect((await migrationState(database)).every((m) => m.executed_at)).toBe(true);
      await database.db
        .insertInto('settings')
        .values({ key: 'company_name', value: 'Acme' })
        .execute();

      for (let i = 0; i < Object.keys(migrations).length; i++) {
        const { error } = await migrator(database).migrateDown();
        expect(error).toBeUndefined();
      }
      expect((await migrationState(database)).some((m) => m.executed_at)).toBe(false);
      await migrateToLatest(database);
      expect(await database.db.selectFrom('settings').selectAll().execute()).toEqual([]);
      // Running again is a no-op.
      expect(await migrateToLatest(database)).toEqual([]);
    } finally {
      await database.destroy();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("gives existing predictions their sample's seq", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'loupe-seq-'));
    const { database: config, drop } = await freshDatabaseConfig(dataDir);
    const database = openDatabase(config);
    try {
      const { error } = await migrator(database).migrateTo('20261201090000_prediction_set_version');
      expect(error).toBeUndefined();
      const db = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const now = 1;
      const dataset = (id: string) => ({
        id,
        name: id,
        description: '',
        task_type: 'classification',
        class_names: '["cat","dog"]',
        value_names: '[]',
        closed_classes: 1,
        iou_threshold: 0.5,
        thumbnails_enabled: 0,
        samples_count: 2,
        objects_count: 0,
        next_seq: 2,
        data_version: 1,
        created_at: now,
        updated_at: now,
      });
      await db
        .insertInto('datasets')
        .values([dataset('d1'), dataset('d2')])
        .execute();
      // The same sample id in two datasets, with other seqs in each.
      const sample = (datasetId: string, id: string, seq: number, deleted = 0) => ({
        dataset_id: datasetId,
        id,
        seq,
        label: 'cat',
        deleted,
        created_at: now,
        updated_at: now,
      });
      await db
        .insertInto('samples')
        .values([sample('d1', 'a', 0), sample('d1', 'b', 1, 1), sample('d2', 'b', 7)])
        .execute();
      const set = (id: string, datasetId: string) => ({
        id,
        dataset_id: datasetId,
        name: id,
        created_at: now,
        updated_at: now,
      });
      await db
        .insertInto('prediction_sets')
        .values([set('p1', 'd1'), set('p2', 'd2')])
        .execute();
      const prediction = (setId: string, sampleId: string) => ({
        prediction_set_id: setId,
        sample_id: sampleId,
        label: 'dog',
        created_at: now,
      });
      await db
        .insertInto('predictions')
        .values([prediction('p1', 'a'), prediction('p1', 'b'), prediction('p2', 'b')])
        .execute();

      await migrateToLatest(database);
      const rows = await database.db
        .selectFrom('predictions')
        .select(['prediction_set_id', 'sample_id', 'sample_seq'])
        .orderBy('prediction_set_id')
        .orderBy('sample_id')
        .execute();
      expect(rows.map((row) => ({ ...row, sample_seq: Number(row.sample_seq) }))).toEqual([
        { prediction_set_id: 'p1', sample_id: 'a', sample_seq: 0 },
        { prediction_set_id: 'p1', sample_id: 'b', sample_seq: 1 },
        { prediction_set_id: 'p2', sample_id: 'b', sample_seq: 7 },
      ]);
    } finally {
      await database.destroy();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('leaves the deleted flag of samples out of every PostgreSQL index (deletions are HOT updates)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'loupe-hot-'));
    const { database: config, drop } = await freshDatabaseConfig(dataDir);
    const database = openDatabase(config);
    try {
      await migrateToLatest(database);
      const { rows } = await (
        database.dialect === 'postgres'
          ? sql<{ name: string; definition: string }>`select indexrelid::regclass::text as name,
              pg_get_indexdef(indexrelid) as definition
            from pg_index where indrelid = 'samples'::regclass`
          : sql<{ name: string; definition: string }>`select name, sql as definition
            from sqlite_master where type = 'index' and tbl_name = 'samples'`
      ).execute(database.db);
      const split = rows.find((row) => row.name === 'samples_split');
      expect(split).toBeDefined();
      const withDeleted = rows.filter((row) => /\bdeleted\b/.test(row.definition ?? ''));
      // SQLite rewrites a changed row in place either way, and finds deleted samples by index.
      expect(withDeleted.map((row) => row.name)).toEqual(
        database.dialect === 'postgres' ? [] : ['samples_split'],
      );
    } finally {
      await database.destroy();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('finds the samples waiting for the metadata pass through their partial index', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'loupe-plan-'));
    const { database: config, drop } = await freshDatabaseConfig(dataDir);
    const database = openDatabase(config);
    try {
      await migrateToLatest(database);
      const repo = new SamplesRepository(database.db, database.dialect);
      const query = repo.unprocessedQuery('d1', 100, 5).compile();
      const plan = await database.db.transaction().execute(async (trx) => {
        // PostgreSQL reads a tiny table whole unless sequential scans are ruled out.
        if (database.dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
        const prefix = database.dialect === 'postgres' ? 'explain' : 'explain query plan';
        const { rows } = await trx.executeQuery<Record<string, unknown>>({
          ...query,
          sql: `${prefix} ${query.sql}`,
        });
        return rows.map((row) => Object.values(row).join(' ')).join('\n');
      });
      expect(plan).toContain('samples_unprocessed');
    } finally {
      await database.destroy();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

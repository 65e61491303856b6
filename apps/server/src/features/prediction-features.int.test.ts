// A prediction set's own features: uploaded and listed beside the dataset's without touching
// them (same names allowed), checked like the dataset's; and the migration that made room for
// them keeps the features stored before it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, type FeatureUploadRequest } from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, migrator, openDatabase } from '../db/database.js';
import { createDataset, createDatasetWithModel } from '../testing/datasets.js';
import {
  freshDatabaseConfig,
  refused,
  startLicensedApp,
  type Client,
  type TestApp,
} from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

async function pets(): Promise<{ id: string; setId: string }> {
  const { id, predictionSetId } = await createDatasetWithModel(
    admin,
    { name: 'Pets', task_type: 'classification' },
    [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
  );
  return { id, setId: predictionSetId };
}

describe('prediction set features', () => {
  it('are stored beside the dataset features of the same name and listed apart', async () => {
    const { id, setId } = await pets();
    const params = { id, predictionSetId: setId };
    await admin.call(api.features.upload, {
      params: { id },
      body: { name: 'clip', data_level: 'image', vectors: { a: [1, 2, 3], b: [4, 5, 6] } },
    });
    const info = await admin.call(api.features.uploadForPredictionSet, {
      params,
      body: { name: 'clip', data_level: 'image', vectors: { a: [9, 9] } },
    });
    expect(info).toMatchObject({ name: 'clip', size: 2, num_present: 1, num_missing: 2 });
    // Binary form, as the SDKs send it; another feature of the model.
    const data = Buffer.from(new Float32Array([7, 8, 0.5, 0.25]).buffer).toString('base64');
    await admin.call(api.features.uploadForPredictionSet, {
      params,
      body: { name: 'penultimate', data_level: 'image', ids: ['b', 'c'], data, dimension: 2 },
    });

    const listed = await admin.call(api.features.listForPredictionSet, { params });
    expect(listed.dataset_features.map((f) => [f.name, f.size, f.num_present])).toEqual([
      ['clip', 3, 2],
    ]);
    expect(listed.predictions_features.map((f) => [f.name, f.size, f.num_present])).toEqual([
      ['clip', 2, 1],
      ['penultimate', 2, 2],
    ]);
    // The dataset's answer and vectors are its own.
    const datasetOnly = await admin.call(api.features.list, { params: { id } });
    expect(datasetOnly).toEqual(listed.dataset_features);
    const counts = await admin.call(api.explore.itemFeatures, {
      params: { id },
      body: { data_level: 'image', item_ids: ['a', 'b', 'c'] },
    });
    expect(counts.features).toEqual([{ feature_name: 'clip', num_missing: 1 }]);
    const stored = await t.database.db
      .selectFrom('feature_vectors')
      .select(['prediction_set_id', 'item_id', 'vector'])
      .where('feature_name', '=', 'clip')
      .where('item_id', '=', 'a')
      .orderBy('prediction_set_id')
      .execute();
    expect(
      stored.map((row) => [
        row.prediction_set_id,
        [...new Float32Array(new Uint8Array(row.vector).buffer)],
      ]),
    ).toEqual([
      ['', [1, 2, 3]],
      [setId, [9, 9]],
    ]);
  });

  it('are checked like dataset features: rows, dimension, level and the model', async () => {
    const { id, setId } = await pets();
    const params = { id, predictionSetId: setId };
    const upload = (body: FeatureUploadRequest) =>
      admin.call(api.features.uploadForPredictionSet, { params, body });
    await upload({ name: 'emb', data_level: 'image', vectors: { a: [1, 2] } });
    const unknown = await refused(
      upload({ name: 'emb', data_level: 'image', vectors: { zz: [1, 2] } }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ errors: [{ row: 0, id: 'zz', field: 'id' }] });
    const wider = await refused(upload({ name: 'emb', data_level: 'image', vectors: { b: [1] } }));
    expect(wider.status).toBe(409);
    const level = await refused(upload({ name: 'x', data_level: 'audio', vectors: { a: [1] } }));
    expect(level.description).toMatch(/has no audio level/);
    const other = await createDataset(admin, { name: 'Other', task_type: 'classification' });
    const elsewhere = await refused(
      admin.call(api.features.listForPredictionSet, {
        params: { id: other.id, predictionSetId: setId },
      }),
    );
    expect(elsewhere.status).toBe(404);
  });
});

describe('the prediction features migration', () => {
  it("keeps the features stored before it as the dataset's, and back down", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'loupe-migrate-'));
    const { database: config, drop } = await freshDatabaseConfig(dataDir);
    const database = openDatabase(config);
    try {
      const { error } = await migrator(database).migrateTo('20261127090000_performance');
      expect(error).toBeUndefined();
      const db = database.db.withTables<{
        features: Record<string, unknown>;
        feature_vectors: Record<string, unknown>;
      }>();
      await db
        .insertInto('datasets')
        .values({
          id: 'd1',
          name: 'Old',
          description: '',
          task_type: 'classification',
          class_names: '[]',
          value_names: '[]',
          iou_threshold: 0.5,
          thumbnails_enabled: 0,
          created_at: 1,
          updated_at: 1,
        } as never)
        .execute();
      const feature = {
        dataset_id: 'd1',
        data_level: 'image',
        name: 'clip',
        dimension: 1,
        source: 'uploaded' as const,
        created_at: 1,
        updated_at: 1,
      };
      const vector = {
        dataset_id: 'd1',
        data_level: 'image',
        feature_name: 'clip',
        item_id: 'a',
        vector: Buffer.from(new Float32Array([5]).buffer),
      };
      await db.insertInto('features').values(feature).execute();
      await db.insertInto('feature_vectors').values(vector).execute();

      await migrateToLatest(database);
      expect(await database.db.selectFrom('features').selectAll().execute()).toEqual([
        { ...feature, prediction_set_id: '' },
      ]);
      const vectors = await database.db.selectFrom('feature_vectors').selectAll().execute();
      expect(vectors.map((v) => [v.prediction_set_id, v.item_id])).toEqual([['', 'a']]);
      // A model's feature of the same name fits beside it now.
      await database.db
        .insertInto('features')
        .values({ ...feature, prediction_set_id: 'p1' })
        .execute();

      const down = await migrator(database).migrateTo('20261127090000_performance');
      expect(down.error).toBeUndefined();
      expect(await db.selectFrom('features').selectAll().execute()).toEqual([feature]);
      expect(await db.selectFrom('feature_vectors').select('item_id').execute()).toEqual([
        { item_id: 'a' },
      ]);
    } finally {
      await database.destroy();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

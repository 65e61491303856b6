// Features through the API: vectors as JSON or base64 float32, presence, and refusals.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../testing/test-app.js';
import { startLicensedApp, type TestApp } from '../testing/test-app.js';
import { createDataset as createDatasetAs } from '../testing/datasets.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

const createDataset = (body: Record<string, unknown>) => createDatasetAs(admin, body);

describe('features', () => {
  it('stores features as JSON or base64 float32 and reports presence', async () => {
    const { id } = await createDataset({ name: 'Pets', task_type: 'classification' });
    await admin.post(`/api/datasets/${id}/samples`, {
      samples: [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
    });
    const json = await admin.post(`/api/datasets/${id}/features`, {
      name: 'clip',
      data_level: 'image',
      vectors: { a: [1, 2, 3], b: [4, 5, 6] },
    });
    expect(json.json()).toMatchObject({ name: 'clip', size: 3, num_present: 2, num_missing: 1 });
    const data = Buffer.from(new Float32Array([7, 8, 9]).buffer).toString('base64');
    await admin.post(`/api/datasets/${id}/features`, {
      name: 'clip',
      data_level: 'image',
      ids: ['c'],
      data,
      dimension: 3,
    });
    expect((await admin.get(`/api/datasets/${id}/features`)).json()[0]).toMatchObject({
      num_present: 3,
      num_missing: 0,
    });
    const stored = await t.database.db
      .selectFrom('feature_vectors')
      .select('vector')
      .where('item_id', '=', 'c')
      .executeTakeFirstOrThrow();
    expect([...new Float32Array(new Uint8Array(stored.vector).buffer)]).toEqual([7, 8, 9]);

    const wrong = await admin.post(`/api/datasets/${id}/features`, {
      name: 'clip',
      data_level: 'image',
      vectors: { a: [1, 2] },
    });
    expect(wrong.statusCode).toBe(409);
    const unknown = await admin.post(`/api/datasets/${id}/features`, {
      name: 'other',
      data_level: 'image',
      vectors: { zz: [1] },
    });
    expect(unknown.json().errors[0]).toMatchObject({ row: 0, id: 'zz', field: 'id' });
    const level = await admin.post(`/api/datasets/${id}/features`, {
      name: 'other',
      data_level: 'audio',
      vectors: { a: [1] },
    });
    expect(level.json().description).toMatch(/has no audio level/);
  });
});

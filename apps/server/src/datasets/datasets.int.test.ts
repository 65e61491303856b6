// Datasets through the API: the license gate, create, list, read, validation, delete.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../testing/test-app.js';
import {
  addUser,
  setUpInstance,
  startLicensedApp,
  startTestApp,
  type TestApp,
} from '../testing/test-app.js';
import { createDataset as createDatasetAs } from '../testing/datasets.js';
import { testImage } from '../testing/media.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

const createDataset = (body: Record<string, unknown>) => createDatasetAs(admin, body);

describe('datasets', () => {
  it('needs a license to create, with the product’s message', async () => {
    const fresh = await startTestApp();
    try {
      const client = await setUpInstance(fresh.app);
      const response = await client.post('/api/datasets', {
        name: 'x',
        task_type: 'classification',
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().description).toBe(
        'Please set up your license key in Settings to add datasets. To evaluate Loupe for 30 days, run `npm run license -- evaluate` where the server runs.',
      );
    } finally {
      await fresh.close();
    }
  });

  it('creates, lists, reads and refuses a duplicate name', async () => {
    const dataset = await createDataset({
      name: 'Pets',
      task_type: 'classification',
      class_names: ['cat', 'dog'],
      description: 'Cats and dogs',
    });
    const list = (await admin.get('/api/datasets')).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: dataset.id,
      name: 'Pets',
      task_type: 'classification',
      classes_count: 2,
      samples_count: 0,
      predictions_count: 0,
      objects_count: 0,
      description: 'Cats and dogs',
    });
    expect((await admin.get(`/api/dataset?dataset_id=${dataset.id}`)).json().name).toBe('Pets');
    const again = await admin.post('/api/datasets', { name: 'Pets', task_type: 'classification' });
    expect(again.statusCode).toBe(409);
    expect(again.json().description).toBe("A dataset named 'Pets' already exists.");
    const existOk = await admin.post('/api/datasets', {
      name: 'Pets',
      task_type: 'classification',
      exist_ok: true,
    });
    expect(existOk.statusCode).toBe(200);
    expect(existOk.json().id).toBe(dataset.id);
  });

  it('validates the request', async () => {
    const cases: [unknown, string][] = [
      [{ name: '', task_type: 'classification' }, 'body.name: Name is required.'],
      [{ name: 'x', task_type: 'painting' }, 'body.task_type: Invalid option'],
      [
        { name: 'x', task_type: 'regression' },
        'body.value_names: a regression dataset needs at least one value name.',
      ],
      [
        { name: 'x', task_type: 'classification', class_names: ['a', 'a'] },
        'body.class_names: class names must be unique.',
      ],
    ];
    for (const [body, description] of cases) {
      const response = await admin.post('/api/datasets', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().description).toContain(description);
    }
    expect(
      (await admin.get('/api/dataset?dataset_id=00000000-0000-4000-8000-000000000000')).statusCode,
    ).toBe(404);
    expect((await admin.get('/api/dataset?dataset_id=nope')).statusCode).toBe(400);
  });

  it('lets a member upload, and deletes a dataset with its files', async () => {
    const { client: ben } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const created = await ben.post('/api/datasets', { name: 'Ben’s', task_type: 'classification' });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    const key = (
      await ben.call({
        method: 'POST',
        url: `/api/datasets/${id}/media`,
        body: (await testImage(5)).bytes,
        headers: { 'content-type': 'image/png' },
      })
    ).json().key;
    await ben.post(`/api/datasets/${id}/samples`, { samples: [{ id: 'x', image: key }] });
    await t.runner.drain();
    expect((await ben.call({ method: 'DELETE', url: `/api/datasets/${id}` })).statusCode).toBe(200);
    expect((await ben.get(`/api/datasets/${id}`)).statusCode).toBe(404);
    expect(await t.services.blobs.head(`datasets/${id}/media/${key.slice(5)}`)).toBeUndefined();
    expect(await t.database.db.selectFrom('samples').selectAll().execute()).toEqual([]);
  });
});

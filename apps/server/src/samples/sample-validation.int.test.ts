// Upload rows through the API: reserved metadata names are exact, and keys no field reads are
// refused with their row and field instead of being dropped.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client, TestApp } from '../testing/test-app.js';
import { startLicensedApp } from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

async function createDataset(body: Record<string, unknown>): Promise<string> {
  const response = await admin.post('/api/datasets', body);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

describe('sample metadata names', () => {
  it('takes names that only start like a reserved one, and refuses every reserved one', async () => {
    const id = await createDataset({ name: 'Pets', task_type: 'classification' });
    const free = await admin.post(`/api/datasets/${id}/samples`, {
      samples: [{ id: 'a', label: 'cat', metadata: { labeler: 'ann', idx: 3, ideal: true } }],
    });
    expect(free.statusCode, free.body).toBe(200);
    const fields = (await t.database.db.selectFrom('metadata_fields').select('name').execute())
      .map((row) => row.name)
      .sort();
    expect(fields).toEqual(expect.arrayContaining(['ideal', 'idx', 'labeler']));

    const reserved = ['id', 'split', 'label', 'labels', 'card_index', 'image.width', 'check.blur'];
    const refused = await admin.post(`/api/datasets/${id}/samples`, {
      samples: reserved.map((key, i) => ({ id: `r${i}`, metadata: { [key]: 1 } })),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual(
      reserved.map((key, i) => ({
        row: i,
        id: `r${i}`,
        field: `metadata.${key}`,
        message: `'${key}' is a reserved name: choose another key`,
      })),
    );
  });
});

describe('unknown keys', () => {
  it('refuses a sample batch with a misspelt key, naming row, field and the key meant', async () => {
    const id = await createDataset({ name: 'Pets', task_type: 'classification' });
    const response = await admin.post(`/api/datasets/${id}/samples`, {
      samples: [
        { id: 'a', label: 'cat', split: 'train' },
        { id: 'b', lable: 'dog', split: 'train' },
      ],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      {
        row: 1,
        id: 'b',
        field: 'lable',
        message: `unknown key 'lable': did you mean 'label'? Values of your own go in metadata: {"metadata": {"lable": …}}.`,
      },
    ]);
    expect(await t.database.db.selectFrom('samples').selectAll().execute()).toEqual([]);
  });

  it('refuses misspelt keys in objects and in predictions', async () => {
    const id = await createDataset({ name: 'Street', task_type: 'object_detection' });
    const objects = await admin.post(`/api/datasets/${id}/samples`, {
      samples: [{ id: 'a', objects: [{ label: 'car', bbox: [0, 0, 4, 4], iscorwd: true }] }],
    });
    expect(objects.statusCode).toBe(400);
    expect(objects.json().errors).toEqual([
      expect.objectContaining({ row: 0, id: 'a', field: 'objects.0.iscorwd' }),
    ]);

    const stored = await admin.post(`/api/datasets/${id}/samples`, {
      samples: [{ id: 'a', objects: [{ label: 'car', bbox: [0, 0, 4, 4] }] }],
    });
    expect(stored.statusCode, stored.body).toBe(200);
    const set = (await admin.post(`/api/datasets/${id}/predictions`, { name: 'yolo' })).json();
    const predictions = await admin.post(`/api/datasets/${id}/predictions/${set.id}/items`, {
      predictions: [{ id: 'a', objects: [{ label: 'car', bbox: [0, 0, 4, 4], scroe: 0.9 }] }],
    });
    expect(predictions.statusCode).toBe(400);
    expect(predictions.json().errors).toEqual([
      {
        row: 0,
        id: 'a',
        field: 'objects.0.scroe',
        message:
          "unknown key 'scroe': did you mean 'score'? A predicted object takes id, label, bbox, segmentation, iscrowd and score.",
      },
      // The misspelt key leaves the object without the score it needs.
      { row: 0, id: 'a', field: 'objects.0.score', message: 'Required' },
    ]);
  });
});

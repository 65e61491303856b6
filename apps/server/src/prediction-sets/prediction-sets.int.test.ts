// Prediction sets through the API: created per dataset, predictions uploaded idempotently and
// counted exactly when batches arrive at once, predicted masks checked like sample masks, and
// attributions checked row by row.
import { api, type BatchErrorBody } from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../testing/test-app.js';
import { refused, startLicensedApp, type TestApp } from '../testing/test-app.js';
import { createDataset as createDatasetAs, uploadMedia } from '../testing/datasets.js';
import { testImage } from '../testing/media.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

const createDataset = (body: Record<string, unknown>) => createDatasetAs(admin, body);

describe('prediction sets, predictions', () => {
  it('counts every prediction when batches are sent at once', async () => {
    const { id } = await createDataset({
      name: 'Busy',
      task_type: 'classification',
      class_names: ['cat', 'dog'],
    });
    const ids = Array.from({ length: 200 }, (_, i) => `s${i}`);
    const samples = ids.map((sample) => ({ id: sample, label: 'cat' }));
    expect((await admin.post(`/api/datasets/${id}/samples`, { samples })).statusCode).toBe(200);
    const set = (await admin.post(`/api/datasets/${id}/predictions`, { name: 'resnet' })).json();
    const url = `/api/datasets/${id}/predictions/${set.id}/items`;
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, b) =>
        admin.post(url, {
          predictions: ids.slice(b * 40, b * 40 + 40).map((sample) => ({
            id: sample,
            label: 'dog',
            score: 0.7,
          })),
        }),
      ),
    );
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const models = (await admin.get(`/api/dataset/models?dataset_id=${id}`)).json();
    expect(models[0]).toMatchObject({ num_present: 200, num_missing: 0 });
  });

  it('creates prediction sets and uploads predictions idempotently', async () => {
    const { id } = await createDataset({
      name: 'Pets',
      task_type: 'classification',
      class_names: ['cat', 'dog'],
    });
    await admin.post(`/api/datasets/${id}/samples`, {
      samples: [
        { id: 'a', label: 'cat' },
        { id: 'b', label: 'dog' },
        { id: 'c', label: 'dog' },
      ],
    });
    const created = await admin.post(`/api/datasets/${id}/predictions`, { name: 'resnet' });
    expect(created.statusCode).toBe(201);
    const set = created.json();
    const predictions = [
      { id: 'a', label: 'cat', score: 0.9, probabilities: [0.9, 0.1] },
      { id: 'b', label: 'cat', score: 0.6, probabilities: { cat: 0.6, dog: 0.4 } },
    ];
    const url = `/api/datasets/${id}/predictions/${set.id}/items`;
    expect((await admin.post(url, { predictions })).json()).toEqual({
      created: 2,
      updated: 0,
      unchanged: 0,
    });
    expect((await admin.post(url, { predictions })).json()).toEqual({
      created: 0,
      updated: 2,
      unchanged: 0,
    });
    const models = (await admin.get(`/api/dataset/models?dataset_id=${id}`)).json();
    expect(models).toEqual([
      expect.objectContaining({
        name: 'resnet',
        num_present: 2,
        num_missing: 1,
        dataset: { id, name: 'Pets', task_type: 'classification' },
      }),
    ]);
    expect((await admin.get('/api/models')).json()).toHaveLength(1);
    expect((await admin.get(`/api/datasets/${id}`)).json().predictions_count).toBe(1);

    const bad = await admin.post(url, {
      predictions: [
        { id: 'zz', label: 'cat' },
        { id: 'a', label: 'cow' },
        { id: 'c', probabilities: [1] },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
      [0, 'id'],
      [1, 'label'],
      [2, 'probabilities'],
    ]);
    expect(
      (await admin.post(`/api/datasets/${id}/predictions`, { name: 'resnet' })).statusCode,
    ).toBe(409);

    const attributions = await admin.post(
      `/api/datasets/${id}/predictions/${set.id}/attributions`,
      {
        name: 'gradcam',
        attributions: [
          {
            id: 'a',
            heatmap: [
              [0, 1],
              [1, 0],
            ],
          },
        ],
      },
    );
    expect(attributions.json()).toEqual({ uploaded: 1 });
  });

  it('checks attribution rows like other rows: every bad row named, nothing written', async () => {
    const { id } = await createDataset({
      name: 'Heat',
      task_type: 'classification',
      class_names: ['cat', 'dog'],
    });
    await admin.post(`/api/datasets/${id}/samples`, { samples: [{ id: 'a', label: 'cat' }] });
    const set = (await admin.post(`/api/datasets/${id}/predictions`, { name: 'resnet' })).json();
    const url = `/api/datasets/${id}/predictions/${set.id}/attributions`;
    const bad = await admin.post(url, {
      attributions: [
        { id: 'a', heatmap: [[0, 1]] },
        { id: 'a', heatmap: 5 },
        { id: 'zz', heatmap: [[1]] },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().description).toMatch(/^The batch was rejected and nothing was written/);
    expect(bad.json().errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
      [1, 'heatmap'],
    ]);
    // Rows that pass their own checks are still refused whole for an unknown sample.
    const unknown = await admin.post(url, {
      attributions: [
        { id: 'a', heatmap: [[0, 1]] },
        { id: 'zz', heatmap: [[1]] },
      ],
    });
    expect(unknown.json().errors).toEqual([
      { row: 1, id: 'zz', field: 'id', message: "no sample with id 'zz' in this dataset" },
    ]);
    const stored = await t.database.db.selectFrom('attributions').selectAll().execute();
    expect(stored).toEqual([]);
  });
});

describe('predicted masks', () => {
  /** A semantic segmentation dataset with samples a, b and c (images of its own), and a prediction set. */
  async function segmentation(name: string, seed: number) {
    const { id } = await createDataset({
      name,
      task_type: 'semantic_segmentation',
      class_names: ['background', 'cat'],
    });
    const image = await uploadMedia(admin, id, (await testImage(seed)).bytes, 'image/png');
    await admin.call(api.samples.upload, {
      params: { id },
      body: { samples: ['a', 'b', 'c'].map((sample) => ({ id: sample, image })) },
    });
    const set = await admin.call(api.predictionSets.create, { params: { id }, body: { name } });
    return { id, setId: set.id, image };
  }

  it('name media of their own dataset; another dataset’s or a missing blob is a row error', async () => {
    const mine = await segmentation('Mine', 1);
    const other = await segmentation('Other', 2);
    const predicted = await uploadMedia(admin, mine.id, (await testImage(3)).bytes, 'image/png');
    const params = { id: mine.id, predictionSetId: mine.setId };
    const missing = `blob:${'0'.repeat(64)}`;

    const error = await refused(
      admin.call(api.predictionSets.uploadPredictions, {
        params,
        body: {
          predictions: [
            { id: 'a', mask: predicted },
            { id: 'b', mask: other.image },
            { id: 'c', mask: missing },
          ],
        },
      }),
    );
    expect(error.status).toBe(400);
    const notHere =
      'was not uploaded to this dataset: upload it with POST /api/datasets/{id}/media first';
    expect((error.body as BatchErrorBody).errors).toEqual([
      { row: 1, id: 'b', field: 'mask', message: `${other.image} ${notHere}` },
      { row: 2, id: 'c', field: 'mask', message: `${missing} ${notHere}` },
    ]);
    expect(await t.database.db.selectFrom('predictions').selectAll().execute()).toEqual([]);

    // Masks uploaded to this dataset land.
    expect(
      await admin.call(api.predictionSets.uploadPredictions, {
        params,
        body: {
          predictions: [
            { id: 'a', mask: predicted },
            { id: 'b', mask: mine.image },
          ],
        },
      }),
    ).toEqual({ created: 2, updated: 0, unchanged: 0 });
  });

  it('are refused on a task without masks', async () => {
    const { id } = await createDataset({
      name: 'Pets',
      task_type: 'classification',
      class_names: ['cat', 'dog'],
    });
    const mask = await uploadMedia(admin, id, (await testImage(4)).bytes, 'image/png');
    await admin.call(api.samples.upload, {
      params: { id },
      body: { samples: [{ id: 'a', label: 'cat' }] },
    });
    const set = await admin.call(api.predictionSets.create, {
      params: { id },
      body: { name: 'r' },
    });
    const error = await refused(
      admin.call(api.predictionSets.uploadPredictions, {
        params: { id, predictionSetId: set.id },
        body: { predictions: [{ id: 'a', label: 'cat', mask }] },
      }),
    );
    expect((error.body as BatchErrorBody).errors).toEqual([
      {
        row: 0,
        id: 'a',
        field: 'mask',
        message: 'only semantic segmentation predictions take a mask',
      },
    ]);
  });
});

// Uploading samples: idempotent by id, whole batches, one after the other, objects and classes.
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

describe('uploading samples', () => {
  it('is idempotent by id, counts created/updated/unchanged, and records history once', async () => {
    const { id } = await createDataset({
      name: 'Pets',
      task_type: 'classification',
      class_names: ['cat', 'dog'],
    });
    const batch = [
      {
        id: 'a.png',
        label: 'cat',
        split: 'train',
        metadata: { weather: 'sunny', hour: 9, night: false },
      },
      {
        id: 'b.png',
        label: 'dog',
        split: 'test',
        metadata: { weather: 'rain', hour: 22, night: true },
      },
    ];
    expect((await admin.post(`/api/datasets/${id}/samples`, { samples: batch })).json()).toEqual({
      created: 2,
      updated: 0,
      unchanged: 0,
    });
    expect((await admin.post(`/api/datasets/${id}/samples`, { samples: batch })).json()).toEqual({
      created: 0,
      updated: 0,
      unchanged: 2,
    });
    const changed = [
      { ...batch[0], label: 'dog' },
      batch[1],
      { id: 'c.png', label: 'cat', split: 'train' },
    ];
    expect((await admin.post(`/api/datasets/${id}/samples`, { samples: changed })).json()).toEqual({
      created: 1,
      updated: 1,
      unchanged: 1,
    });

    const dataset = (await admin.get(`/api/datasets/${id}`)).json();
    expect(dataset.samples_count).toBe(3);
    expect(dataset.splits).toEqual(['test', 'train']);
    const history = (await admin.get(`/api/datasets/${id}/history`)).json();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      operation_type: 'sample:create',
      num_items: 3,
      data_level: 'image',
      user_name: 'Ana Admin',
    });
  });

  it('stores batches sent at once one after the other, each whole, with dense card indexes', async () => {
    const { id } = await createDataset({ name: 'Busy', task_type: 'classification' });
    const batches = Array.from({ length: 6 }, (_, b) =>
      Array.from({ length: 50 }, (_, i) => ({ id: `b${b}-${i}`, label: 'cat' })),
    );
    // Two batches also carry the same new sample: one creates it, the other finds it.
    batches[1]!.push({ id: 'shared', label: 'cat' });
    batches[4]!.push({ id: 'shared', label: 'dog' });
    const responses = await Promise.all(
      batches.map((samples) => admin.post(`/api/datasets/${id}/samples`, { samples })),
    );
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const results = responses.map((response) => response.json());
    expect(results.reduce((n, r) => n + r.created, 0)).toBe(301);
    expect(results.reduce((n, r) => n + r.updated, 0)).toBe(1);

    const rows = await t.database.db
      .selectFrom('samples')
      .select(['id', 'seq'])
      .where('dataset_id', '=', id)
      .orderBy('seq')
      .execute();
    expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 301 }, (_, i) => i));
    // Each batch's new samples hold consecutive card indexes: no batch landed inside another.
    for (const [b, samples] of batches.entries()) {
      const created = results[b].created as number;
      const sent = new Set(samples.map((sample) => sample.id));
      const seqs = rows
        .filter((row) => sent.has(row.id) && (row.id !== 'shared' || created === 51))
        .map((row) => row.seq);
      expect(seqs).toHaveLength(created);
      expect(Math.max(...seqs) - Math.min(...seqs)).toBe(created - 1);
    }
    const dataset = (await admin.get(`/api/datasets/${id}`)).json();
    expect(dataset.samples_count).toBe(301);
    const history = (await admin.get(`/api/datasets/${id}/history`)).json();
    expect(history.map((record: { num_items: number }) => record.num_items)).toEqual([301]);
  });

  it('refuses the later of two batches sent at once that give a new field different types', async () => {
    const { id } = await createDataset({ name: 'Typed', task_type: 'classification' });
    const [numbers, words] = await Promise.all([
      admin.post(`/api/datasets/${id}/samples`, {
        samples: [{ id: 'a', metadata: { hour: 9 } }],
      }),
      admin.post(`/api/datasets/${id}/samples`, {
        samples: [{ id: 'b', metadata: { hour: 'nine' } }],
      }),
    ]);
    expect([numbers!.statusCode, words!.statusCode].sort()).toEqual([200, 400]);
    const refused = numbers!.statusCode === 400 ? numbers! : words!;
    expect(refused.json().errors).toEqual([
      expect.objectContaining({ row: 0, field: 'metadata.hour' }),
    ]);
    const field = await t.database.db
      .selectFrom('metadata_fields')
      .select('type')
      .where('dataset_id', '=', id)
      .where('id', '=', 'hour')
      .executeTakeFirstOrThrow();
    expect(field.type).toBe(refused === words ? 'numeric' : 'string');
    expect((await admin.get(`/api/datasets/${id}`)).json().samples_count).toBe(1);
  });

  it('rejects a batch with bad rows whole, naming row and field', async () => {
    const { id } = await createDataset({
      name: 'Pets',
      task_type: 'classification',
      class_names: ['cat', 'dog'],
    });
    await admin.post(`/api/datasets/${id}/samples`, {
      samples: [{ id: 'x', label: 'cat', metadata: { hour: 3 } }],
    });
    const response = await admin.post(`/api/datasets/${id}/samples`, {
      samples: [
        { id: 'ok', label: 'cat' },
        { id: 'bad-label', label: 'cow' },
        { label: 'cat' },
        { id: 'bad-meta', label: 'dog', metadata: { hour: 'three' } },
        { id: 'ok', label: 'dog' },
        { id: 'audio', audio: 'blob:' + 'f'.repeat(64) },
        { id: 'path', image: '/etc/passwd' },
      ],
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.description).toMatch(
      /^The batch was rejected and nothing was written: \d+ problems; first: row 1 \(id bad-label\), label: 'cow' is not one of the dataset's class names$/,
    );
    expect(body.errors).toEqual(
      expect.arrayContaining([
        {
          row: 1,
          id: 'bad-label',
          field: 'label',
          message: "'cow' is not one of the dataset's class names",
        },
        { row: 2, field: 'id', message: 'Required' },
        {
          row: 3,
          id: 'bad-meta',
          field: 'metadata.hour',
          message: 'expected a numeric value (the field is numeric), got "three"',
        },
        { row: 4, id: 'ok', field: 'id', message: 'duplicate of row 0 in this batch' },
        expect.objectContaining({
          row: 5,
          field: 'audio',
          message: 'a classification dataset takes image, not audio',
        }),
        expect.objectContaining({
          row: 6,
          field: 'image',
          message: expect.stringContaining("the server may not read '/etc/passwd'"),
        }),
      ]),
    );
    expect((await admin.get(`/api/datasets/${id}`)).json().samples_count).toBe(1);
  });

  it('learns classes when none were declared', async () => {
    const { id } = await createDataset({ name: 'Open', task_type: 'audio_classification' });
    await admin.post(`/api/datasets/${id}/samples`, {
      samples: [
        { id: 'a', label: 'bird' },
        { id: 'b', label: 'frog' },
      ],
    });
    expect((await admin.get(`/api/datasets/${id}`)).json().class_names).toEqual(['bird', 'frog']);
  });

  it('keeps objects with derived ids, replaces them on re-upload, and counts them', async () => {
    const { id } = await createDataset({ name: 'Boxes', task_type: 'object_detection' });
    const samples = [
      {
        id: 's1',
        objects: [
          { label: 'cat', bbox: [0, 0, 10, 10] },
          { label: 'dog', segmentation: [[0, 0, 4, 0, 4, 6]] },
        ],
      },
      { id: 's2', objects: [{ id: 'mine', label: 'cat', bbox: [1, 1, 2, 2] }] },
    ];
    await admin.post(`/api/datasets/${id}/samples`, { samples });
    expect((await admin.get(`/api/datasets/${id}`)).json()).toMatchObject({
      objects_count: 3,
      class_names: ['cat', 'dog'],
    });
    const objects = await t.database.db
      .selectFrom('objects')
      .select(['id', 'sample_id', 'x', 'y', 'w', 'h'])
      .orderBy('id')
      .execute();
    expect(objects).toEqual([
      { id: 's1#0', sample_id: 's1', x: 0, y: 0, w: 10, h: 10 },
      { id: 's1#1', sample_id: 's1', x: 0, y: 0, w: 4, h: 6 },
      { id: 's2#mine', sample_id: 's2', x: 1, y: 1, w: 2, h: 2 },
    ]);
    await admin.post(`/api/datasets/${id}/samples`, {
      samples: [{ id: 's1', objects: [{ label: 'cat', bbox: [5, 5, 1, 1] }] }],
    });
    expect((await admin.get(`/api/datasets/${id}`)).json().objects_count).toBe(2);
    const bad = await admin.post(`/api/datasets/${id}/samples`, {
      samples: [{ id: 's3', objects: [{ label: 'cat' }] }],
    });
    expect(bad.json().errors[0]).toMatchObject({ row: 0, field: 'objects.0.bbox' });
    // The same object id in two samples is fine: stored ids are derived from the sample id.
    const same = await admin.post(`/api/datasets/${id}/samples`, {
      samples: [
        { id: 's4', objects: [{ id: '0', label: 'cat', bbox: [0, 0, 1, 1] }] },
        { id: 's5', objects: [{ id: '0', label: 'cat', bbox: [0, 0, 1, 1] }] },
      ],
    });
    expect(same.statusCode).toBe(200);
    const twice = await admin.post(`/api/datasets/${id}/samples`, {
      samples: [
        {
          id: 's6',
          objects: [
            { id: 'x', label: 'cat', bbox: [0, 0, 1, 1] },
            { id: 'x', label: 'dog', bbox: [0, 0, 1, 1] },
          ],
        },
      ],
    });
    expect(twice.json().errors[0]).toMatchObject({
      row: 0,
      field: 'objects.1.id',
      message: "duplicate object id 'x' in this sample",
    });
  });
});

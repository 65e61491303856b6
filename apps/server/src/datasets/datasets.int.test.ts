import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OnnxEmbedder } from '../processing/onnx-embedder.js';
import type { Client } from '../testing/test-app.js';
import {
  addUser,
  setUpInstance,
  startLicensedApp,
  startTestApp,
  type TestApp,
} from '../testing/test-app.js';
import { testClip, testImage } from '../testing/media.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

async function createDataset(body: Record<string, unknown>) {
  const response = await admin.post('/api/datasets', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; name: string };
}

async function uploadMedia(datasetId: string, bytes: Buffer, type: string): Promise<string> {
  const response = await admin.call({
    method: 'POST',
    url: `/api/datasets/${datasetId}/media`,
    body: bytes,
    headers: { 'content-type': type },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().key;
}

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
});

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

describe('media, thumbnails and computed metadata', () => {
  it('stores uploaded images once, serves them with ranges, and computes thumbnails, metadata and a default feature', async () => {
    const { id } = await createDataset({ name: 'Pics', task_type: 'object_detection' });
    // A 64×48 PNG is small enough to be its own thumbnail; an 800×600 JPEG gets a WebP one.
    const images = await Promise.all([testImage(1), testImage(2, 'jpeg', 800, 600)]);
    const keys = [
      await uploadMedia(id, images[0]!.bytes, 'image/png'),
      await uploadMedia(id, images[1]!.bytes, 'image/jpeg'),
    ];
    expect(await uploadMedia(id, images[0]!.bytes, 'image/png')).toBe(keys[0]);
    const recorded = await t.database.db
      .selectFrom('media_blobs')
      .select('key')
      .where('dataset_id', '=', id)
      .execute();
    expect(recorded.map((row) => `blob:${row.key}`).sort()).toEqual([...keys].sort());
    expect(
      (
        await admin.post(`/api/datasets/${id}/media/missing`, {
          keys: [keys[0], 'blob:' + '0'.repeat(64)],
        })
      ).json(),
    ).toEqual({ missing: ['blob:' + '0'.repeat(64)] });

    const corrupt = await uploadMedia(id, Buffer.from('not an image at all'), 'image/png');
    await admin.post(`/api/datasets/${id}/samples`, {
      samples: [
        {
          id: 'one',
          image: keys[0],
          objects: images[0]!.objects.map((o) => ({ label: o.label, bbox: o.bbox })),
        },
        {
          id: 'two',
          image: keys[1],
          objects: images[1]!.objects.map((o) => ({ label: o.label, bbox: o.bbox })),
        },
        { id: 'broken', image: corrupt },
      ],
    });
    // One pass makes metadata, the default feature and the thumbnails.
    const pending = (await admin.get('/api/activities?scope=my')).json();
    expect(
      pending.map((a: { job_type: string; status: string }) => [a.job_type, a.status]),
    ).toEqual([['MetadataAndFeaturesComputation', 'PENDING']]);

    expect(await t.runner.drain()).toBe(1);
    const done = (await admin.get('/api/activities?scope=all')).json();
    expect(done.every((a: { status: string }) => a.status === 'SUCCESS')).toBe(true);
    expect(done[0]).toMatchObject({
      type: 'Job',
      dataset_id: id,
      dataset_name: 'Pics',
      progress: 1,
    });

    const dataset = (await admin.get(`/api/datasets/${id}`)).json();
    expect(dataset.preview_urls).toEqual([
      `/api/datasets/${id}/media/${keys[0]!.slice('blob:'.length)}`,
      expect.stringMatching(
        new RegExp(`^/api/datasets/${id}/thumbnails/[0-9a-f]{40}\\?size=grid$`),
      ),
    ]);
    const own = await admin.get(dataset.preview_urls[0]);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.rawPayload).toEqual(images[0]!.bytes);
    const thumb = await admin.get(dataset.preview_urls[1]);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ width: 512, height: 384 });
    // The corrupt file has no thumbnail at all.
    const thumbnails = await t.database.db
      .selectFrom('samples')
      .select(['id', 'thumbnail'])
      .orderBy('seq')
      .execute();
    expect(thumbnails.map((row) => [row.id, row.thumbnail])).toEqual([
      ['one', 'original'],
      ['two', expect.stringMatching(/^[0-9a-f]{40}$/)],
      ['broken', null],
    ]);

    const media = await admin.call({
      method: 'GET',
      url: `/api/datasets/${id}/samples/media?sample_id=one`,
      headers: { range: 'bytes=0-7' },
    });
    expect(media.statusCode).toBe(206);
    expect(media.headers['content-range']).toBe(`bytes 0-7/${images[0]!.bytes.length}`);
    expect(media.rawPayload).toEqual(images[0]!.bytes.subarray(0, 8));

    const rows = await t.database.db
      .selectFrom('samples')
      .select(['id', 'computed', 'processed'])
      .orderBy('seq')
      .execute();
    const computed = Object.fromEntries(rows.map((row) => [row.id, JSON.parse(row.computed!)]));
    expect(computed.one).toMatchObject({
      'image.width': 64,
      'image.height': 48,
      'image.format': 'png',
      'image.corrupt': false,
      'image.object_count': images[0]!.objects.length,
    });
    expect(computed.one['image.phash']).toMatch(/^[0-9a-f]{16}$/);
    expect(computed.two).toMatchObject({ 'image.format': 'jpeg', 'image.width': 800 });
    expect(computed.broken).toMatchObject({ 'image.corrupt': true });
    expect(rows.every((row) => row.processed === 1)).toBe(true);

    const objects = await t.database.db
      .selectFrom('objects')
      .select(['id', 'w', 'h', 'computed'])
      .where('sample_id', '=', 'one')
      .execute();
    for (const object of objects) {
      const values = JSON.parse(object.computed!);
      expect(values['object.relative_area']).toBeCloseTo(
        Math.min(object.w! * object.h!, 64 * 48) / (64 * 48),
        6,
      );
    }
    const features = (await admin.get(`/api/datasets/${id}/features`)).json();
    expect(features).toEqual([
      expect.objectContaining({
        name: 'loupe.image_descriptor',
        data_level: 'image',
        num_present: 2,
        num_missing: 1,
      }),
    ]);
    const fields = await t.database.db
      .selectFrom('metadata_fields')
      .select(['id', 'state'])
      .where('source', '=', 'computed')
      .execute();
    expect(fields.length).toBeGreaterThan(10);
    expect(fields.every((field) => field.state === 'available')).toBe(true);
  });

  it('computes audio metadata and durations', async () => {
    const { id } = await createDataset({ name: 'Sounds', task_type: 'audio_classification' });
    const key = await uploadMedia(id, testClip(1, 0.5), 'audio/wav');
    const key2 = await uploadMedia(id, testClip(2, 1.25), 'audio/wav');
    await admin.post(`/api/datasets/${id}/samples`, {
      samples: [
        { id: 'a', audio: key, label: 'bird' },
        { id: 'b', audio: key2, label: 'frog' },
      ],
    });
    await t.runner.drain();
    const dataset = (await admin.get(`/api/datasets/${id}`)).json();
    expect(dataset).toMatchObject({
      min_duration: 0.5,
      max_duration: 1.25,
      default_duration: 1.25,
    });
    const row = await t.database.db
      .selectFrom('samples')
      .select('computed')
      .where('id', '=', 'a')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.computed!)).toMatchObject({
      'audio.duration': 0.5,
      'audio.sample_rate': 8000,
      'audio.channels': 1,
    });
    expect((await admin.get(`/api/datasets/${id}/features`)).json()[0]).toMatchObject({
      name: 'loupe.audio_mfcc',
      num_present: 2,
    });
    // Audio items preview as their spectrogram.
    expect(dataset.preview_urls).toHaveLength(2);
    const preview = await admin.get(dataset.preview_urls[0]);
    expect(preview.headers['content-type']).toBe('image/webp');
    const { width, height } = await sharp(preview.rawPayload).metadata();
    expect([width, height]).toEqual([512, 256]);
  });

  it('reads MP3 and FLAC as well as WAV, and flags a broken clip', async () => {
    const { id } = await createDataset({ name: 'Formats', task_type: 'audio_classification' });
    const fixtures = join(import.meta.dirname, '../../test-fixtures/audio');
    const mp3 = await uploadMedia(
      id,
      readFileSync(join(fixtures, 'tone-440hz-1s.mp3')),
      'audio/mpeg',
    );
    const flac = await uploadMedia(
      id,
      readFileSync(join(fixtures, 'tone-440hz-1s.flac')),
      'audio/flac',
    );
    const broken = await uploadMedia(id, Buffer.from('RIFF....WAVEjunk'), 'audio/wav');
    await admin.post(`/api/datasets/${id}/samples`, {
      samples: [
        { id: 'mp3', audio: mp3 },
        { id: 'flac', audio: flac },
        { id: 'broken', audio: broken },
      ],
    });
    await t.runner.drain();
    const rows = await t.database.db.selectFrom('samples').select(['id', 'computed']).execute();
    const computed = Object.fromEntries(rows.map((row) => [row.id, JSON.parse(row.computed!)]));
    expect(computed.flac).toMatchObject({
      'audio.duration': 1,
      'audio.sample_rate': 16000,
      'audio.channels': 1,
      'audio.corrupt': false,
    });
    // MP3 adds encoder delay and padding (at most a couple of frames of 1,152 samples).
    expect(computed.mp3['audio.duration']).toBeGreaterThanOrEqual(1);
    expect(computed.mp3['audio.duration']).toBeLessThan(1.2);
    for (const name of ['mp3', 'flac'])
      expect(computed[name]['audio.spectral_centroid']).toBeCloseTo(440, -1.5);
    expect(computed.broken).toMatchObject({ 'audio.corrupt': true });
  });

  it('measures every sample of an upload larger than one stored batch exactly once', async () => {
    const { id } = await createDataset({ name: 'Many', task_type: 'object_detection' });
    // Samples may share files; 250 samples over 3 files span three stored batches of 100.
    const keys = [
      await uploadMedia(id, (await testImage(11)).bytes, 'image/png'),
      await uploadMedia(id, (await testImage(12, 'png', 80, 40)).bytes, 'image/png'),
      await uploadMedia(id, (await testImage(13, 'jpeg', 700, 350)).bytes, 'image/jpeg'),
    ];
    const samples = Array.from({ length: 250 }, (_, i) => ({
      id: `s${i}`,
      image: keys[i % 3],
      objects: Array.from({ length: i % 4 }, (_, k) => ({
        label: 'cat',
        bbox: [k, k, 10 + k, 5],
      })),
    }));
    expect((await admin.post(`/api/datasets/${id}/samples`, { samples })).statusCode).toBe(200);
    expect(await t.runner.drain()).toBe(1);

    const rows = await t.database.db
      .selectFrom('samples')
      .select(['id', 'computed', 'processed', 'thumbnail'])
      .where('dataset_id', '=', id)
      .execute();
    expect(rows).toHaveLength(250);
    for (const row of rows) {
      const i = Number(row.id.slice(1));
      const computed = JSON.parse(row.computed!);
      expect([row.id, row.processed, computed['image.object_count']]).toEqual([row.id, 1, i % 4]);
      expect(computed['image.width']).toBe([64, 80, 700][i % 3]);
      // The 700 px JPEG gets a WebP; the small files are their own thumbnails.
      expect(row.thumbnail).toEqual(
        i % 3 === 2 ? expect.stringMatching(/^[0-9a-f]{40}$/) : 'original',
      );
    }
    const objects = await t.database.db
      .selectFrom('objects')
      .select(['id', 'computed'])
      .where('dataset_id', '=', id)
      .execute();
    expect(objects).toHaveLength(samples.reduce((n, sample) => n + sample.objects.length, 0));
    for (const object of objects)
      expect(JSON.parse(object.computed!)).toMatchObject({ 'object.label': 'cat' });
    const vectors = await t.database.db
      .selectFrom('feature_vectors')
      .select('item_id')
      .where('dataset_id', '=', id)
      .execute();
    expect(new Set(vectors.map((v) => v.item_id)).size).toBe(250);
    expect(vectors).toHaveLength(250);
    const [activity] = (await admin.get('/api/activities?scope=all')).json();
    expect(activity).toMatchObject({ status: 'SUCCESS', progress: 1 });
  });

  it('disabling thumbnails deletes them, never the files that were their own; enabling makes them again', async () => {
    const { id } = await createDataset({ name: 'Pics', task_type: 'classification' });
    const small = await uploadMedia(id, (await testImage(3)).bytes, 'image/png');
    const large = await uploadMedia(id, (await testImage(4, 'jpeg', 900, 500)).bytes, 'image/jpeg');
    await admin.post(`/api/datasets/${id}/samples`, {
      samples: [
        { id: 'one', image: small, label: 'cat' },
        { id: 'two', image: large, label: 'dog' },
      ],
    });
    await t.runner.drain();
    const urls = (await admin.get(`/api/datasets/${id}`)).json().preview_urls;
    expect(urls).toHaveLength(2);
    for (const url of urls) expect((await admin.get(url)).statusCode).toBe(200);
    expect((await admin.put(`/api/datasets/${id}/thumbnails`, { enabled: false })).json()).toEqual({
      enabled: false,
    });
    expect((await admin.get(`/api/datasets/${id}`)).json().preview_urls).toEqual([]);
    // The WebP is gone; the small file, which was its own thumbnail, is still the sample's media.
    expect((await admin.get(urls[1])).statusCode).toBe(404);
    expect((await admin.get(urls[0])).statusCode).toBe(200);
    expect((await admin.get(`/api/datasets/${id}/samples/media?sample_id=one`)).statusCode).toBe(
      200,
    );
    await admin.put(`/api/datasets/${id}/thumbnails`, { enabled: true });
    await t.runner.drain();
    expect((await admin.get(`/api/datasets/${id}`)).json().preview_urls).toEqual(urls);
    expect((await admin.get(urls[1])).statusCode).toBe(200);
  });
});

describe('features, prediction sets, predictions', () => {
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

describe('an ONNX embedding model', () => {
  it('adds its vectors as a computed feature next to the default descriptor', async () => {
    const model = join(import.meta.dirname, '../../test-fixtures/onnx/tiny-embedder.onnx');
    const { t: withModel, admin: client } = await startLicensedApp({ LOUPE_ONNX_MODEL: model });
    try {
      const { id } = (
        await client.post('/api/datasets', { name: 'Embedded', task_type: 'classification' })
      ).json();
      const images = [await testImage(11), await testImage(12)];
      const keys = [];
      for (const image of images) {
        keys.push(
          (
            await client.call({
              method: 'POST',
              url: `/api/datasets/${id}/media`,
              body: image.bytes,
              headers: { 'content-type': 'image/png' },
            })
          ).json().key,
        );
      }
      await client.post(`/api/datasets/${id}/samples`, {
        samples: keys.map((key, i) => ({ id: `s${i}`, image: key })),
      });
      await withModel.runner.drain();
      const features = (await client.get(`/api/datasets/${id}/features`)).json();
      expect(
        features
          .map((f: { name: string; size: number; num_present: number }) => [
            f.name,
            f.size,
            f.num_present,
          ])
          .sort(),
      ).toEqual([
        ['loupe.image_descriptor', 196, 2],
        ['onnx.tiny-embedder', 8, 2],
      ]);
      // The model averages each normalised channel and mixes the three means with fixed weights:
      // check the stored vector against that, computed here from the same normalised pixels.
      const row = await withModel.database.db
        .selectFrom('feature_vectors')
        .select('vector')
        .where('feature_name', '=', 'onnx.tiny-embedder')
        .where('item_id', '=', 's0')
        .executeTakeFirstOrThrow();
      const stored = new Float32Array(new Uint8Array(row.vector).buffer);
      const { data } = await sharp(images[0]!.bytes)
        .removeAlpha()
        .resize(32, 32, { fit: 'fill' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const mean = [0.485, 0.456, 0.406];
      const std = [0.229, 0.224, 0.225];
      const channel = [0, 1, 2].map((c) => {
        let sum = 0;
        for (let i = 0; i < 32 * 32; i++) sum += (data[i * 3 + c]! / 255 - mean[c]!) / std[c]!;
        return sum / (32 * 32);
      });
      for (let k = 0; k < 8; k++) {
        const expected =
          channel[0]! * (k / 10) + channel[1]! * ((8 + k) / 10) + channel[2]! * ((16 + k) / 10);
        expect(stored[k]).toBeCloseTo(expected, 4);
      }
    } finally {
      await withModel.close();
    }
  });

  it('refuses a model that does not take an image, saying why', async () => {
    await expect(OnnxEmbedder.load('/nonexistent/model.onnx')).rejects.toThrow(
      /LOUPE_ONNX_MODEL: cannot load \/nonexistent\/model\.onnx/,
    );
  });
});

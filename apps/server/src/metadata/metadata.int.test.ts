// The metadata pass: audio metadata in every format, batches larger than one store, and the
// features an ONNX embedding model adds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OnnxEmbedder } from '../processing/onnx-embedder.js';
import type { Client } from '../testing/test-app.js';
import { startLicensedApp, type TestApp } from '../testing/test-app.js';
import {
  createDataset as createDatasetAs,
  uploadMedia as uploadMediaAs,
} from '../testing/datasets.js';
import { testClip, testImage } from '../testing/media.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

const createDataset = (body: Record<string, unknown>) => createDatasetAs(admin, body);
const uploadMedia = (datasetId: string, bytes: Buffer, type: string) =>
  uploadMediaAs(admin, datasetId, bytes, type);

describe('computed metadata', () => {
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
    // One metadata pass, then the health checks it enqueues.
    expect(await t.runner.drain()).toBe(2);

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

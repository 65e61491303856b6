// Media through the API: stored once by content, listed as missing, served with ranges, and
// measured and given thumbnails by the metadata pass that follows an upload.
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../testing/test-app.js';
import { startLicensedApp, type TestApp } from '../testing/test-app.js';
import {
  createDataset as createDatasetAs,
  uploadMedia as uploadMediaAs,
} from '../testing/datasets.js';
import { testImage } from '../testing/media.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

const createDataset = (body: Record<string, unknown>) => createDatasetAs(admin, body);
const uploadMedia = (datasetId: string, bytes: Buffer, type: string) =>
  uploadMediaAs(admin, datasetId, bytes, type);

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

    // The pass, then the health checks it enqueues.
    expect(await t.runner.drain()).toBe(2);
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
});

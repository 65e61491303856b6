// The whole upload → thumbnails → serving path with media in an S3-compatible bucket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMoto, type Moto } from '../testing/moto.js';
import { testImage } from '../testing/media.js';
import { setUpInstance, startTestApp, testLicense, type TestApp } from '../testing/test-app.js';

let moto: Moto;
let t: TestApp;
beforeAll(async () => {
  moto = await startMoto();
  await moto.createBucket('media');
  t = await startTestApp({
    LOUPE_BLOB_STORE: 's3://media/loupe',
    LOUPE_S3_ENDPOINT: moto.endpoint,
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await moto?.stop();
});

describe('datasets on S3', () => {
  it('stores media and thumbnails in the bucket and serves them back', async () => {
    expect(t.services.blobs.kind).toBe('s3');
    const admin = await setUpInstance(t.app);
    await admin.post('/api/settings/license', { key: testLicense() });
    const { id } = (
      await admin.post('/api/datasets', { name: 'On S3', task_type: 'classification' })
    ).json();
    // Large enough to get a WebP thumbnail (smaller uploads are their own).
    const { bytes } = await testImage(7, 'jpeg', 800, 600);
    const { key } = (
      await admin.call({
        method: 'POST',
        url: `/api/datasets/${id}/media`,
        body: bytes,
        headers: { 'content-type': 'image/jpeg' },
      })
    ).json();
    await admin.post(`/api/datasets/${id}/samples`, {
      samples: [{ id: 'one', image: key, label: 'cat' }],
    });
    await t.runner.drain();
    const media = await admin.get(`/api/datasets/${id}/media/${key.slice(5)}`);
    expect(media.statusCode).toBe(200);
    expect(media.rawPayload).toEqual(bytes);
    const dataset = (await admin.get(`/api/datasets/${id}`)).json();
    const thumbnail = await admin.get(dataset.preview_urls[0]);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    expect(await t.services.blobs.head(`datasets/${id}/media/${key.slice(5)}`)).toMatchObject({
      size: bytes.length,
    });
  });
});

// Thumbnails switched off and on again for a dataset.
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

describe('thumbnails', () => {
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

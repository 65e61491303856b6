// Attributions through the API: the overview counts live samples, a heatmap comes back as a PNG
// (numbers on the jet scale, or the uploaded image), the items call names each sample's
// heatmaps, and deleting one (licensed, any role) clears the model's embeddings settings.
import { api } from '@loupe/contracts';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDataset, createDatasetWithModel, uploadMedia } from '../testing/datasets.js';
import { testImage } from '../testing/media.js';
import {
  addUser,
  refused,
  setUpInstance,
  startLicensedApp,
  startTestApp,
  type Client,
  type TestApp,
} from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

/** A classification dataset with samples a, b, c and a model with heatmaps uploaded. */
async function pets(): Promise<{ id: string; setId: string }> {
  const params = await createDatasetWithModel(
    admin,
    { name: 'Pets', task_type: 'classification', class_names: ['cat', 'dog'] },
    ['a', 'b', 'c'].map((sample) => ({ id: sample, label: 'cat' })),
  );
  await admin.call(api.predictionSets.uploadAttributions, {
    params,
    body: {
      name: 'gradcam',
      attributions: [
        {
          id: 'a',
          heatmap: [
            [0, 1],
            [2, 4],
          ],
        },
        { id: 'b', heatmap: [[3]] },
      ],
    },
  });
  await admin.call(api.predictionSets.uploadAttributions, {
    params,
    body: { name: 'saliency', attributions: [{ id: 'c', heatmap: [[1, 2]] }] },
  });
  return { id: params.id, setId: params.predictionSetId };
}

const overview = (id: string, setId: string, data_level?: 'image' | 'image_object') =>
  admin.call(api.attributions.overview, {
    params: { id, predictionSetId: setId },
    query: data_level ? { data_level } : {},
  });

describe('attributions overview', () => {
  it('lists each attribution with the live samples that have it', async () => {
    const { id, setId } = await pets();
    expect(await overview(id, setId)).toEqual({
      attribution_overviews: [
        {
          id: 'image:gradcam',
          name: 'gradcam',
          associated_features: [],
          data_level: 'image',
          num_present: 2,
          num_missing: 1,
        },
        {
          id: 'image:saliency',
          name: 'saliency',
          associated_features: [],
          data_level: 'image',
          num_present: 1,
          num_missing: 2,
        },
      ],
    });
    // A deleted sample's heatmap no longer counts.
    await admin.call(api.curation.applyActions, {
      body: { actions: [{ type: 'delete_items', dataset_id: id, item_ids: ['b'] }] },
    });
    const after = (await overview(id, setId)).attribution_overviews[0]!;
    expect([after.num_present, after.num_missing]).toEqual([1, 1]);
    expect(await overview(id, setId, 'image')).toEqual(await overview(id, setId));
  });

  it("associates the model's own sample-level features with its attributions, both ways", async () => {
    const { id, setId } = await pets();
    const params = { id, predictionSetId: setId };
    // The dataset's feature is not the model's: no association.
    await admin.call(api.features.upload, {
      params: { id },
      body: { name: 'clip', data_level: 'image', vectors: { a: [1, 2] } },
    });
    const associated = async () =>
      (await overview(id, setId)).attribution_overviews.map((a) => a.associated_features);
    expect(await associated()).toEqual([[], []]);
    for (const name of ['embedding', 'penultimate'])
      await admin.call(api.features.uploadForPredictionSet, {
        params,
        body: { name, data_level: 'image', vectors: { a: [1, 0], c: [0, 1] } },
      });
    expect(await associated()).toEqual([
      ['embedding', 'penultimate'],
      ['embedding', 'penultimate'],
    ]);
    const features = await admin.call(api.features.listForPredictionSet, { params });
    expect(features.predictions_features.map((f) => [f.name, f.associated_features])).toEqual([
      ['embedding', ['gradcam', 'saliency']],
      ['penultimate', ['gradcam', 'saliency']],
    ]);
    expect(features.dataset_features.map((f) => f.associated_features)).toEqual([[]]);

    // An object-level feature of a detection model is not associated: heatmaps belong to images.
    const boxes = await createDataset(admin, { name: 'Boxes', task_type: 'object_detection' });
    await admin.call(api.samples.upload, {
      params: { id: boxes.id },
      body: { samples: [{ id: 's', objects: [{ id: 'o', label: 'car', bbox: [0, 0, 1, 1] }] }] },
    });
    const set = await admin.call(api.predictionSets.create, {
      params: { id: boxes.id },
      body: { name: 'yolo' },
    });
    const boxParams = { id: boxes.id, predictionSetId: set.id };
    await admin.call(api.predictionSets.uploadAttributions, {
      params: boxParams,
      body: { attributions: [{ id: 's', heatmap: [[1]] }] },
    });
    for (const data_level of ['image', 'image_object'] as const)
      await admin.call(api.features.uploadForPredictionSet, {
        params: boxParams,
        body: {
          name: data_level,
          data_level,
          vectors: { [data_level === 'image' ? 's' : 'o']: [1] },
        },
      });
    const boxFeatures = await admin.call(api.features.listForPredictionSet, { params: boxParams });
    expect(boxFeatures.predictions_features.map((f) => [f.name, f.associated_features])).toEqual([
      ['image', ['attribution']],
      ['image_object', []],
    ]);
    expect(
      (await overview(boxes.id, set.id)).attribution_overviews.map((a) => a.associated_features),
    ).toEqual([['image']]);
  });

  it('is empty at the object level and refuses a level the task lacks or an unknown model', async () => {
    const { id, setId } = await pets();
    const wrongLevel = await refused(overview(id, setId, 'image_object'));
    expect(wrongLevel.status).toBe(400);
    expect(wrongLevel.description).toMatch(/^query\.data_level: a classification dataset/);
    expect((await refused(overview(id, crypto.randomUUID()))).status).toBe(404);

    const boxes = await createDataset(admin, { name: 'Boxes', task_type: 'object_detection' });
    const set = await admin.call(api.predictionSets.create, {
      params: { id: boxes.id },
      body: { name: 'yolo' },
    });
    expect(await overview(boxes.id, set.id, 'image_object')).toEqual({
      attribution_overviews: [],
    });
    // A model of another dataset is unknown here.
    expect((await refused(overview(boxes.id, setId))).status).toBe(404);
  });
});

describe('attribution heatmaps', () => {
  const heatmap = (id: string, setId: string, name: string, sample_id: string) =>
    admin.call(api.attributions.heatmap, {
      params: { id, predictionSetId: setId },
      query: { name, sample_id },
    });

  it('draws rows of numbers on the jet scale, minimum blue and maximum red', async () => {
    const { id, setId } = await pets();
    const response = await heatmap(id, setId, 'gradcam', 'a');
    expect(response.headers.get('content-type')).toBe('image/png');
    const { data, info } = await sharp(Buffer.from(await response.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([2, 2, 4]);
    const pixel = (i: number) => [...data.subarray(i * 4, i * 4 + 4)];
    // Values 0, 1, 2, 4 over [0, 4]: t = 0, 0.25, 0.5, 1.
    expect(pixel(0)).toEqual([0, 0, 128, 255]);
    expect(pixel(1)).toEqual([0, 128, 255, 255]);
    expect(pixel(2)).toEqual([128, 255, 128, 255]);
    expect(pixel(3)).toEqual([128, 0, 0, 255]);
  });

  it('serves an uploaded heatmap image as a PNG, and 404 for a sample without one', async () => {
    const { id, setId } = await pets();
    const image = await testImage(3);
    const key = await uploadMedia(admin, id, image.bytes, 'image/png');
    await admin.call(api.predictionSets.uploadAttributions, {
      params: { id, predictionSetId: setId },
      body: { name: 'image', attributions: [{ id: 'a', heatmap: key }] },
    });
    const response = await heatmap(id, setId, 'image', 'a');
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(meta.format).toBe('png');
    expect([meta.width, meta.height]).toEqual([64, 48]);
    const missing = await refused(heatmap(id, setId, 'gradcam', 'c'));
    expect(missing.status).toBe(404);
    expect(missing.description).toBe("Sample 'c' has no attribution named 'gradcam'.");
  });
});

describe('items with attributions', () => {
  it("carry the sample's heatmaps by attribution id when a model is given", async () => {
    const { id, setId } = await pets();
    const { items } = await admin.call(api.explore.items, {
      params: { id },
      body: { data_level: 'image', item_ids: ['a', 'c'], predictions_id: setId },
    });
    const base = `/api/datasets/${id}/predictions/${setId}/attributions/heatmap`;
    expect(items.map((item) => item.attributions)).toEqual([
      { 'image:gradcam': { name: 'gradcam', src: `${base}?name=gradcam&sample_id=a` } },
      { 'image:saliency': { name: 'saliency', src: `${base}?name=saliency&sample_id=c` } },
    ]);
    // The src answers the heatmap.
    const served = await admin.get(items[0]!.attributions!['image:gradcam']!.src);
    expect(served.statusCode).toBe(200);
    const without = await admin.call(api.explore.items, {
      params: { id },
      body: { data_level: 'image', item_ids: ['a'] },
    });
    expect(without.items[0]!.attributions).toBeUndefined();
  });
});

describe('deleting an attribution', () => {
  const remove = (client: Client, id: string, setId: string, name: string) =>
    client.call(api.attributions.delete, {
      params: { id, predictionSetId: setId },
      body: { name },
    });

  it("removes every heatmap of the name and clears the model's embeddings settings", async () => {
    const { id, setId } = await pets();
    await admin.call(api.features.upload, {
      params: { id },
      body: { name: 'clip', data_level: 'image', vectors: { a: [1, 0], b: [0, 1], c: [1, 1] } },
    });
    const settings = { method: 'TSNE', perplexity: 7 } as const;
    for (const predictions_id of [setId, undefined])
      await admin.call(api.embeddings.updateSettings, {
        params: { id },
        body: {
          data_level: 'image',
          feature_name: 'clip',
          dimensionality_reduction_setting: settings,
          ...(predictions_id ? { predictions_id } : {}),
        },
      });
    const { client: member } = await addUser(t.app, admin, { email: 'ben@example.com' });
    expect(await remove(member, id, setId, 'gradcam')).toEqual({ deleted: 2 });
    expect((await overview(id, setId)).attribution_overviews.map((a) => a.name)).toEqual([
      'saliency',
    ]);
    const read = (predictions_id?: string) =>
      admin.call(api.embeddings.settings, {
        params: { id },
        query: { data_level: 'image', ...(predictions_id ? { predictions_id } : {}) },
      });
    // The model's settings are back to the defaults; the dataset's are kept.
    expect((await read(setId)).dimensionality_reduction_setting).not.toEqual(settings);
    expect((await read()).dimensionality_reduction_setting).toEqual(settings);
    const again = await refused(remove(admin, id, setId, 'gradcam'));
    expect(again.status).toBe(404);
    expect(again.description).toBe("The prediction set has no attribution named 'gradcam'.");
  });

  it('needs a name, and a license', async () => {
    const { id, setId } = await pets();
    const blank = await admin.call({
      method: 'DELETE',
      url: `/api/datasets/${id}/predictions/${setId}/attributions`,
      body: { name: ' ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().description).toMatch(/name/);

    const unlicensed = await startTestApp();
    try {
      const owner = await setUpInstance(unlicensed.app);
      const refusal = await refused(
        remove(owner, crypto.randomUUID(), crypto.randomUUID(), 'gradcam'),
      );
      expect(refusal.status).toBe(403);
      expect(refusal.description).toMatch(/license is required to delete attributions/);
    } finally {
      await unlicensed.close();
    }
  });
});

// Exports on a real server and database: what the COCO and CSV archives hold (only live items,
// object ids kept, chosen objects only at object level, predictions), the file name, and the
// refusals (license, sign-in, unknown dataset, subset or prediction set, format, data level).
import { randomUUID } from 'node:crypto';
import { api, SUBSET_MESSAGES } from '@loupe/contracts';
import { strFromU8, unzipSync } from 'fflate';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testImage } from '../testing/media.js';
import {
  Client,
  setUpInstance,
  startLicensedApp,
  startTestApp,
  type TestApp,
} from '../testing/test-app.js';
import { systemActor } from '../users/actor.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

const MISSING = '00000000-0000-4000-8000-000000000000';
const RLE = { size: [48, 64] as [number, number], counts: [100, 12, 50, 30, 2880] };

async function upload(datasetId: string, seed: number): Promise<{ key: string; bytes: Buffer }> {
  const { bytes } = await testImage(seed, 'png', 64, 48);
  const { key } = await admin.call(api.media.upload, {
    params: { id: datasetId },
    body: bytes,
    contentType: 'image/png',
  });
  return { key, bytes };
}

/** Inserts a subset and its items by SQL, as the subsets service would. */
async function subset(datasetId: string, level: string, itemIds: string[], name = 'Picked') {
  const id = randomUUID();
  const now = Date.now();
  await t.database.db
    .insertInto('subsets')
    .values({
      id,
      dataset_id: datasetId,
      name,
      description: null,
      data_level: level,
      enabled_for_performance: 0,
      num_items: itemIds.length,
      next_position: itemIds.length,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  if (itemIds.length)
    await t.database.db
      .insertInto('subset_items')
      .values(itemIds.map((item_id, position) => ({ subset_id: id, item_id, position })))
      .execute();
  return id;
}

async function softDelete(datasetId: string, table: 'samples' | 'objects', ids: string[]) {
  await t.database.db
    .updateTable(table)
    .set({ deleted: 1 })
    .where('dataset_id', '=', datasetId)
    .where('id', 'in', ids)
    .execute();
}

function files(response: LightMyRequestResponse): Record<string, Uint8Array> {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/zip');
  return unzipSync(new Uint8Array(response.rawPayload));
}

const json = (bytes: Uint8Array | undefined) => JSON.parse(strFromU8(bytes!)) as never;

/**
 * Street (object detection, classes car, person):
 *   000001.jpg train  #7 person (polygon), #8 car
 *   000002.jpg val    #9 car (RLE, crowd)
 *   odd id?.png —     #0 car               (no split; an id unsafe as a file name)
 *   gone.jpg   train  #1 car               (deleted)
 */
async function street() {
  const { id } = await admin.call(api.datasets.create, {
    body: { name: 'Street', task_type: 'object_detection', class_names: ['car', 'person'] },
  });
  const media = await Promise.all([1, 2, 3, 4].map((seed) => upload(id, seed)));
  await admin.call(api.samples.upload, {
    params: { id },
    body: {
      samples: [
        {
          id: '000001.jpg',
          split: 'train',
          image: media[0]!.key,
          metadata: { weather: 'sunny' },
          objects: [
            {
              id: '7',
              label: 'person',
              bbox: [10, 10, 20, 10],
              segmentation: [[10, 10, 30, 10, 30, 20, 10, 20]],
            },
            { id: '8', label: 'car', bbox: [1, 2, 3, 4] },
          ],
        },
        {
          id: '000002.jpg',
          split: 'val',
          image: media[1]!.key,
          objects: [
            { id: '9', label: 'car', bbox: [0, 2, 2, 40], segmentation: RLE, iscrowd: true },
          ],
        },
        {
          id: 'odd id?.png',
          image: media[2]!.key,
          objects: [{ label: 'car', bbox: [5, 5, 5, 5] }],
        },
        {
          id: 'gone.jpg',
          split: 'train',
          image: media[3]!.key,
          objects: [{ id: '1', label: 'car', bbox: [1, 1, 1, 1] }],
        },
      ],
    },
  });
  await softDelete(id, 'samples', ['gone.jpg']);
  return { id, media: media.map((m) => m.bytes) };
}

describe('COCO export of a subset', () => {
  it('holds one annotation file per split, the live images and their objects with their ids', async () => {
    const { id, media } = await street();
    const subsetId = await subset(id, 'image', [
      '000001.jpg',
      '000002.jpg',
      'odd id?.png',
      'gone.jpg',
    ]);
    const response = await admin.get(`/api/datasets/${id}/subsets/${subsetId}/export?format=coco`);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Street-Picked-coco.zip"; filename*=UTF-8''Street-Picked-coco.zip`,
    );
    const zip = files(response);
    expect(Object.keys(zip).sort()).toEqual([
      'annotations/instances_default.json',
      'annotations/instances_train.json',
      'annotations/instances_val.json',
      'images/default/~2.png',
      'images/train/000001.jpg',
      'images/val/000002.jpg',
    ]);
    expect(Buffer.from(zip['images/train/000001.jpg']!)).toEqual(media[0]);
    expect(Buffer.from(zip['images/default/~2.png']!)).toEqual(media[2]);

    const train = json(zip['annotations/instances_train.json']) as {
      images: { id: number; file_name: string }[];
      annotations: Record<string, unknown>[];
      categories: unknown;
    };
    expect(train.categories).toEqual([
      { id: 1, name: 'car' },
      { id: 2, name: 'person' },
    ]);
    expect(train.images).toEqual([{ id: 1, file_name: '000001.jpg' }]);
    expect(train.annotations).toEqual([
      {
        id: 7,
        image_id: 1,
        category_id: 2,
        bbox: [10, 10, 20, 10],
        area: 200,
        iscrowd: 0,
        segmentation: [[10, 10, 30, 10, 30, 20, 10, 20]],
      },
      { id: 8, image_id: 1, category_id: 1, bbox: [1, 2, 3, 4], area: 12, iscrowd: 0 },
    ]);
    const val = json(zip['annotations/instances_val.json']) as typeof train;
    expect(val.annotations).toEqual([
      {
        id: 9,
        image_id: 2,
        category_id: 1,
        bbox: [0, 2, 2, 40],
        area: 42,
        iscrowd: 1,
        segmentation: RLE,
      },
    ]);
    const other = json(zip['annotations/instances_default.json']) as typeof train;
    expect(other.images).toEqual([{ id: 3, file_name: '~2.png' }]);
    expect(other.annotations).toMatchObject([{ id: 0, image_id: 3, category_id: 1 }]);
  });

  it('at object level holds the chosen objects of live images, and a prediction results file', async () => {
    const { id } = await street();
    const set = await admin.call(api.predictionSets.create, {
      params: { id },
      body: { name: 'yolo v8' },
    });
    await admin.call(api.predictionSets.uploadPredictions, {
      params: { id, predictionSetId: set.id },
      body: {
        predictions: [
          {
            id: '000001.jpg',
            objects: [{ id: 'p', label: 'car', bbox: [1, 2, 3, 5], score: 0.75 }],
          },
          { id: '000002.jpg', objects: [] },
        ],
      },
    });
    const subsetId = await subset(
      id,
      'image_object',
      ['000001.jpg#8', '000002.jpg#9', 'gone.jpg#1', 'no such object'],
      'Cars',
    );
    const zip = files(
      await admin.get(
        `/api/datasets/${id}/subsets/${subsetId}/export?format=coco&predictions_id=${set.id}`,
      ),
    );
    const train = json(zip['annotations/instances_train.json']) as {
      annotations: { id: number }[];
    };
    expect(train.annotations.map((a) => a.id)).toEqual([8]);
    expect(
      (json(zip['annotations/instances_val.json']) as typeof train).annotations.map((a) => a.id),
    ).toEqual([9]);
    expect(zip['annotations/instances_default.json']).toBeUndefined();
    expect(json(zip['predictions/yolo v8_results.json'])).toEqual([
      { image_id: 1, category_id: 1, bbox: [1, 2, 3, 5], score: 0.75 },
    ]);
  });

  it('is refused for a task without objects, naming the task', async () => {
    const { id } = await admin.call(api.datasets.create, {
      body: { name: 'Pets', task_type: 'classification' },
    });
    const subsetId = await subset(id, 'image', []);
    const response = await admin.get(`/api/datasets/${id}/subsets/${subsetId}/export?format=coco`);
    expect(response.statusCode).toBe(400);
    expect(response.json().description).toContain("not classification ('Pets')");
  });
});

describe('CSV export', () => {
  /** Pets (classification): a train/cat (weight 4, indoor), b val/dog (weight 30), c deleted. */
  async function pets() {
    const { id } = await admin.call(api.datasets.create, {
      body: { name: 'Pets / 2024', task_type: 'classification', class_names: ['cat', 'dog'] },
    });
    const media = await Promise.all([1, 2, 3].map((seed) => upload(id, seed)));
    await admin.call(api.samples.upload, {
      params: { id },
      body: {
        samples: [
          {
            id: 'a.png',
            split: 'train',
            label: 'cat',
            image: media[0]!.key,
            metadata: { weight: 4, indoor: true, note: 'says "hi", twice' },
          },
          {
            id: 'b.png',
            split: 'val',
            label: 'dog',
            image: media[1]!.key,
            metadata: { weight: 30 },
          },
          { id: 'c.png', split: 'val', label: 'dog', image: media[2]!.key },
        ],
      },
    });
    await softDelete(id, 'samples', ['c.png']);
    return { id, media: media.map((m) => m.bytes) };
  }

  it('of a selection holds dataset.yaml, a CSV per split, media, metadata and predictions', async () => {
    const { id, media } = await pets();
    const set = await admin.call(api.predictionSets.create, {
      params: { id },
      body: { name: 'resnet' },
    });
    await admin.call(api.predictionSets.uploadPredictions, {
      params: { id, predictionSetId: set.id },
      body: {
        predictions: [{ id: 'a.png', label: 'dog', score: 0.6, probabilities: [0.4, 0.6] }],
      },
    });
    const response = await admin.call({
      method: 'POST',
      url: `/api/datasets/${id}/export`,
      body: {
        format: 'csv',
        data_level: 'image',
        item_ids: ['b.png', 'a.png', 'c.png', 'a.png', 'nothing'],
        name: 'Mine',
        predictions_id: set.id,
      },
    });
    expect(response.headers['content-disposition']).toContain(
      'filename="Pets _ 2024-Mine-csv.zip"',
    );
    const zip = files(response);
    expect(Object.keys(zip).sort()).toEqual([
      'dataset.yaml',
      'images/a.png',
      'images/b.png',
      'predictions/resnet.csv',
      'train.csv',
      'val.csv',
    ]);
    expect(Buffer.from(zip['images/b.png']!)).toEqual(media[1]);
    const yaml = strFromU8(zip['dataset.yaml']!);
    expect(yaml).toContain('task_type: classification\nclass_names:\n  - "cat"\n  - "dog"\n');
    expect(yaml).toContain('splits:\n  "train": "train.csv"\n  "val": "val.csv"\n');
    expect(strFromU8(zip['train.csv']!)).toBe(
      'id,image,label,indoor,note,weight\na.png,images/a.png,cat,true,"says ""hi"", twice",4\n',
    );
    expect(strFromU8(zip['val.csv']!)).toBe(
      'id,image,label,indoor,note,weight\nb.png,images/b.png,dog,,,30\n',
    );
    expect(strFromU8(zip['predictions/resnet.csv']!)).toBe(
      'id,label,score,cat,dog\na.png,dog,0.6,0.4,0.6\n',
    );
  });

  it('of a subset in pages: rows made on worker threads up to the first page with media files', async () => {
    const { id } = await admin.call(api.datasets.create, {
      body: { name: 'Paged', task_type: 'classification', class_names: ['cat', 'dog'] },
    });
    const image = await upload(id, 9);
    // Upload order (seq): e a d b c z f; item id order: a b | c d | e f | z in pages of two.
    const rows: [string, string | undefined, string, Record<string, unknown>][] = [
      ['e.jpg', 'train', 'cat', { n: 1.5, s: 'x, y', b: false }],
      ['a.jpg', 'train', 'dog', { n: 1e-7, s: 'q"uote' }],
      ['d.jpg', 'val', 'cat', { n: 0.1 + 0.2 }],
      ['b.jpg', undefined, 'dog', { s: 'line\nbreak' }],
      ['c.jpg', 'val', 'dog', {}],
      ['z.png', 'train', 'cat', { n: 2 }],
      ['f.jpg', 'train', 'cat', {}],
    ];
    await admin.call(api.samples.upload, {
      params: { id },
      body: {
        samples: rows.map(([sample, split, label, metadata]) => ({
          id: sample,
          ...(split ? { split } : {}),
          label,
          image: image.key,
          metadata,
        })),
      },
    });
    // Media URLs, except z.png's uploaded file (its page is the main thread's).
    for (const [sample] of rows.filter(([sample]) => sample !== 'z.png'))
      await t.database.db
        .updateTable('samples')
        .set({ media: `https://images.example.com/${sample}` })
        .where('dataset_id', '=', id)
        .where('id', '=', sample)
        .execute();
    await softDelete(id, 'samples', ['f.jpg']);
    const subsetId = await subset(
      id,
      'image',
      rows.map(([sample]) => sample),
    );
    const exported = async (includeMedia: boolean) => {
      const { stream } = await t.services.exports.exportSubset(
        systemActor('test'),
        id,
        subsetId,
        { format: 'csv' },
        { pageSize: 2, includeMedia },
      );
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return unzipSync(new Uint8Array(Buffer.concat(chunks)));
    };
    const url = (sample: string) => `${sample},https://images.example.com/${sample}`;
    const expected = {
      'train.csv': `id,image,label,b,n,s\n${url('a.jpg')},dog,,1e-7,"q""uote"\n${url('e.jpg')},cat,false,1.5,"x, y"\nz.png,images/z.png,cat,,2,\n`,
      'default.csv': `id,image,label,b,n,s\n${url('b.jpg')},dog,,,"line\nbreak"\n`,
      'val.csv': `id,image,label,b,n,s\n${url('d.jpg')},cat,,0.30000000000000004,\n${url('c.jpg')},dog,,,\n`,
    };
    for (const includeMedia of [true, false]) {
      const zip = await exported(includeMedia);
      expect(Object.keys(zip).sort()).toEqual(
        ['dataset.yaml', 'default.csv', 'train.csv', 'val.csv']
          .concat(includeMedia ? ['images/z.png'] : [])
          .sort(),
      );
      for (const [name, text] of Object.entries(expected))
        expect(strFromU8(zip[name]!), name).toBe(text);
      expect(strFromU8(zip['dataset.yaml']!)).toContain(
        'splits:\n  "train": "train.csv"\n  "default": "default.csv"\n  "val": "val.csv"\n',
      );
      if (includeMedia) expect(Buffer.from(zip['images/z.png']!)).toEqual(image.bytes);
    }
  });

  it('of an empty subset is still a folder the importer reads', async () => {
    const { id } = await pets();
    const subsetId = await subset(id, 'image', ['c.png']);
    const zip = files(await admin.get(`/api/datasets/${id}/subsets/${subsetId}/export?format=csv`));
    expect(Object.keys(zip).sort()).toEqual(['dataset.yaml', 'default.csv']);
    expect(strFromU8(zip['default.csv']!)).toBe('id,image,label,indoor,note,weight\n');
  });
});

describe('refusals', () => {
  it('needs a signed-in caller and a license', async () => {
    const { id } = await admin.call(api.datasets.create, {
      body: { name: 'Pets', task_type: 'classification' },
    });
    const subsetId = await subset(id, 'image', []);
    const url = `/api/datasets/${id}/subsets/${subsetId}/export?format=csv`;
    expect((await new Client(t.app).get(url)).statusCode).toBe(401);

    const unlicensed = await startTestApp();
    try {
      const client = await setUpInstance(unlicensed.app);
      const { dataset } = await unlicensed.services.datasets.create(systemActor('test'), {
        name: 'Free',
        task_type: 'classification',
        description: '',
        class_names: [],
        value_names: [],
      } as never);
      const response = await client.post(`/api/datasets/${dataset.id}/export`, {
        format: 'csv',
        data_level: 'image',
        item_ids: ['a'],
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().description).toContain('A valid license is required to export items');
    } finally {
      await unlicensed.close();
    }
  });

  it('answers 404 for an unknown dataset, subset or prediction set and 400 for bad input', async () => {
    const { id } = await admin.call(api.datasets.create, {
      body: { name: 'Pets', task_type: 'classification' },
    });
    const subsetId = await subset(id, 'image', []);
    const unknownSubset = await admin.get(
      `/api/datasets/${id}/subsets/${MISSING}/export?format=csv`,
    );
    expect(unknownSubset.statusCode).toBe(404);
    expect(unknownSubset.json().description).toBe(SUBSET_MESSAGES.notFound);
    expect(
      (await admin.get(`/api/datasets/${MISSING}/subsets/${subsetId}/export?format=csv`))
        .statusCode,
    ).toBe(404);
    const unknownSet = await admin.get(
      `/api/datasets/${id}/subsets/${subsetId}/export?format=csv&predictions_id=${MISSING}`,
    );
    expect(unknownSet.statusCode).toBe(404);
    expect(
      (await admin.get(`/api/datasets/${id}/subsets/${subsetId}/export?format=pdf`)).statusCode,
    ).toBe(400);
    const level = await admin.post(`/api/datasets/${id}/export`, {
      format: 'csv',
      data_level: 'audio',
      item_ids: ['a'],
    });
    expect(level.statusCode).toBe(400);
    expect(level.json().description).toContain('Data-level mismatch.');
    const empty = await admin.post(`/api/datasets/${id}/export`, {
      format: 'csv',
      data_level: 'image',
      item_ids: [],
    });
    expect(empty.statusCode).toBe(400);
  });
});

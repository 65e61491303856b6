// The explorer at each data level (image, image object, audio) and with a prediction set as
// context, on small hand-made datasets whose expected answers are worked out in the comments.
import {
  api,
  readItemRows,
  type CreateDatasetRequest,
  type DataLevel,
  type ItemIdsRequest,
  type ItemsRequest,
} from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testClip, testImage } from '../testing/media.js';
import { refused, startLicensedApp, type Client, type TestApp } from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

async function createDataset(body: CreateDatasetRequest): Promise<string> {
  return (await admin.call(api.datasets.create, { body })).id;
}

const uploadSamples = (id: string, samples: unknown[]) =>
  admin.call(api.samples.upload, { params: { id }, body: { samples } });

async function uploadMedia(datasetId: string, bytes: Buffer, type: string): Promise<string> {
  const stored = await admin.call(api.media.upload, {
    params: { id: datasetId },
    body: bytes,
    contentType: type,
  });
  return stored.key;
}

async function predictionSet(datasetId: string, predictions: unknown[]): Promise<string> {
  const params = { id: datasetId };
  const { id: predictionSetId } = await admin.call(api.predictionSets.create, {
    params,
    body: { name: 'model' },
  });
  await admin.call(api.predictionSets.uploadPredictions, {
    params: { ...params, predictionSetId },
    body: { predictions },
  });
  return predictionSetId;
}

/** What the explorer looks at: a data level, and a prediction set or none. */
interface Context {
  data_level: DataLevel;
  predictions_id?: string;
}

const ids = async (datasetId: string, body: ItemIdsRequest) =>
  (
    await admin.call(api.explore.itemIds, {
      params: { id: datasetId },
      body: { format: 'ids', ...body },
    })
  ).item_ids;

const items = async (datasetId: string, body: ItemsRequest) =>
  (await admin.call(api.explore.items, { params: { id: datasetId }, body })).items;

const metadataInfo = async (id: string, query: Context) =>
  (await admin.call(api.explore.metadataInfo, { params: { id }, query })).metadata_config;

/**
 * Two 100×50 images:
 *   s1 (train): s1#o1 cat [x 10, y 10, w 20, h 20]; s1#o2 dog [50, 0, 40, 50]
 *   s2 (val):   s2#0  cat [0, 0, 100, 50]
 * Predictions: s1: p1 cat 0.9 [12, 12, 20, 20] (IoU 324 / 476 ≈ 0.68 with o1: a match at
 * the default threshold 0.5), p2 dog 0.4
 * [0, 0, 10, 10] (no overlap with the dog: no match); s2: none.
 */
async function boxes(): Promise<{ id: string; setId: string }> {
  const id = await createDataset({ name: 'Boxes', task_type: 'object_detection' });
  const image = await uploadMedia(id, (await testImage(1, 'png', 100, 50)).bytes, 'image/png');
  await uploadSamples(id, [
    {
      id: 's1',
      image,
      split: 'train',
      objects: [
        { id: 'o1', label: 'cat', bbox: [10, 10, 20, 20] },
        { id: 'o2', label: 'dog', bbox: [50, 0, 40, 50] },
      ],
    },
    { id: 's2', image, split: 'val', objects: [{ label: 'cat', bbox: [0, 0, 100, 50] }] },
  ]);
  await t.runner.drain();
  const setId = await predictionSet(id, [
    {
      id: 's1',
      objects: [
        { id: 'p1', label: 'cat', score: 0.9, bbox: [12, 12, 20, 20] },
        { id: 'p2', label: 'dog', score: 0.4, bbox: [0, 0, 10, 10] },
      ],
    },
    { id: 's2', objects: [] },
  ]);
  return { id, setId };
}

describe('object level', () => {
  it('lists ground-truth objects in upload order with their computed metadata', async () => {
    const { id } = await boxes();
    const level: Context = { data_level: 'image_object' };
    expect(await ids(id, level)).toEqual(['s1#o1', 's1#o2', 's2#0']);
    // Areas in pixels: 400, 2000, 5000; relative to the 5000-pixel image.
    expect(
      await ids(id, { ...level, sort: [{ name: 'object.area', direction: 'descending' }] }),
    ).toEqual(['s2#0', 's1#o2', 's1#o1']);
    expect(
      await ids(id, {
        ...level,
        filter: { type: 'string', metadata_id: 'object.label', op: 'in', value: ['cat'] },
      }),
    ).toEqual(['s1#o1', 's2#0']);
    expect(
      await ids(id, {
        ...level,
        filter: { type: 'string', metadata_id: 'split', op: 'in', value: ['val'] },
      }),
    ).toEqual(['s2#0']);
    // As bytes (the explorer's grid): area ≥ 1000 by label, then area descending.
    const rows = await readItemRows(
      await admin.call(api.explore.itemRows, {
        params: { id },
        body: {
          ...level,
          filter: {
            type: 'numeric',
            metadata_id: 'object.area',
            op: 'between',
            value: [1000, null],
          },
          sort: [
            { name: 'object.label', direction: 'ascending' },
            { name: 'object.area', direction: 'descending' },
          ],
        },
      }),
    );
    // s2#0 (cat, 5000) is row 2, s1#o2 (dog, 2000) row 1.
    expect(rows).toMatchObject({ rows: Uint32Array.from([2, 1]), total: 2, num_items: 3 });
    const [object, ...others] = await items(id, { ...level, item_ids: ['s1#o2'] });
    expect(others).toHaveLength(0);
    expect(object).toMatchObject({
      id: 's1#o2',
      sample_id: 's1',
      type: 'gt',
      label: 'dog',
      width: 100,
      height: 50,
      split: 'train',
      // [y1, x1, y2, x2] = [0/50, 50/100, 50/50, 90/100]
      crop: [0, 0.5, 1, 0.9],
      src: `/api/datasets/${id}/samples/media?sample_id=s1`,
      prediction: null,
      metadata: {
        'object.label': 'dog',
        'object.area': 2000,
        'object.relative_area': 0.4,
        sample_id: 's1',
        split: 'train',
      },
    });
    // A 100×50 upload is its own thumbnail, served by its content address.
    expect(object!.thumbnail_src).toMatch(new RegExp(`^/api/datasets/${id}/media/[0-9a-f]{64}$`));
    const sha = object!.thumbnail_src!.split('/').pop()!;
    const thumbnail = await admin.call(api.media.file, { params: { id, sha } });
    expect(thumbnail.headers.get('content-type')).toMatch(/^image\//);
    expect(object!.objects).toEqual([
      { id: 's1#o1', label: 'cat', type: 'gt', coords: [0.2, 0.1, 0.6, 0.3] },
      { id: 's1#o2', label: 'dog', type: 'gt', coords: [0, 0.5, 1, 0.9] },
    ]);
    const [image] = await items(id, { data_level: 'image', item_ids: ['s2'] });
    expect(image).toMatchObject({ id: 's2', crop: null, metadata: { 'image.object_count': 1 } });
  });

  it('adds predicted objects, their scores and whether they match', async () => {
    const { id, setId } = await boxes();
    const level: Context = { data_level: 'image_object', predictions_id: setId };
    expect(await ids(id, level)).toEqual(['s1#o1', 's1#o2', 'pred:s1#p1', 'pred:s1#p2', 's2#0']);
    expect(
      await ids(id, {
        ...level,
        filter: {
          type: 'boolean',
          metadata_id: 'prediction.is_matched',
          op: 'bool_equals',
          value: true,
        },
      }),
    ).toEqual(['s1#o1', 'pred:s1#p1']);
    expect(
      await ids(id, {
        ...level,
        filter: { type: 'string', metadata_id: 'object.type', op: 'in', value: ['pred'] },
        sort: [{ name: 'prediction.score', direction: 'ascending' }],
      }),
    ).toEqual(['pred:s1#p2', 'pred:s1#p1']);
    const [prediction] = await items(id, { ...level, item_ids: ['pred:s1#p1'] });
    expect(prediction).toMatchObject({
      id: 'pred:s1#p1',
      type: 'pred',
      sample_id: 's1',
      label: 'cat',
      crop: [0.24, 0.12, 0.64, 0.32],
      prediction: { label: 'cat', score: 0.9 },
      metadata: { 'prediction.score': 0.9, 'prediction.is_matched': true, 'object.type': 'pred' },
    });
    expect(prediction!.objects.map((o) => `${o.type} ${o.id}`)).toEqual([
      'gt s1#o1',
      'gt s1#o2',
      'pred pred:s1#p1',
      'pred pred:s1#p2',
    ]);
    // At IoU threshold 0.7 the 0.68 overlap no longer matches: the table is rebuilt.
    const threshold = (iou_threshold: number) =>
      admin.call(api.datasets.setIouThreshold, { params: { id }, body: { iou_threshold } });
    expect(await threshold(0.7)).toEqual({ iou_threshold: 0.7 });
    const matched = await ids(id, {
      ...level,
      filter: {
        type: 'boolean',
        metadata_id: 'prediction.is_matched',
        op: 'bool_equals',
        value: true,
      },
    });
    expect(matched).toEqual([]);
    await threshold(0.5);

    const info = await metadataInfo(id, level);
    expect(info.find((f) => f.id === 'prediction.score')).toMatchObject({
      source: 'prediction',
      num_missing: 3,
      num_total: 5,
      options: { min: 0.4, max: 0.9 },
    });
    // Image level: how many objects the model predicted per image.
    expect(
      await ids(id, {
        data_level: 'image',
        predictions_id: setId,
        sort: [{ name: 'prediction.object_count', direction: 'ascending' }],
      }),
    ).toEqual(['s2', 's1']);
  });

  it('gives objects their match status and IoU, images their TP/FP/FN, and follows label edits', async () => {
    const { id, setId } = await boxes();
    const objects: Context = { data_level: 'image_object', predictions_id: setId };
    const images: Context = { data_level: 'image', predictions_id: setId };
    const metadata = async (context: Context, fields: string[]) =>
      Object.fromEntries(
        (await items(id, { ...context, item_ids: await ids(id, context) })).map((item) => [
          item.id,
          fields.map((f) => item.metadata[f]),
        ]),
      );
    const round = (table: Record<string, unknown[]>) =>
      Object.fromEntries(
        Object.entries(table).map(([key, values]) => [
          key,
          values.map((v) => (typeof v === 'number' ? Math.round(v * 1e4) / 1e4 : v)),
        ]),
      );
    // s1: p1 matches o1 (IoU 324 / 476 ≈ 0.6807); p2, a dog, overlaps the dog o2 not at all (0).
    // s2: its cat has no prediction to compare with (no IoU).
    const match = ['prediction.match_status', 'prediction.iou', 'prediction.is_matched'];
    expect(round(await metadata(objects, match))).toEqual({
      's1#o1': ['TP', 0.6807, true],
      's1#o2': ['FN', 0, false],
      'pred:s1#p1': ['TP', 0.6807, true],
      'pred:s1#p2': ['FP', 0, false],
      's2#0': ['FN', null, false],
    });
    const counts = ['prediction.tp', 'prediction.fp', 'prediction.fn', 'prediction.object_count'];
    expect(await metadata(images, counts)).toEqual({ s1: [1, 1, 1, 2], s2: [0, 0, 1, 0] });
    expect(
      await ids(id, {
        ...objects,
        filter: { type: 'string', metadata_id: 'prediction.match_status', op: 'in', value: ['FN'] },
      }),
    ).toEqual(['s1#o2', 's2#0']);
    expect(
      (await metadataInfo(id, objects)).find((f) => f.id === 'prediction.match_status'),
    ).toMatchObject({
      type: 'string',
      group: 'Prediction',
      options: { allowed_values: ['FN', 'FP', 'TP'] },
    });

    // o1 becomes a dog: p1 (a cat) has no cat to meet in s1 (no IoU); the dog p2 touches o1's
    // corner at most (0). s1: TP 0, FP 2, FN 2. Both tables are patched, not rebuilt.
    const builds = t.services.explore.tableBuilds;
    await admin.call(api.curation.applyActions, {
      body: { actions: [{ type: 'update_label', dataset_id: id, updates: { dog: ['s1#o1'] } }] },
    });
    expect(round(await metadata(objects, match))).toEqual({
      's1#o1': ['FN', 0, false],
      's1#o2': ['FN', 0, false],
      'pred:s1#p1': ['FP', null, false],
      'pred:s1#p2': ['FP', 0, false],
      's2#0': ['FN', null, false],
    });
    expect(await metadata(images, counts)).toEqual({ s1: [0, 2, 2, 2], s2: [0, 0, 1, 0] });
    expect(t.services.explore.tableBuilds).toBe(builds);
    expect(
      (await metadataInfo(id, objects)).find((f) => f.id === 'prediction.match_status'),
    ).toMatchObject({ options: { allowed_values: ['FN', 'FP'] } });
  });

  it('marks computed fields pending while they are computed, and refuses to sort by them', async () => {
    const id = await createDataset({ name: 'Fresh', task_type: 'classification' });
    const image = await uploadMedia(id, (await testImage(2)).bytes, 'image/png');
    await uploadSamples(id, [{ id: 'x', image, label: 'cat' }]);
    // Start the job's first step by hand: the fields are registered pending.
    const fieldsBefore = await metadataInfo(id, { data_level: 'image' });
    expect(fieldsBefore.some((f) => f.id === 'image.width')).toBe(false);
    await t.database.db
      .insertInto('metadata_fields')
      .values({
        dataset_id: id,
        data_level: 'image',
        id: 'image.width',
        name: 'image.width',
        label: 'Width',
        description: '',
        group_name: 'Image',
        source: 'computed',
        type: 'numeric',
        state: 'pending',
        created_at: 0,
      })
      .execute();
    await t.database.db
      .updateTable('datasets')
      .set((eb) => ({ data_version: eb('data_version', '+', 1) }))
      .where('id', '=', id)
      .execute();
    const pending = await metadataInfo(id, { data_level: 'image' });
    const width = pending.find((f) => f.id === 'image.width')!;
    expect(width.state).toBe('pending');
    expect(width.num_missing).toBeUndefined();
    const recomputing = await refused(
      ids(id, { data_level: 'image', sort: [{ name: 'image.width', direction: 'ascending' }] }),
    );
    expect(recomputing.status).toBe(400);
    expect(recomputing.description).toContain("'image.width' is being recomputed");
    await t.runner.drain();
    const done = await metadataInfo(id, { data_level: 'image' });
    expect(done.find((f) => f.id === 'image.width')).toMatchObject({
      state: 'available',
      source: 'computed',
      num_missing: 0,
      options: { min: 64, max: 64 },
    });
    expect(
      await ids(id, {
        data_level: 'image',
        sort: [{ name: 'image.width', direction: 'ascending' }],
      }),
    ).toEqual(['x']);
  });
});

describe('audio level', () => {
  it('answers audio items with their spectrogram and duration', async () => {
    const id = await createDataset({ name: 'Sounds', task_type: 'audio_classification' });
    const short = await uploadMedia(id, testClip(1, 0.5), 'audio/wav');
    const long = await uploadMedia(id, testClip(2, 1.25), 'audio/wav');
    await uploadSamples(id, [
      { id: 'a', audio: short, label: 'bird', split: 'train' },
      { id: 'b', audio: long, label: 'frog', split: 'train' },
    ]);
    await t.runner.drain();
    const noImages = await refused(ids(id, { data_level: 'image' }));
    expect(noImages.status).toBe(400);
    expect(noImages.description).toContain('body.data_level');
    expect(
      await ids(id, {
        data_level: 'audio',
        sort: [{ name: 'audio.duration', direction: 'descending' }],
      }),
    ).toEqual(['b', 'a']);
    const [clip] = await items(id, { data_level: 'audio', item_ids: ['a'] });
    expect(clip).toMatchObject({
      id: 'a',
      media_type: 'audio',
      duration: 0.5,
      label: 'bird',
      metadata: { 'audio.duration': 0.5, label: 'bird' },
    });
    expect(clip!.spectrogram_src).toMatch(/\/thumbnails\/[0-9a-f]{40}\?size=grid$/);
    const histogram = await admin.call(api.explore.histogram, {
      params: { id },
      body: { data_level: 'audio', metadata_id: 'label' },
    });
    expect(histogram.counts_per_bin).toEqual([
      { category: 'bird', count: { all: 1, train: 1 } },
      { category: 'frog', count: { all: 1, train: 1 } },
    ]);
  });
});

describe('prediction context', () => {
  it('adds predicted label, score and correctness for classification', async () => {
    const id = await createDataset({
      name: 'Pets',
      task_type: 'classification',
      class_names: ['cat', 'dog'],
    });
    await uploadSamples(id, [
      { id: 'a', label: 'cat' },
      { id: 'b', label: 'dog' },
      { id: 'c', label: 'cat' },
      { id: 'd', label: 'dog' },
    ]);
    const setId = await predictionSet(id, [
      { id: 'a', label: 'cat', score: 0.9, probabilities: [0.9, 0.1] },
      { id: 'b', label: 'cat', score: 0.6 },
      { id: 'c', label: 'dog', score: 0.7 },
    ]);
    const context: Context = { data_level: 'image', predictions_id: setId };
    expect(
      await ids(id, {
        ...context,
        filter: {
          type: 'boolean',
          metadata_id: 'prediction.is_correct',
          op: 'bool_equals',
          value: false,
        },
      }),
    ).toEqual(['b', 'c']);
    expect(
      await ids(id, {
        ...context,
        sort: [{ name: 'prediction.score', direction: 'descending' }],
        include_missing: true,
      }),
    ).toEqual(['a', 'c', 'b', 'd']);
    const [a, d] = await items(id, { ...context, item_ids: ['a', 'd'] });
    expect(a!.prediction).toEqual({
      label: 'cat',
      score: 0.9,
      probabilities: { cat: 0.9, dog: 0.1 },
      values: null,
      transcript: null,
      mask_src: null,
    });
    expect(d!.prediction).toBeNull();
    // Without the context the prediction fields do not exist.
    await expect(
      ids(id, {
        data_level: 'image',
        sort: [{ name: 'prediction.score', direction: 'descending' }],
      }),
    ).rejects.toMatchObject({ status: 400 });
    // A prediction set of another dataset is not found.
    const other = await createDataset({ name: 'Other', task_type: 'classification' });
    await expect(ids(other, context)).rejects.toMatchObject({ status: 404 });
  });

  it('computes absolute errors for regression', async () => {
    const id = await createDataset({
      name: 'Ages',
      task_type: 'regression',
      value_names: ['age', 'height'],
    });
    await uploadSamples(id, [
      { id: 'r1', values: { age: 10, height: 100 } },
      { id: 'r2', values: { age: 20, height: 150 } },
      { id: 'r3', values: { age: 30, height: 170 } },
    ]);
    // Errors: r1 age 2, height 10 (mean 6); r2 age 0, height 10 (mean 5); r3 none.
    const setId = await predictionSet(id, [
      { id: 'r1', values: { age: 12, height: 90 } },
      { id: 'r2', values: [20, 160] },
    ]);
    const context: Context = { data_level: 'image', predictions_id: setId };
    const [r1, r2] = await items(id, { ...context, item_ids: ['r1', 'r2'] });
    expect(r1!.metadata).toMatchObject({
      'label.values.age': 10,
      'prediction.values.age': 12,
      'prediction.absolute_error.age': 2,
      'prediction.absolute_error.height': 10,
      'prediction.absolute_error': 6,
    });
    expect(r2!.metadata['prediction.absolute_error']).toBe(5);
    // Squared errors: r1 (4 + 100) / 2 = 52; r2 (0 + 100) / 2 = 50.
    expect(r1!.metadata['prediction.squared_error']).toBe(52);
    expect(r2!.metadata['prediction.squared_error']).toBe(50);
    expect(r2!.prediction?.values).toEqual({ age: 20, height: 160 });
    expect(
      await ids(id, {
        ...context,
        sort: [{ name: 'prediction.absolute_error', direction: 'descending' }],
      }),
    ).toEqual(['r1', 'r2']);
    expect(
      await ids(id, {
        data_level: 'image',
        filter: {
          type: 'numeric',
          metadata_id: 'label.values.age',
          op: 'between',
          value: [15, null],
        },
      }),
    ).toEqual(['r2', 'r3']);
  });

  it('computes the word error rate for speech recognition', async () => {
    const id = await createDataset({ name: 'Speech', task_type: 'automatic_speech_recognition' });
    await uploadSamples(id, [
      { id: 't1', transcript: 'the cat sat' },
      { id: 't2', transcript: 'hello world' },
    ]);
    // t1 exact: WER 0; t2 one substitution in two words: 0.5.
    const setId = await predictionSet(id, [
      { id: 't1', transcript: 'the cat sat' },
      { id: 't2', transcript: 'hello word' },
    ]);
    const context: Context = { data_level: 'audio', predictions_id: setId };
    expect(
      await ids(id, {
        ...context,
        filter: {
          type: 'numeric',
          metadata_id: 'prediction.wer',
          op: 'between',
          value: [0.1, null],
        },
      }),
    ).toEqual(['t2']);
    // t2: 1 hit, 1 substitution: MER 1/2, WIP (1/2)(1/2) so WIL 3/4. t1: 3 hits, no error.
    const [t1, t2] = await items(id, { ...context, item_ids: ['t1', 't2'] });
    expect(t2).toMatchObject({
      transcript: 'hello world',
      prediction: { transcript: 'hello word' },
      metadata: {
        'prediction.wer': 0.5,
        'prediction.mer': 0.5,
        'prediction.wil': 0.75,
        'prediction.word_hits': 1,
        'prediction.word_substitutions': 1,
        'prediction.word_deletions': 0,
        'prediction.word_insertions': 0,
      },
    });
    expect(t1!.metadata).toMatchObject({
      'prediction.wer': 0,
      'prediction.mer': 0,
      'prediction.wil': 0,
      'prediction.word_hits': 3,
    });
    expect(
      await ids(id, { ...context, sort: [{ name: 'prediction.wil', direction: 'descending' }] }),
    ).toEqual(['t2', 't1']);
    expect(await admin.call(api.explore.colorMap, { params: { id } })).toEqual({ color_map: {} });
  });
});

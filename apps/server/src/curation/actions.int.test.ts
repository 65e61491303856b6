// Item actions on a real server and database: every action shape and rule, the transaction
// boundary, history records with their items, the history filter, counts, and the explorer's
// derived columns following an edit (patched in place, or rebuilt).
import {
  api,
  type CreateDatasetRequest,
  type Filter,
  type ItemAction,
  type ItemIdsRequest,
} from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testImage } from '../testing/media.js';
import {
  Client,
  refused,
  startLicensedApp,
  startTestApp,
  setUpInstance,
  type TestApp,
} from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

async function createDataset(body: CreateDatasetRequest): Promise<string> {
  return (await admin.call(api.datasets.create, { body })).id;
}

const upload = (id: string, samples: unknown[]) =>
  admin.call(api.samples.upload, { params: { id }, body: { samples } });

async function predictionSet(datasetId: string, predictions: unknown[]): Promise<string> {
  const { id: predictionSetId } = await admin.call(api.predictionSets.create, {
    params: { id: datasetId },
    body: { name: 'model' },
  });
  await admin.call(api.predictionSets.uploadPredictions, {
    params: { id: datasetId, predictionSetId },
    body: { predictions },
  });
  return predictionSetId;
}

const apply = (...actions: ItemAction[]) =>
  admin.call(api.curation.applyActions, { body: { actions } });

const ids = async (datasetId: string, body: Partial<ItemIdsRequest>) =>
  (
    await admin.call(api.explore.itemIds, {
      params: { id: datasetId },
      body: { data_level: 'image', format: 'ids', ...body },
    })
  ).item_ids!;

const dataset = (id: string) => admin.call(api.datasets.get, { params: { id } });
const history = (id: string) => admin.call(api.datasets.history, { params: { id } });

const labelIs = (value: string[]): Filter => ({
  type: 'string',
  metadata_id: 'label',
  op: 'in',
  value,
});
const correct = (value: boolean): Filter => ({
  type: 'boolean',
  metadata_id: 'prediction.is_correct',
  op: 'bool_equals',
  value,
});

/**
 * Pets (classes cat, dog, bird), upload order a..f:
 *   id  split  label  predicted
 *   a   train  cat    cat
 *   b   train  dog    cat
 *   c   val    cat    dog
 *   d   val    dog    dog
 *   e   test   cat    –
 *   f   –      dog    –
 */
async function pets(): Promise<{ id: string; setId: string }> {
  const id = await createDataset({
    name: 'Pets',
    task_type: 'classification',
    class_names: ['cat', 'dog', 'bird'],
  });
  await upload(id, [
    { id: 'a', split: 'train', label: 'cat' },
    { id: 'b', split: 'train', label: 'dog' },
    { id: 'c', split: 'val', label: 'cat' },
    { id: 'd', split: 'val', label: 'dog' },
    { id: 'e', split: 'test', label: 'cat' },
    { id: 'f', label: 'dog' },
  ]);
  const setId = await predictionSet(id, [
    { id: 'a', label: 'cat' },
    { id: 'b', label: 'cat' },
    { id: 'c', label: 'dog' },
    { id: 'd', label: 'dog' },
  ]);
  return { id, setId };
}

describe('update_label on samples', () => {
  it('relabels, records the changed items only, and the explorer follows without a rebuild', async () => {
    const { id, setId } = await pets();
    const context = { predictions_id: setId };
    // Warm the cache: both tables (without and with the prediction set) are built once.
    expect(await ids(id, { filter: labelIs(['dog']) })).toEqual(['b', 'd', 'f']);
    expect(await ids(id, { ...context, filter: correct(true) })).toEqual(['a', 'd']);
    const builds = t.services.explore.tableBuilds;

    const answer = await apply({
      type: 'update_label',
      dataset_id: id,
      updates: { dog: ['a', 'b'], bird: ['e'] },
    });
    // b was a dog already: not changed.
    expect(answer.dataset_id).toBe(id);
    expect(answer.results).toEqual([
      {
        type: 'update_label',
        data_level: 'image',
        item_ids: ['a', 'e'],
        history_record_id: answer.history[0]!.id,
      },
    ]);
    expect(answer.history).toEqual([
      {
        id: expect.any(String),
        timestamp: t.clock.now,
        num_items: 2,
        data_level: 'image',
        operation_type: 'sample.label:edit',
        user_name: 'Ana Admin',
        restorable: false,
        restored_by: null,
        items_deleted: false,
      },
    ]);
    expect((await history(id))[0]).toEqual(answer.history[0]);

    expect(await ids(id, { filter: labelIs(['dog']) })).toEqual(['a', 'b', 'd', 'f']);
    expect(await ids(id, { filter: labelIs(['bird']) })).toEqual(['e']);
    // a is now a dog predicted cat: incorrect; b and c unchanged; e has no prediction.
    expect(await ids(id, { ...context, filter: correct(true) })).toEqual(['d']);
    expect(await ids(id, { ...context, filter: correct(false) })).toEqual(['a', 'b', 'c']);
    const histogram = await admin.call(api.explore.histogram, {
      params: { id },
      body: { metadata_id: 'label', data_level: 'image' },
    });
    expect(histogram.counts_per_bin).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ category: 'bird', count: expect.objectContaining({ all: 1 }) }),
        expect.objectContaining({ category: 'dog', count: expect.objectContaining({ all: 4 }) }),
      ]),
    );
    // The tables were patched in place, not rebuilt.
    expect(t.services.explore.tableBuilds).toBe(builds);
    const [a] = (
      await admin.call(api.explore.items, {
        params: { id },
        body: { data_level: 'image', item_ids: ['a'] },
      })
    ).items;
    expect(a).toMatchObject({ label: 'dog', metadata: { label: 'dog' } });

    // The history filter selects exactly the record's items.
    const record = answer.history[0]!.id;
    expect(await ids(id, { filter: { type: 'history', record_id: record } })).toEqual(['a', 'e']);
    expect(
      await ids(id, { filter: { type: 'not', child: { type: 'history', record_id: record } } }),
    ).toEqual(['b', 'c', 'd', 'f']);
  });

  it('rebuilt tables agree with patched ones (is_correct from the stored labels)', async () => {
    const { id, setId } = await pets();
    await apply({ type: 'update_label', dataset_id: id, updates: { dog: ['a', 'c'] } });
    // Nothing was cached: this read builds from the database.
    expect(await ids(id, { predictions_id: setId, filter: correct(true) })).toEqual(['c', 'd']);
    expect(await ids(id, { filter: labelIs(['cat']) })).toEqual(['e']);
  });

  it('writes no record and bumps nothing when no item changes', async () => {
    const { id } = await pets();
    const before = await dataset(id);
    const answer = await apply({ type: 'update_label', dataset_id: id, updates: { cat: ['a'] } });
    expect(answer.results).toEqual([
      { type: 'update_label', data_level: 'image', item_ids: [], history_record_id: null },
    ]);
    expect(answer.history).toEqual([]);
    expect(await history(id)).toHaveLength(1); // the upload
    expect((await dataset(id)).updated_ts).toBe(before.updated_ts);
  });

  it('refuses labels outside the classes, unknown and deleted items, and items given two labels', async () => {
    const { id } = await pets();
    const wrong = await refused(
      apply({ type: 'update_label', dataset_id: id, updates: { horse: ['a'] } }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.description).toBe(
      "body.actions[0].updates: 'horse' is not a class of this dataset (its classes: 'cat', 'dog', 'bird').",
    );
    const unknown = await refused(
      apply({ type: 'update_label', dataset_id: id, updates: { dog: ['a', 'x'] } }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.description).toBe("body.actions[0].updates.dog: unknown item 'x'.");
    const twice = await refused(
      apply({ type: 'update_label', dataset_id: id, updates: { dog: ['a'], bird: ['a'] } }),
    );
    expect(twice.description).toBe(
      "body.actions[0].updates: item 'a' is given two values ('dog' and 'bird').",
    );
    await apply({ type: 'delete_items', dataset_id: id, item_ids: ['f'] });
    const deleted = await refused(
      apply({ type: 'update_label', dataset_id: id, updates: { cat: ['f'] } }),
    );
    expect(deleted.description).toBe("body.actions[0].updates.cat: unknown item 'f'.");
  });

  it('is not available for tasks without class labels on samples or objects', async () => {
    const id = await createDataset({
      name: 'Prices',
      task_type: 'regression',
      value_names: ['price'],
    });
    await upload(id, [{ id: 'a', values: { price: 1 } }]);
    const refusal = await refused(
      apply({ type: 'update_label', dataset_id: id, updates: { cat: ['a'] } }),
    );
    expect(refusal.status).toBe(400);
    expect(refusal.description).toBe(
      'body.actions[0].type: Update Label is not available for regression datasets.',
    );
  });
});

describe('one request, one transaction', () => {
  it('applies every action or none: a failing element leaves the ones before it unapplied', async () => {
    const { id } = await pets();
    const version = (await admin.call(api.explore.itemIds, {
      params: { id },
      body: { data_level: 'image', format: 'ids' },
    }))!.version;
    const refusal = await refused(
      apply(
        { type: 'update_label', dataset_id: id, updates: { bird: ['a'] } },
        { type: 'update_split', dataset_id: id, updates: { holdout: ['b'] } },
        { type: 'delete_items', dataset_id: id, item_ids: ['c', 'nope'] },
      ),
    );
    expect(refusal.status).toBe(400);
    expect(refusal.description).toBe("body.actions[2].item_ids: unknown item 'nope'.");
    expect(await ids(id, { filter: labelIs(['bird']) })).toEqual([]);
    expect((await dataset(id)).splits).toEqual(['test', 'train', 'val']);
    expect((await dataset(id)).samples_count).toBe(6);
    expect(await history(id)).toHaveLength(1);
    const after = await admin.call(api.explore.itemIds, {
      params: { id },
      body: { data_level: 'image', format: 'ids' },
    });
    expect(after.version).toBe(version);
  });

  it('applies the actions in order, each with its own history record', async () => {
    const { id } = await pets();
    const answer = await apply(
      { type: 'update_label', dataset_id: id, updates: { bird: ['a', 'b'] } },
      { type: 'update_split', dataset_id: id, updates: { holdout: ['a', 'f'], train: ['b'] } },
      { type: 'delete_items', dataset_id: id, item_ids: ['b'] },
    );
    expect(answer.results.map((r) => [r.type, r.item_ids])).toEqual([
      ['update_label', ['a', 'b']],
      ['update_split', ['a', 'f']],
      ['delete_items', ['b']],
    ]);
    expect(answer.history.map((r) => [r.operation_type, r.num_items])).toEqual([
      ['sample.label:edit', 2],
      ['sample.split:edit', 2],
      ['sample:delete', 1],
    ]);
    const records = await history(id);
    expect(records).toHaveLength(4);
    // b's label edit: some of its items (a) are live, b is deleted.
    const label = records.find((r) => r.operation_type === 'sample.label:edit')!;
    expect(label.items_deleted).toBe(false);
    expect(await ids(id, { filter: { type: 'history', record_id: label.id } })).toEqual(['a']);
    const ds = await dataset(id);
    expect(ds.splits).toEqual(['holdout', 'test', 'val']);
    expect(ds.samples_count).toBe(5);
  });

  it('acts on one dataset, and keeps sample and object actions in separate requests', async () => {
    const { id } = await pets();
    const other = await createDataset({ name: 'Other', task_type: 'classification' });
    const two = await refused(
      apply(
        { type: 'update_split', dataset_id: id, updates: { x: ['a'] } },
        { type: 'update_split', dataset_id: other, updates: { x: ['a'] } },
      ),
    );
    expect(two.status).toBe(400);
    expect(two.description).toBe(
      `body.actions[1].dataset_id: every action of a request acts on one dataset (dataset ${id}).`,
    );
    const { id: boxesId } = await boxes();
    const mixed = await refused(
      apply(
        { type: 'update_label', dataset_id: boxesId, updates: { dog: ['s1#o1'] } },
        { type: 'update_split', dataset_id: boxesId, updates: { test: ['s1'] } },
      ),
    );
    expect(mixed.status).toBe(400);
    expect(mixed.description).toBe(
      'body.actions[1]: sample actions and object actions go in separate requests (the actions before it act on objects).',
    );
    const missing = await refused(
      apply({
        type: 'update_split',
        dataset_id: '00000000-0000-4000-8000-000000000000',
        updates: { x: ['a'] },
      }),
    );
    expect(missing.status).toBe(404);
  });

  it('answers 404 for health checks: there are none yet, and nothing is written', async () => {
    const { id, setId } = await pets();
    const ignore = await refused(
      apply(
        { type: 'update_label', dataset_id: id, updates: { bird: ['a'] } },
        {
          type: 'check_ignore_items',
          dataset_id: id,
          predictions_id: setId,
          check_id: 'duplicates',
          ignore: true,
          item_ids: ['a'],
        },
      ),
    );
    expect(ignore.status).toBe(404);
    expect(ignore.description).toBe("No health check with id 'duplicates'.");
    const withCheck = await refused(
      apply({ type: 'delete_items', dataset_id: id, item_ids: ['a'], check_id: 'leak' }),
    );
    expect(withCheck.description).toBe("No health check with id 'leak'.");
    expect(await ids(id, { filter: labelIs(['bird']) })).toEqual([]);
    expect(await history(id)).toHaveLength(1);
  });
});

describe('update_split', () => {
  it('moves samples to any split (new ones too), and the explorer follows', async () => {
    const { id } = await pets();
    const splitIs = (value: string[]): Filter => ({
      type: 'string',
      metadata_id: 'split',
      op: 'in',
      value,
    });
    expect(await ids(id, { filter: splitIs(['train']) })).toEqual(['a', 'b']);
    const answer = await apply({
      type: 'update_split',
      dataset_id: id,
      updates: { holdout: ['a', 'f'], val: ['c'] },
    });
    expect(answer.results[0]!.item_ids).toEqual(['a', 'f']);
    expect(answer.history[0]).toMatchObject({ operation_type: 'sample.split:edit', num_items: 2 });
    expect(await ids(id, { filter: splitIs(['holdout']) })).toEqual(['a', 'f']);
    expect(await ids(id, { filter: splitIs(['train']) })).toEqual(['b']);
    expect((await dataset(id)).splits).toEqual(['holdout', 'test', 'train', 'val']);
    // Histograms count per split from the patched split column.
    const histogram = await admin.call(api.explore.histogram, {
      params: { id },
      body: { metadata_id: 'label', data_level: 'image' },
    });
    const cat = histogram.counts_per_bin.find(
      (bin) => 'category' in bin && bin.category === 'cat',
    )!;
    expect(cat.count).toMatchObject({ all: 3, holdout: 1, val: 1, test: 1 });
  });

  it('refuses object ids and over-long split names', async () => {
    const { id } = await boxes();
    const objects = await refused(
      apply({ type: 'update_split', dataset_id: id, updates: { test: ['s1', 's1#o1'] } }),
    );
    expect(objects.status).toBe(400);
    expect(objects.description).toBe(
      "body.actions[0].updates.test: Update Split is not available for objects ('s1#o1' is an object).",
    );
    const long = await refused(
      apply({ type: 'update_split', dataset_id: id, updates: { ['x'.repeat(101)]: ['s1'] } }),
    );
    expect(long.description).toMatch(
      /^body\.actions\[0\]\.updates: a split name has at most 100 characters/,
    );
  });
});

describe('delete_items', () => {
  it('soft-deletes samples: reads, counts, splits and the history follow', async () => {
    const { id } = await pets();
    const answer = await apply({ type: 'delete_items', dataset_id: id, item_ids: ['e', 'c', 'e'] });
    expect(answer.results[0]).toMatchObject({ data_level: 'image', item_ids: ['e', 'c'] });
    expect(answer.history[0]).toMatchObject({
      operation_type: 'sample:delete',
      num_items: 2,
      restorable: true,
      items_deleted: true,
    });
    expect(await ids(id, {})).toEqual(['a', 'b', 'd', 'f']);
    const ds = await dataset(id);
    expect(ds.samples_count).toBe(4);
    expect(ds.splits).toEqual(['train', 'val']);
    const [record] = await history(id);
    expect(record).toMatchObject({ operation_type: 'sample:delete', restorable: true });
    // Its items are gone from the table: the history filter selects nothing.
    expect(await ids(id, { filter: { type: 'history', record_id: record!.id } })).toEqual([]);
    const again = await refused(apply({ type: 'delete_items', dataset_id: id, item_ids: ['c'] }));
    expect(again.description).toBe("body.actions[0].item_ids: unknown item 'c'.");
  });

  it('deletes ground-truth objects but not predictions, and not samples with objects at once', async () => {
    const { id, setId } = await boxes();
    const predicted = await refused(
      apply({ type: 'delete_items', dataset_id: id, item_ids: ['pred:s1#p1'] }),
    );
    expect(predicted.description).toBe(
      "body.actions[0].item_ids: 'pred:s1#p1' is a predicted object; only dataset items can be deleted.",
    );
    const mixed = await refused(
      apply({ type: 'delete_items', dataset_id: id, item_ids: ['s2', 's1#o1'] }),
    );
    expect(mixed.description).toBe(
      "body.actions[0].item_ids: sample actions and object actions go in separate requests ('s2' is a sample, 's1#o1' an object).",
    );
    const answer = await apply({ type: 'delete_items', dataset_id: id, item_ids: ['s1#o2'] });
    expect(answer.results[0]).toMatchObject({ data_level: 'image_object', item_ids: ['s1#o2'] });
    expect(answer.history[0]).toMatchObject({
      operation_type: 'object:delete',
      data_level: 'image_object',
    });
    expect((await dataset(id)).objects_count).toBe(2);
    expect(await ids(id, { data_level: 'image_object' })).toEqual(['s1#o1', 's2#0']);
    expect(
      await ids(id, { data_level: 'image_object', predictions_id: setId, filter: matched(true) }),
    ).toEqual(['s1#o1', 'pred:s1#p1']);
    // The image's computed object count follows its live objects.
    expect(await objectCount(id, 's1')).toBe(1);
    // A deleted sample takes its objects with it.
    await apply({ type: 'delete_items', dataset_id: id, item_ids: ['s2'] });
    expect(await dataset(id)).toMatchObject({ samples_count: 1, objects_count: 1 });
    expect(await ids(id, { data_level: 'image_object' })).toEqual(['s1#o1']);
  });
});

const matched = (value: boolean): Filter => ({
  type: 'boolean',
  metadata_id: 'prediction.is_matched',
  op: 'bool_equals',
  value,
});

async function objectCount(id: string, sampleId: string): Promise<unknown> {
  const [item] = (
    await admin.call(api.explore.items, {
      params: { id },
      body: { data_level: 'image', item_ids: [sampleId] },
    })
  ).items;
  return item!.metadata['image.object_count'];
}

/**
 * Two 100×50 images (classes cat, dog):
 *   s1 (train): s1#o1 cat [10, 10, 20, 20]; s1#o2 dog [50, 0, 40, 50]
 *   s2 (val):   s2#0  cat [0, 0, 100, 50]
 * Predictions on s1: p1 cat 0.9 [12, 12, 20, 20] (matches o1), p2 dog 0.4 [0, 0, 10, 10] (no
 * match).
 */
async function boxes(): Promise<{ id: string; setId: string }> {
  const id = await createDataset({
    name: `Boxes ${Math.random()}`,
    task_type: 'object_detection',
  });
  const bytes = (await testImage(1, 'png', 100, 50)).bytes;
  const { key: image } = await admin.call(api.media.upload, {
    params: { id },
    body: bytes,
    contentType: 'image/png',
  });
  await upload(id, [
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

describe('update_label on objects', () => {
  it('relabels ground-truth objects; match status follows, predictions cannot be relabelled', async () => {
    const { id, setId } = await boxes();
    const level = { data_level: 'image_object' as const };
    const objectLabel = (value: string[]): Filter => ({
      type: 'string',
      metadata_id: 'object.label',
      op: 'in',
      value,
    });
    expect(await ids(id, { ...level, filter: objectLabel(['dog']) })).toEqual(['s1#o2']);
    expect(await ids(id, { ...level, predictions_id: setId, filter: matched(true) })).toEqual([
      's1#o1',
      'pred:s1#p1',
    ]);
    const builds = t.services.explore.tableBuilds;
    const answer = await apply({
      type: 'update_label',
      dataset_id: id,
      updates: { dog: ['s1#o1', 's1#o2'] },
    });
    expect(answer.results[0]).toMatchObject({ data_level: 'image_object', item_ids: ['s1#o1'] });
    expect(answer.history[0]).toMatchObject({
      operation_type: 'object.label:edit',
      data_level: 'image_object',
      num_items: 1,
    });
    expect(await ids(id, { ...level, filter: objectLabel(['dog']) })).toEqual(['s1#o1', 's1#o2']);
    // Both tables were patched in place, the one with predictions re-matched on the edited
    // image (o1 is a dog now: p1, a cat, no longer matches it).
    expect(t.services.explore.tableBuilds).toBe(builds);
    expect(await ids(id, { ...level, predictions_id: setId, filter: matched(true) })).toEqual([]);
    expect(t.services.explore.tableBuilds).toBe(builds);
    const record = answer.history[0]!.id;
    expect(await ids(id, { ...level, filter: { type: 'history', record_id: record } })).toEqual([
      's1#o1',
    ]);
    // At the image level the object record selects nothing.
    expect(await ids(id, { filter: { type: 'history', record_id: record } })).toEqual([]);
    const predicted = await refused(
      apply({ type: 'update_label', dataset_id: id, updates: { cat: ['pred:s1#p2'] } }),
    );
    expect(predicted.description).toBe(
      "body.actions[0].updates.cat: 'pred:s1#p2' is a predicted object; only dataset items can be relabelled.",
    );
    const sample = await refused(
      apply({ type: 'update_label', dataset_id: id, updates: { cat: ['s1'] } }),
    );
    expect(sample.description).toBe("body.actions[0].updates.cat: unknown item 's1'.");
  });

  it('moves objects with their image when the image changes split', async () => {
    const { id, setId } = await boxes();
    const level = { data_level: 'image_object' as const };
    const splitIs: Filter = { type: 'string', metadata_id: 'split', op: 'in', value: ['test'] };
    expect(await ids(id, { ...level, filter: splitIs })).toEqual([]);
    expect(await ids(id, { ...level, predictions_id: setId, filter: splitIs })).toEqual([]);
    const builds = t.services.explore.tableBuilds;
    await apply({ type: 'update_split', dataset_id: id, updates: { test: ['s1'] } });
    expect(await ids(id, { ...level, filter: splitIs })).toEqual(['s1#o1', 's1#o2']);
    expect(await ids(id, { ...level, predictions_id: setId, filter: splitIs })).toEqual([
      's1#o1',
      's1#o2',
      'pred:s1#p1',
      'pred:s1#p2',
    ]);
    expect(t.services.explore.tableBuilds).toBe(builds);
  });
});

describe('add_predicted_objects_to_ground_truth', () => {
  it('promotes predicted objects to ground truth once; promoting again changes nothing', async () => {
    const { id, setId } = await boxes();
    const answer = await apply({
      type: 'add_predicted_objects_to_ground_truth',
      predictions_id: setId,
      item_ids: ['pred:s1#p2', 'pred:s1#p2'],
    });
    const created = [`s1#pred:${setId}:p2`];
    expect(answer.dataset_id).toBe(id);
    expect(answer.results[0]).toMatchObject({ data_level: 'image_object', item_ids: created });
    expect(answer.history[0]).toMatchObject({
      operation_type: 'object:create',
      data_level: 'image_object',
      num_items: 1,
    });
    expect((await dataset(id)).objects_count).toBe(4);
    expect(await ids(id, { data_level: 'image_object' })).toEqual([
      's1#o1',
      's1#o2',
      ...created,
      's2#0',
    ]);
    const [object] = (
      await admin.call(api.explore.items, {
        params: { id },
        body: { data_level: 'image_object', item_ids: [created[0]!] },
      })
    ).items;
    expect(object).toMatchObject({
      type: 'gt',
      label: 'dog',
      crop: [0, 0, 0.2, 0.1],
      metadata: { 'object.area': 100, 'object.relative_area': 0.02 },
    });
    expect(await objectCount(id, 's1')).toBe(3);
    // p2 now matches the ground truth made of it.
    expect(
      await ids(id, { data_level: 'image_object', predictions_id: setId, filter: matched(true) }),
    ).toEqual(['s1#o1', ...created, 'pred:s1#p1', 'pred:s1#p2']);

    const again = await apply({
      type: 'add_predicted_objects_to_ground_truth',
      predictions_id: setId,
      item_ids: ['pred:s1#p2'],
    });
    expect(again.results[0]).toMatchObject({ item_ids: [], history_record_id: null });
    expect((await dataset(id)).objects_count).toBe(4);
    // Deleted since, a promotion brings it back.
    await apply({ type: 'delete_items', dataset_id: id, item_ids: [created[0]!] });
    const back = await apply({
      type: 'add_predicted_objects_to_ground_truth',
      predictions_id: setId,
      item_ids: ['pred:s1#p2'],
    });
    expect(back.results[0]!.item_ids).toEqual([created[0]]);
    expect((await dataset(id)).objects_count).toBe(4);
  });

  it('refuses ids that are not predicted objects of the set, and other datasets', async () => {
    const { setId } = await boxes();
    const plain = await refused(
      apply({
        type: 'add_predicted_objects_to_ground_truth',
        predictions_id: setId,
        item_ids: ['s1#o1'],
      }),
    );
    expect(plain.description).toBe(
      "body.actions[0].item_ids: 's1#o1' is not a predicted object (predicted object ids start with 'pred:').",
    );
    const unknown = await refused(
      apply({
        type: 'add_predicted_objects_to_ground_truth',
        predictions_id: setId,
        item_ids: ['pred:s1#p9'],
      }),
    );
    expect(unknown.description).toBe(
      `body.actions[0].item_ids: unknown predicted object 'pred:s1#p9' in prediction set ${setId}.`,
    );
    const noSet = await refused(
      apply({
        type: 'add_predicted_objects_to_ground_truth',
        predictions_id: '00000000-0000-4000-8000-000000000000',
        item_ids: ['pred:s1#p1'],
      }),
    );
    expect(noSet.status).toBe(404);
    const pets = await createDataset({ name: 'Pets', task_type: 'classification' });
    const task = await refused(
      apply(
        { type: 'update_split', dataset_id: pets, updates: { x: ['a'] } },
        { type: 'add_predicted_objects_to_ground_truth', predictions_id: setId, item_ids: ['x'] },
      ),
    );
    expect(task.description).toBe(
      `body.actions[1].predictions_id: every action of a request acts on one dataset (dataset ${pets}).`,
    );
  });
});

describe('access', () => {
  it('needs a signed-in user (401) and a license (403)', async () => {
    const { id } = await pets();
    const body = { actions: [{ type: 'update_split', dataset_id: id, updates: { x: ['a'] } }] };
    const anonymous = await new Client(t.app).call({ method: 'PUT', url: '/api/actions', body });
    expect(anonymous.statusCode).toBe(401);
    const unlicensed = await startTestApp();
    try {
      const user = await setUpInstance(unlicensed.app);
      const response = await user.call({ method: 'PUT', url: '/api/actions', body });
      expect(response.statusCode).toBe(403);
      expect(response.json().description).toContain('A valid license is required');
    } finally {
      await unlicensed.close();
    }
  });
});

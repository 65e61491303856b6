// Subsets on a real server and database: their rules (names, data levels, items, order), live
// counts when items are deleted and restored, the explorer inside a subset, the license gate
// and who may call.
import {
  api,
  SUBSET_MESSAGES,
  type CreateSubsetRequest,
  type HistogramResponse,
  type ItemIdsRequest,
  type UpdateSubsetRequest,
} from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testImage } from '../testing/media.js';
import {
  addUser,
  Client,
  refused,
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

/**
 * Pets, upload order a..f:
 *   id split label weight
 *   a  train cat   4
 *   b  train dog   30
 *   c  val   cat   12
 *   d  val   dog   7
 *   e  test  cat   5
 *   f  test  dog   9
 */
async function pets(name = 'Pets'): Promise<string> {
  const { id } = await admin.call(api.datasets.create, {
    body: { name, task_type: 'classification', class_names: ['cat', 'dog'] },
  });
  const rows: [string, string, string, number][] = [
    ['a', 'train', 'cat', 4],
    ['b', 'train', 'dog', 30],
    ['c', 'val', 'cat', 12],
    ['d', 'val', 'dog', 7],
    ['e', 'test', 'cat', 5],
    ['f', 'test', 'dog', 9],
  ];
  await admin.call(api.samples.upload, {
    params: { id },
    body: {
      samples: rows.map(([sample, split, label, weight]) => ({
        id: sample,
        split,
        label,
        metadata: { weight },
      })),
    },
  });
  return id;
}

/** Two images: s1 with objects s1#o1 (cat) and s1#o2 (dog), s2 with s2#o3 (cat). */
async function boxes(): Promise<string> {
  const { id } = await admin.call(api.datasets.create, {
    body: { name: 'Boxes', task_type: 'object_detection' },
  });
  const { key } = await admin.call(api.media.upload, {
    params: { id },
    body: (await testImage(1, 'png', 100, 50)).bytes,
    contentType: 'image/png',
  });
  await admin.call(api.samples.upload, {
    params: { id },
    body: {
      samples: [
        {
          id: 's1',
          image: key,
          objects: [
            { id: 'o1', label: 'cat', bbox: [10, 10, 20, 20] },
            { id: 'o2', label: 'dog', bbox: [50, 0, 40, 50] },
          ],
        },
        { id: 's2', image: key, objects: [{ id: 'o3', label: 'cat', bbox: [0, 0, 10, 10] }] },
      ],
    },
  });
  return id;
}

const create = (id: string, body: CreateSubsetRequest, client = admin) =>
  client.call(api.subsets.create, { params: { id }, body });
const update = (id: string, subsetId: string, body: UpdateSubsetRequest, client = admin) =>
  client.call(api.subsets.update, { params: { id, subsetId }, body });
const get = (id: string, subsetId: string, client = admin) =>
  client.call(api.subsets.get, { params: { id, subsetId } });
const list = (id: string, client = admin) => client.call(api.subsets.list, { params: { id } });
const remove = (id: string, subsetId: string, client = admin) =>
  client.call(api.subsets.delete, { params: { id, subsetId } });

const ids = async (id: string, body: ItemIdsRequest) => {
  const answer = await admin.call(api.explore.itemIds, {
    params: { id },
    body: { format: 'ids', ...body },
  });
  return { ids: answer.item_ids, total: answer.total, num_items: answer.num_items };
};

/** Deletes samples or objects through the delete action; answers its history record's id. */
async function deleteItems(datasetId: string, itemIds: string[]): Promise<string> {
  const { results } = await admin.call(api.curation.applyActions, {
    body: { actions: [{ type: 'delete_items', dataset_id: datasetId, item_ids: itemIds }] },
  });
  return results[0]!.history_record_id!;
}

/** Restores what a delete record deleted, as the history's restore does. */
async function restore(datasetId: string, recordId: string): Promise<void> {
  await admin.call(api.curation.restore, { params: { id: datasetId, recordId } });
}

describe('create', () => {
  it('creates a subset of items in the order given, each once, and reads it back', async () => {
    const id = await pets();
    const subset = await create(id, {
      name: '  Night shots ',
      description: 'Dark ones',
      data_level: 'image',
      item_ids: ['c', 'a', 'e', 'a', 'c'],
      enabled_for_performance: true,
    });
    expect(subset).toEqual({
      id: expect.any(String),
      name: 'Night shots',
      description: 'Dark ones',
      dataset_id: id,
      data_level: 'image',
      num_items: 3,
      enabled_for_performance: true,
      created: t.clock.now,
      updated: t.clock.now,
    });
    expect(await get(id, subset.id)).toEqual({ ...subset, sample_ids: ['c', 'a', 'e'] });

    // Defaults: no items, no description, not for performance; answered with 201.
    const response = await admin.post(`/api/datasets/${id}/subsets`, {
      name: 'Empty',
      data_level: 'image',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      name: 'Empty',
      description: null,
      num_items: 0,
      enabled_for_performance: false,
    });
  });

  it('lists a dataset’s subsets newest first, with live counts', async () => {
    const id = await pets();
    const first = await create(id, { name: 'First', data_level: 'image', item_ids: ['a'] });
    t.clock.advance(1000);
    const second = await create(id, { name: 'Second', data_level: 'image', item_ids: ['a', 'b'] });
    const other = await pets('Other pets');
    await create(other, { name: 'Elsewhere', data_level: 'image', item_ids: ['a'] });
    const subsets = await list(id);
    expect(subsets.map((s) => [s.id, s.num_items])).toEqual([
      [second.id, 2],
      [first.id, 1],
    ]);
    expect(await list(await pets('Third pets'))).toEqual([]);
  });

  it('refuses empty, reserved and taken names', async () => {
    const id = await pets();
    for (const name of ['', '   ']) {
      const error = await refused(create(id, { name, data_level: 'image' }));
      expect([error.status, error.description]).toEqual([400, SUBSET_MESSAGES.nameRequired]);
    }
    for (const name of ['NONE', 'MULTIPLE', ' NONE ']) {
      const error = await refused(create(id, { name, data_level: 'image' }));
      expect([error.status, error.description]).toEqual([
        400,
        SUBSET_MESSAGES.nameReserved(name.trim()),
      ]);
    }
    await create(id, { name: 'Taken', data_level: 'image' });
    const taken = await refused(create(id, { name: ' Taken', data_level: 'image' }));
    expect([taken.status, taken.description]).toEqual([
      409,
      'Subset with that name already exists.',
    ]);
    // Names are unique within a dataset only.
    const other = await pets('Other pets');
    expect((await create(other, { name: 'Taken', data_level: 'image' })).name).toBe('Taken');
    expect((await list(id)).map((s) => s.name)).toEqual(['Taken']);
  });

  it('refuses a data level the dataset does not have', async () => {
    const id = await pets();
    for (const data_level of ['image_object', 'audio'] as const) {
      const error = await refused(create(id, { name: 'x', data_level }));
      expect(error.status).toBe(400);
      expect(error.description).toContain(`has no ${data_level} level`);
    }
    expect(await list(id)).toEqual([]);
  });

  it('answers the same when the explorer has the level’s table cached, and builds none', async () => {
    const id = await pets();
    await ids(id, { data_level: 'image' }); // the table of this version, cached
    const builds = t.services.explore.tableBuilds;
    const subset = await create(id, { name: 'Cached', data_level: 'image', item_ids: ['f', 'b'] });
    expect((await get(id, subset.id)).sample_ids).toEqual(['f', 'b']);
    // A deletion makes the cached table stale until the explorer reads again; both ways refuse b.
    await deleteItems(id, ['b']);
    const stale = await refused(create(id, { name: 'x', data_level: 'image', item_ids: ['b'] }));
    await ids(id, { data_level: 'image' });
    const current = await refused(create(id, { name: 'x', data_level: 'image', item_ids: ['b'] }));
    for (const error of [stale, current])
      expect([error.status, error.description]).toEqual([
        400,
        "body.item_ids: 1 id names no image item of this dataset (unknown or deleted): 'b'.",
      ]);
    expect(t.services.explore.tableBuilds).toBe(builds + 1);

    const boxesId = await boxes();
    await ids(boxesId, { data_level: 'image_object' });
    const objects = await create(boxesId, {
      name: 'Objects',
      data_level: 'image_object',
      item_ids: ['s2#o3', 's1#o1'],
    });
    expect((await get(boxesId, objects.id)).sample_ids).toEqual(['s2#o3', 's1#o1']);
    const mismatch = await refused(
      create(boxesId, { name: 'y', data_level: 'image_object', item_ids: ['s1'] }),
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.description).toContain(SUBSET_MESSAGES.levelMismatch);
  });

  it('refuses unknown and deleted items, naming the first few, and writes nothing', async () => {
    const id = await pets();
    await deleteItems(id, ['b']);
    const error = await refused(
      create(id, {
        name: 'x',
        data_level: 'image',
        item_ids: ['a', 'x1', 'x2', 'b', 'x3', 'x4', 'x5', 'x6'],
      }),
    );
    expect(error.status).toBe(400);
    expect(error.description).toBe(
      "body.item_ids: 7 ids name no image item of this dataset (unknown or deleted): 'x1', 'x2', 'b', 'x3', 'x4' and 2 more.",
    );
    const one = await refused(create(id, { name: 'x', data_level: 'image', item_ids: ['zz'] }));
    expect(one.description).toContain('1 id names no image item of this dataset');
    // Another dataset's items are unknown here.
    const other = await pets('Other pets');
    await admin.call(api.samples.upload, {
      params: { id: other },
      body: { samples: [{ id: 'g' }] },
    });
    expect(
      (await refused(create(id, { name: 'x', data_level: 'image', item_ids: ['g'] }))).status,
    ).toBe(400);
    expect(await list(id)).toEqual([]);
  });

  it('refuses items of the other data level as a data-level mismatch', async () => {
    const id = await boxes();
    const objects = await create(id, {
      name: 'Cats',
      data_level: 'image_object',
      item_ids: ['s2#o3', 's1#o1'],
    });
    expect((await get(id, objects.id)).sample_ids).toEqual(['s2#o3', 's1#o1']);

    const samplesAsObjects = await refused(
      create(id, { name: 'x', data_level: 'image_object', item_ids: ['s1#o2', 's1', 's2'] }),
    );
    expect(samplesAsObjects.status).toBe(400);
    expect(samplesAsObjects.description).toBe(
      "Data-level mismatch. body.item_ids: 's1', 's2' are items of the image level, not of the subset's image_object level.",
    );
    const objectsAsSamples = await refused(
      create(id, { name: 'x', data_level: 'image', item_ids: ['s1', 's1#o1'] }),
    );
    expect(objectsAsSamples.description).toMatch(/^Data-level mismatch\. .*'s1#o1' is an item/);
    // Predicted objects are not dataset items.
    const predicted = await refused(
      create(id, { name: 'x', data_level: 'image_object', item_ids: ['pred:p1'] }),
    );
    expect(predicted.description).toContain('no image_object item');
    expect((await list(id)).map((s) => s.name)).toEqual(['Cats']);
  });
});

describe('update', () => {
  it('adds items after the others, leaves members in place and ignores unknown removals', async () => {
    const id = await pets();
    const subset = await create(id, { name: 'S', data_level: 'image', item_ids: ['c', 'a'] });
    t.clock.advance(5000);
    const changed = await update(id, subset.id, {
      added_item_ids: ['d', 'a', 'b', 'd'],
      removed_item_ids: ['c', 'not-there', 'f'],
    });
    expect(changed).toEqual({ ...subset, num_items: 3, updated: t.clock.now });
    expect((await get(id, subset.id)).sample_ids).toEqual(['a', 'd', 'b']);
    // Removed and added again: it goes to the end.
    await update(id, subset.id, { removed_item_ids: ['a'] });
    await update(id, subset.id, { added_item_ids: ['a', 'c'] });
    expect((await get(id, subset.id)).sample_ids).toEqual(['d', 'b', 'a', 'c']);
    // Both added and removed in one call: removed.
    await update(id, subset.id, { added_item_ids: ['e'], removed_item_ids: ['e', 'd'] });
    expect((await get(id, subset.id)).sample_ids).toEqual(['b', 'a', 'c']);
  });

  it('checks added items like create, and writes nothing of a refused update', async () => {
    const id = await boxes();
    const subset = await create(id, { name: 'S', data_level: 'image', item_ids: ['s1'] });
    const unknown = await refused(
      update(id, subset.id, { added_item_ids: ['s2', 'nope'], name: 'Renamed' }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.description).toBe(
      "body.added_item_ids: 1 id names no image item of this dataset (unknown or deleted): 'nope'.",
    );
    const mismatch = await refused(update(id, subset.id, { added_item_ids: ['s1#o1'] }));
    expect(mismatch.description).toMatch(/^Data-level mismatch\. body\.added_item_ids: 's1#o1'/);
    expect(await get(id, subset.id)).toEqual({ ...subset, sample_ids: ['s1'] });
  });

  it('renames, describes and toggles performance; the data level stays', async () => {
    const id = await pets();
    const subset = await create(id, { name: 'S', data_level: 'image', item_ids: ['a'] });
    const other = await create(id, { name: 'Other', data_level: 'image' });
    expect(await update(id, subset.id, { name: 'S' })).toMatchObject({ name: 'S' });
    const renamed = await update(id, subset.id, {
      name: ' Renamed ',
      description: 'Why',
      enabled_for_performance: true,
    });
    expect(renamed).toMatchObject({
      name: 'Renamed',
      description: 'Why',
      enabled_for_performance: true,
      data_level: 'image',
      num_items: 1,
    });
    // Absent fields stay; null clears the description.
    expect(await update(id, subset.id, {})).toMatchObject({ name: 'Renamed', description: 'Why' });
    expect(await update(id, subset.id, { description: null })).toMatchObject({
      description: null,
      enabled_for_performance: true,
    });
    const taken = await refused(update(id, subset.id, { name: 'Other' }));
    expect([taken.status, taken.description]).toEqual([409, SUBSET_MESSAGES.nameTaken]);
    for (const name of ['', 'MULTIPLE']) {
      expect((await refused(update(id, other.id, { name }))).status).toBe(400);
    }
    // A data level in the body is not a field of an update: it is left as it was.
    const response = await admin.put(`/api/datasets/${id}/subsets/${subset.id}`, {
      data_level: 'audio',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ data_level: 'image' });
  });
});

describe('delete', () => {
  it('deletes a subset and its membership, not the items', async () => {
    const id = await pets();
    const subset = await create(id, { name: 'S', data_level: 'image', item_ids: ['a', 'b'] });
    const kept = await create(id, { name: 'Kept', data_level: 'image', item_ids: ['a'] });
    expect(await remove(id, subset.id)).toEqual({ ok: true });
    expect((await list(id)).map((s) => s.id)).toEqual([kept.id]);
    expect((await refused(get(id, subset.id))).status).toBe(404);
    const rows = await t.database.db
      .selectFrom('subset_items')
      .select('item_id')
      .where('subset_id', '=', subset.id)
      .execute();
    expect(rows).toEqual([]);
    expect((await ids(id, { data_level: 'image' })).ids).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    const again = await refused(remove(id, subset.id));
    expect([again.status, again.description]).toEqual([404, 'Subset not found']);
  });

  it('goes with its dataset', async () => {
    const id = await pets();
    const subset = await create(id, { name: 'S', data_level: 'image', item_ids: ['a', 'b'] });
    await admin.call(api.datasets.delete, { params: { id } });
    const { db } = t.database;
    expect(await db.selectFrom('subsets').select('id').execute()).toEqual([]);
    expect(
      await db
        .selectFrom('subset_items')
        .select('item_id')
        .where('subset_id', '=', subset.id)
        .execute(),
    ).toEqual([]);
    expect((await refused(list(id))).status).toBe(404);
  });
});

describe('not found', () => {
  it('answers 404 for unknown datasets and subsets, and subsets of another dataset', async () => {
    const id = await pets();
    const other = await pets('Other pets');
    const subset = await create(id, { name: 'S', data_level: 'image', item_ids: ['a'] });
    const calls = [
      () => get(other, subset.id),
      () => update(other, subset.id, { name: 'x' }),
      () => remove(other, subset.id),
      () => get(id, MISSING),
      () => update(id, MISSING, { added_item_ids: ['a'] }),
      () => remove(id, MISSING),
    ];
    for (const call of calls) {
      const error = await refused(call());
      expect([error.status, error.description]).toEqual([404, 'Subset not found']);
    }
    for (const call of [
      () => list(MISSING),
      () => get(MISSING, subset.id),
      () => create(MISSING, { name: 'x', data_level: 'image' }),
      () => update(MISSING, subset.id, {}),
      () => remove(MISSING, subset.id),
    ])
      expect((await refused(call())).status).toBe(404);
    // The subset of the other dataset was left alone.
    expect(await get(id, subset.id)).toMatchObject({ name: 'S', sample_ids: ['a'] });
    const malformed = await admin.get(`/api/datasets/${id}/subsets/not-a-uuid`);
    expect(malformed.statusCode).toBe(400);
  });
});

describe('live items', () => {
  it('counts and lists only live samples, and a restore brings them back', async () => {
    const id = await pets();
    const subset = await create(id, {
      name: 'S',
      data_level: 'image',
      item_ids: ['e', 'b', 'a', 'c'],
    });
    const deletion = await deleteItems(id, ['b', 'c']);
    expect(await get(id, subset.id)).toMatchObject({ num_items: 2, sample_ids: ['e', 'a'] });
    expect((await list(id))[0]!.num_items).toBe(2);
    expect(await ids(id, { data_level: 'image', subset_id: subset.id })).toEqual({
      ids: ['a', 'e'],
      total: 2,
      num_items: 2,
    });
    // A deleted member stays a member: adding it again is refused, removing it works.
    expect((await refused(update(id, subset.id, { added_item_ids: ['b'] }))).description).toContain(
      "'b'",
    );
    expect(await update(id, subset.id, { removed_item_ids: ['c'] })).toMatchObject({
      num_items: 2,
    });
    await restore(id, deletion);
    expect(await get(id, subset.id)).toMatchObject({ num_items: 3, sample_ids: ['e', 'b', 'a'] });
    expect((await ids(id, { data_level: 'image', subset_id: subset.id })).ids).toEqual([
      'a',
      'b',
      'e',
    ]);
  });

  it('knows the deleted samples of a large dataset with few of them deleted, and uploads again', async () => {
    // Few deletions among many samples take another path on PostgreSQL (see deletedSamples).
    const { id } = await admin.call(api.datasets.create, {
      body: { name: 'Many', task_type: 'classification', class_names: ['cat', 'dog'] },
    });
    const names = Array.from({ length: 60 }, (_, i) => `s${i}`);
    const upload = (ids: string[], label = 'cat') =>
      admin.call(api.samples.upload, {
        params: { id },
        body: { samples: ids.map((sample) => ({ id: sample, label })) },
      });
    await upload(names);
    const subset = await create(id, {
      name: 'S',
      data_level: 'image',
      item_ids: ['s3', 's1', 's2'],
    });
    await deleteItems(id, ['s1', 's2']);
    expect(await get(id, subset.id)).toMatchObject({ num_items: 1, sample_ids: ['s3'] });
    expect((await list(id))[0]!.num_items).toBe(1);
    await upload(['s2'], 'dog'); // back by an upload, its deletion not restored
    expect(await get(id, subset.id)).toMatchObject({ num_items: 2, sample_ids: ['s3', 's2'] });
    expect((await list(id))[0]!.num_items).toBe(2);
  });

  it('counts an object only while it and its sample are live', async () => {
    const id = await boxes();
    const subset = await create(id, {
      name: 'Objects',
      data_level: 'image_object',
      item_ids: ['s1#o1', 's1#o2', 's2#o3'],
    });
    await deleteItems(id, ['s1#o2']);
    expect(await get(id, subset.id)).toMatchObject({
      num_items: 2,
      sample_ids: ['s1#o1', 's2#o3'],
    });
    const deletion = await deleteItems(id, ['s2']);
    expect(await get(id, subset.id)).toMatchObject({ num_items: 1, sample_ids: ['s1#o1'] });
    expect((await list(id))[0]!.num_items).toBe(1);
    expect(await ids(id, { data_level: 'image_object', subset_id: subset.id })).toEqual({
      ids: ['s1#o1'],
      total: 1,
      num_items: 1,
    });
    await restore(id, deletion);
    expect((await get(id, subset.id)).sample_ids).toEqual(['s1#o1', 's2#o3']);
  });
});

describe('explore inside a subset', () => {
  it('keeps item ids and histograms to the subset, with filter and sort', async () => {
    const id = await pets();
    const subset = await create(id, {
      name: 'S',
      data_level: 'image',
      item_ids: ['f', 'b', 'c', 'e'],
    });
    const inside = { data_level: 'image' as const, subset_id: subset.id };
    expect(await ids(id, inside)).toEqual({ ids: ['b', 'c', 'e', 'f'], total: 4, num_items: 4 });
    expect(
      (await ids(id, { ...inside, sort: [{ name: 'weight', direction: 'descending' }] })).ids,
    ).toEqual(['b', 'c', 'f', 'e']);
    const cats = {
      type: 'string' as const,
      metadata_id: 'label',
      op: 'in' as const,
      value: ['cat'],
    };
    expect(await ids(id, { ...inside, filter: cats })).toEqual({
      ids: ['c', 'e'],
      total: 2,
      num_items: 4,
    });
    // The filter's rows were kept to the subset without changing the subset's own rows.
    expect((await ids(id, inside)).ids).toEqual(['b', 'c', 'e', 'f']);
    // The rows answer (the grid's format) holds the same rows.
    const rows = await admin.call(api.explore.itemIds, {
      params: { id },
      body: { ...inside, format: 'rows' },
    });
    expect([rows.total, rows.num_items]).toEqual([4, 4]);

    const histogram = async (body: { filter?: typeof cats }): Promise<HistogramResponse> =>
      admin.call(api.explore.histogram, {
        params: { id },
        body: { metadata_id: 'label', ...inside, ...body },
      });
    const counts = (answer: HistogramResponse) =>
      Object.fromEntries(
        (answer.counts_per_bin as { category: string; count: Record<string, number> }[]).map(
          (bin) => [bin.category, bin.count.all],
        ),
      );
    expect(counts(await histogram({}))).toEqual({ cat: 2, dog: 2 });
    expect(counts(await histogram({ filter: cats }))).toEqual({ cat: 2 });

    // A change to the subset shows at once (its rows are cached by its change stamp).
    await update(id, subset.id, { added_item_ids: ['a'], removed_item_ids: ['f'] });
    expect(await ids(id, inside)).toEqual({ ids: ['a', 'b', 'c', 'e'], total: 4, num_items: 4 });
    expect(counts(await histogram({}))).toEqual({ cat: 3, dog: 1 });
  });

  it('refuses unknown subsets, subsets of another dataset and another data level', async () => {
    const id = await boxes();
    const objects = await create(id, {
      name: 'Objects',
      data_level: 'image_object',
      item_ids: ['s1#o1'],
    });
    const other = await pets();
    const foreign = await create(other, { name: 'Pets', data_level: 'image', item_ids: ['a'] });
    for (const subset_id of ['s1', MISSING, foreign.id]) {
      const error = await refused(ids(id, { data_level: 'image', subset_id }));
      expect([error.status, error.description]).toEqual([404, 'Subset not found']);
      const histogram = await refused(
        admin.call(api.explore.histogram, {
          params: { id },
          body: { metadata_id: 'split', data_level: 'image', subset_id },
        }),
      );
      expect([histogram.status, histogram.description]).toEqual([404, 'Subset not found']);
    }
    const level = await refused(ids(id, { data_level: 'image', subset_id: objects.id }));
    expect([level.status, level.description]).toEqual([
      400,
      'Subset data level cannot be changed.',
    ]);
    const histogram = await refused(
      admin.call(api.explore.histogram, {
        params: { id },
        body: { metadata_id: 'split', data_level: 'image', subset_id: objects.id },
      }),
    );
    expect([histogram.status, histogram.description]).toEqual([400, SUBSET_MESSAGES.levelFixed]);
  });
});

describe('who may call', () => {
  it('lets members curate like admins, and refuses anonymous callers', async () => {
    const id = await pets();
    const { client: member } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const subset = await create(id, { name: 'Mine', data_level: 'image', item_ids: ['a'] }, member);
    expect(await update(id, subset.id, { added_item_ids: ['b'] }, member)).toMatchObject({
      num_items: 2,
    });
    expect((await list(id, member)).map((s) => s.name)).toEqual(['Mine']);
    const anonymous = new Client(t.app);
    for (const call of [
      () => list(id, anonymous),
      () => get(id, subset.id, anonymous),
      () => create(id, { name: 'x', data_level: 'image' }, anonymous),
      () => update(id, subset.id, {}, anonymous),
      () => remove(id, subset.id, anonymous),
    ])
      expect((await refused(call())).status).toBe(401);
    expect(await remove(id, subset.id, member)).toEqual({ ok: true });
  });

  it('needs a license to write, never to read', async () => {
    const unlicensed = await startTestApp();
    try {
      const client = await setUpInstance(unlicensed.app);
      const system = systemActor('test');
      const { services } = unlicensed;
      const { dataset } = await services.datasets.create(system, {
        name: 'Free',
        task_type: 'classification',
        description: '',
        class_names: [],
        value_names: [],
      } as never);
      await services.samples.upload(system, dataset.id, [{ id: 'a' }, { id: 'b' }]);
      const subset = await services.subsets.create(system, dataset.id, {
        name: 'Seeded',
        data_level: 'image',
        item_ids: ['a'],
        enabled_for_performance: false,
      });
      const params = { id: dataset.id, subsetId: subset.id };
      for (const call of [
        () => create(dataset.id, { name: 'x', data_level: 'image' }, client),
        () => update(dataset.id, subset.id, { added_item_ids: ['b'] }, client),
        () => update(dataset.id, subset.id, { name: 'Renamed' }, client),
        () => remove(dataset.id, subset.id, client),
      ]) {
        const error = await refused(call());
        expect(error.status).toBe(403);
        expect(error.description).toContain('A valid license is required to');
      }
      expect(await client.call(api.subsets.get, { params })).toMatchObject({
        name: 'Seeded',
        sample_ids: ['a'],
      });
      expect((await list(dataset.id, client)).map((s) => s.num_items)).toEqual([1]);
    } finally {
      await unlicensed.close();
    }
  });
});

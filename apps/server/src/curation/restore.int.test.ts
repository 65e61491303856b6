// Restoring a delete record from the version history on a real server and database: what comes
// back (only what the record still holds deleted), counts, the history's restore state, the
// history filter, and the refusals.
import { api, type CreateDatasetRequest, type ItemAction } from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testImage } from '../testing/media.js';
import {
  Client,
  refused,
  setUpInstance,
  startLicensedApp,
  startTestApp,
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

const apply = (...actions: ItemAction[]) =>
  admin.call(api.curation.applyActions, { body: { actions } });

const restore = (id: string, recordId: string) =>
  admin.call(api.curation.restore, { params: { id, recordId } });

const ids = async (id: string, body: Record<string, unknown> = {}) =>
  (
    await admin.call(api.explore.itemIds, {
      params: { id },
      body: { data_level: 'image', format: 'ids', ...body },
    })
  ).item_ids!;

const dataset = (id: string) => admin.call(api.datasets.get, { params: { id } });
const history = (id: string) => admin.call(api.datasets.history, { params: { id } });

async function pets(): Promise<string> {
  const id = await createDataset({
    name: 'Pets',
    task_type: 'classification',
    class_names: ['cat', 'dog'],
  });
  await upload(id, [
    { id: 'a', split: 'train', label: 'cat' },
    { id: 'b', split: 'train', label: 'dog' },
    { id: 'c', split: 'val', label: 'cat' },
    { id: 'd', split: 'test', label: 'dog' },
  ]);
  return id;
}

describe('restoring deleted samples', () => {
  it('brings them back, writes a sample:restore record and marks the delete record restored', async () => {
    const id = await pets();
    const deleted = await apply({ type: 'delete_items', dataset_id: id, item_ids: ['b', 'd'] });
    const deleteId = deleted.history[0]!.id;
    expect(await ids(id)).toEqual(['a', 'c']);
    expect((await dataset(id)).splits).toEqual(['train', 'val']);
    t.clock.advance(1000);

    const answer = await restore(id, deleteId);
    expect(answer.restored).toBe(2);
    expect(answer.record).toEqual({
      id: expect.any(String),
      timestamp: t.clock.now,
      num_items: 2,
      data_level: 'image',
      operation_type: 'sample:restore',
      user_name: 'Ana Admin',
      restorable: false,
      restored_by: null,
      items_deleted: false,
    });
    expect(await ids(id)).toEqual(['a', 'b', 'c', 'd']);
    const ds = await dataset(id);
    expect(ds.samples_count).toBe(4);
    expect(ds.splits).toEqual(['test', 'train', 'val']);

    const records = await history(id);
    expect(records[0]).toEqual(answer.record);
    expect(records.find((r) => r.id === deleteId)).toMatchObject({
      operation_type: 'sample:delete',
      restorable: false,
      restored_by: answer.record.id,
      items_deleted: false,
    });
    // Both records now select the items back in the table.
    for (const record of [answer.record.id, deleteId])
      expect(await ids(id, { filter: { type: 'history', record_id: record } })).toEqual(['b', 'd']);

    const again = await refused(restore(id, deleteId));
    expect(again.status).toBe(409);
    expect(again.description).toBe('This deletion was already restored.');
  });

  it('restores only the items the record still holds deleted', async () => {
    const id = await pets();
    const first = (await apply({ type: 'delete_items', dataset_id: id, item_ids: ['a', 'b'] }))
      .history[0]!;
    // a comes back by a new upload and is deleted again by a later record: it is that one's.
    t.clock.advance(1000);
    await upload(id, [{ id: 'a', split: 'train', label: 'dog' }]);
    t.clock.advance(1000);
    const second = (await apply({ type: 'delete_items', dataset_id: id, item_ids: ['a'] }))
      .history[0]!;
    t.clock.advance(1000);
    const partial = await restore(id, first.id);
    expect(partial.restored).toBe(1);
    expect(await ids(id)).toEqual(['b', 'c', 'd']);
    // The restore record holds the item it brought back, not every item of the deletion.
    expect(await ids(id, { filter: { type: 'history', record_id: partial.record.id } })).toEqual([
      'b',
    ]);
    expect((await restore(id, second.id)).restored).toBe(1);
    expect(await ids(id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('has nothing to restore when the items came back by an upload', async () => {
    const id = await pets();
    const record = (await apply({ type: 'delete_items', dataset_id: id, item_ids: ['c'] }))
      .history[0]!;
    t.clock.advance(1000);
    await upload(id, [{ id: 'c', split: 'val', label: 'dog' }]);
    expect((await history(id)).find((r) => r.id === record.id)).toMatchObject({
      restorable: false,
      items_deleted: false,
    });
    const refusal = await refused(restore(id, record.id));
    expect(refusal.status).toBe(409);
    expect(refusal.description).toBe(
      'Nothing to restore: the items of this deletion are no longer deleted by it.',
    );
  });

  it('marks edit and upload records whose items are all deleted', async () => {
    const id = await pets();
    const [created] = await history(id);
    const edit = (await apply({ type: 'update_label', dataset_id: id, updates: { dog: ['a'] } }))
      .history[0]!;
    expect(edit.items_deleted).toBe(false);
    await apply({ type: 'delete_items', dataset_id: id, item_ids: ['a', 'b', 'c'] });
    let records = await history(id);
    expect(records.find((r) => r.id === edit.id)).toMatchObject({
      items_deleted: true,
      restorable: false,
    });
    expect(records.find((r) => r.id === created!.id)!.items_deleted).toBe(false);
    await apply({ type: 'delete_items', dataset_id: id, item_ids: ['d'] });
    records = await history(id);
    expect(records.find((r) => r.id === created!.id)!.items_deleted).toBe(true);
  });

  it('refuses records that are not deletions (400), unknown ones (404) and other datasets', async () => {
    const id = await pets();
    const [upload] = await history(id);
    const notDelete = await refused(restore(id, upload!.id));
    expect(notDelete.status).toBe(400);
    expect(notDelete.description).toBe(
      'Only a deletion can be restored: this record is a sample:create.',
    );
    const unknown = await refused(restore(id, '00000000-0000-4000-8000-000000000000'));
    expect(unknown.status).toBe(404);
    expect(unknown.description).toBe(
      "No history record with id '00000000-0000-4000-8000-000000000000' in this dataset.",
    );
    const other = await createDataset({ name: 'Other', task_type: 'classification' });
    const deleted = await apply({ type: 'delete_items', dataset_id: id, item_ids: ['a'] });
    const elsewhere = await refused(restore(other, deleted.history[0]!.id));
    expect(elsewhere.status).toBe(404);
    const noDataset = await refused(
      restore('00000000-0000-4000-8000-000000000000', deleted.history[0]!.id),
    );
    expect(noDataset.status).toBe(404);
  });

  it('needs a signed-in user (401) and a license (403)', async () => {
    const id = await pets();
    const deleted = await apply({ type: 'delete_items', dataset_id: id, item_ids: ['a'] });
    const url = `/api/datasets/${id}/history/${deleted.history[0]!.id}/restore`;
    const anonymous = await new Client(t.app).call({ method: 'POST', url });
    expect(anonymous.statusCode).toBe(401);
    const unlicensed = await startTestApp();
    try {
      const user = await setUpInstance(unlicensed.app);
      const response = await user.call({ method: 'POST', url });
      expect(response.statusCode).toBe(403);
    } finally {
      await unlicensed.close();
    }
  });
});

describe('restoring deleted objects', () => {
  it('brings objects back at the object level, and samples with their objects', async () => {
    const id = await createDataset({ name: 'Boxes', task_type: 'object_detection' });
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
        objects: [
          { id: 'o1', label: 'cat', bbox: [10, 10, 20, 20] },
          { id: 'o2', label: 'dog', bbox: [50, 0, 40, 50] },
        ],
      },
      { id: 's2', image, objects: [{ id: 'o1', label: 'cat', bbox: [0, 0, 10, 10] }] },
    ]);
    await t.runner.drain();
    const objectCount = async () =>
      (
        await admin.call(api.explore.items, {
          params: { id },
          body: { data_level: 'image', item_ids: ['s1'] },
        })
      ).items[0]!.metadata['image.object_count'];
    const objects = await apply({
      type: 'delete_items',
      dataset_id: id,
      item_ids: ['s1#o1', 's1#o2'],
    });
    expect(await objectCount()).toBe(0);
    t.clock.advance(1000);
    const samples = await apply({ type: 'delete_items', dataset_id: id, item_ids: ['s2'] });
    expect(await dataset(id)).toMatchObject({ samples_count: 1, objects_count: 0 });
    t.clock.advance(1000);

    const back = await restore(id, objects.history[0]!.id);
    expect(back.record).toMatchObject({
      operation_type: 'sample:restore',
      data_level: 'image_object',
      num_items: 2,
    });
    expect(await ids(id, { data_level: 'image_object' })).toEqual(['s1#o1', 's1#o2']);
    expect(await objectCount()).toBe(2);
    expect(await dataset(id)).toMatchObject({ samples_count: 1, objects_count: 2 });
    expect(
      await ids(id, {
        data_level: 'image_object',
        filter: { type: 'history', record_id: back.record.id },
      }),
    ).toEqual(['s1#o1', 's1#o2']);

    await restore(id, samples.history[0]!.id);
    expect(await dataset(id)).toMatchObject({ samples_count: 2, objects_count: 3 });
    expect(await ids(id, { data_level: 'image_object' })).toEqual(['s1#o1', 's1#o2', 's2#o1']);
  });
});

// The queue as data: what changes say, how they join the queue, and the requests that apply it.
import { describe, expect, test } from 'vitest';
import {
  addChange,
  changedSince,
  describeChange,
  discardItems,
  failureMessage,
  resolveNewSubset,
  resolveNewSubsetIn,
  revertTo,
  toRequests,
  type PendingChange,
  type PendingChangeInput,
} from './pendingChanges';

const DATASET = '3f1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a10';
const PREDICTIONS = '9a1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a10';
const night = { id: 'sub-night', name: 'night' };
const day = { id: 'sub-day', name: 'day' };

function queueOf(...inputs: PendingChangeInput[]): PendingChange[] {
  let n = 0;
  return inputs.reduce<PendingChange[]>(
    (queue, input) => addChange(queue, input, () => `c${++n}`),
    [],
  );
}

describe('describeChange', () => {
  test('says what each kind of change will do, in the product voice', () => {
    const base = { id: 'c', itemIds: ['a'] };
    expect(
      describeChange({ ...base, kind: 'add_to_subset', subset: night, dataLevel: 'image' }),
    ).toBe('will be added to subset "night"');
    expect(
      describeChange({
        ...base,
        kind: 'add_to_subset',
        subset: { newName: 'rainy' },
        dataLevel: 'image',
      }),
    ).toBe('will be added to subset "rainy"');
    expect(
      describeChange({ ...base, kind: 'remove_from_subset', subset: night, dataLevel: 'image' }),
    ).toBe('will be removed from subset "night"');
    expect(
      describeChange({
        ...base,
        kind: 'move_to_subset',
        from: night,
        to: day,
        dataLevel: 'image',
      }),
    ).toBe('will be moved to subset "day"');
    expect(
      describeChange({ ...base, kind: 'update_label', label: 'car', dataLevel: 'image' }),
    ).toBe('will be labelled "car"');
    expect(describeChange({ ...base, kind: 'update_split', split: 'val', isNew: true })).toBe(
      'will be moved to split "val"',
    );
    expect(describeChange({ ...base, kind: 'delete', dataLevel: 'image' })).toBe('will be deleted');
    expect(describeChange({ ...base, kind: 'promote', predictionsId: PREDICTIONS })).toBe(
      'will be added as ground truth',
    );
  });

  test('with a count it is a sentence about that many items', () => {
    const change = { kind: 'delete', dataLevel: 'image' } as const;
    expect(describeChange(change, 1)).toBe('1 item will be deleted');
    expect(describeChange(change, 1200)).toBe('1,200 items will be deleted');
  });
});

describe('addChange', () => {
  test('the same action merges its items once; a different one is a new change', () => {
    const queue = queueOf(
      { kind: 'update_label', label: 'car', dataLevel: 'image', itemIds: ['a', 'b'] },
      { kind: 'update_label', label: 'car', dataLevel: 'image', itemIds: ['b', 'c'] },
      { kind: 'add_to_subset', subset: night, dataLevel: 'image', itemIds: ['a'] },
    );
    expect(queue.map((change) => [change.id, change.kind, change.itemIds])).toEqual([
      ['c1', 'update_label', ['a', 'b', 'c']],
      ['c2', 'add_to_subset', ['a']],
    ]);
  });

  test('a later label wins: the item leaves the earlier label change, which goes when empty', () => {
    const queue = queueOf(
      { kind: 'update_label', label: 'car', dataLevel: 'image', itemIds: ['a', 'b'] },
      { kind: 'update_split', split: 'train', isNew: false, itemIds: ['a'] },
      { kind: 'update_label', label: 'person', dataLevel: 'image', itemIds: ['a'] },
      { kind: 'update_label', label: 'bus', dataLevel: 'image', itemIds: ['b'] },
    );
    expect(queue.map((change) => [change.kind, change.itemIds])).toEqual([
      ['update_split', ['a']],
      ['update_label', ['a']],
      ['update_label', ['b']],
    ]);
    expect(queue.map((change) => (change.kind === 'update_label' ? change.label : null))).toEqual([
      null,
      'person',
      'bus',
    ]);
  });

  test("deleting a sample drops its objects' pending changes and its own edits", () => {
    const queue = queueOf(
      {
        kind: 'update_label',
        label: 'car',
        dataLevel: 'image_object',
        itemIds: ['s1#o1', 's2#o1'],
        sampleOf: { 's1#o1': 's1', 's2#o1': 's2' },
      },
      {
        kind: 'delete',
        dataLevel: 'image_object',
        itemIds: ['s1#o2'],
        sampleOf: { 's1#o2': 's1' },
      },
      { kind: 'update_split', split: 'test', isNew: false, itemIds: ['s1', 's3'] },
      { kind: 'add_to_subset', subset: night, dataLevel: 'image', itemIds: ['s1'] },
      { kind: 'delete', dataLevel: 'image', itemIds: ['s1'] },
    );
    expect(queue.map((change) => [change.kind, change.itemIds])).toEqual([
      ['update_label', ['s2#o1']],
      ['update_split', ['s3']],
      // The sample stays a member of the subset: a restore brings it back there.
      ['add_to_subset', ['s1']],
      ['delete', ['s1']],
    ]);
    expect(queue[0]!.sampleOf).toEqual({ 's2#o1': 's2' });
  });

  test('deleting objects leaves other objects of the sample alone', () => {
    const queue = queueOf(
      {
        kind: 'update_label',
        label: 'car',
        dataLevel: 'image_object',
        itemIds: ['s1#o1'],
        sampleOf: { 's1#o1': 's1' },
      },
      {
        kind: 'delete',
        dataLevel: 'image_object',
        itemIds: ['s1#o2'],
        sampleOf: { 's1#o2': 's1' },
      },
    );
    expect(queue.map((change) => change.kind)).toEqual(['update_label', 'delete']);
  });
});

describe('discardItems', () => {
  const queue = queueOf(
    { kind: 'update_label', label: 'car', dataLevel: 'image', itemIds: ['s1', 's2'] },
    {
      kind: 'delete',
      dataLevel: 'image_object',
      itemIds: ['s1#o1'],
      sampleOf: { 's1#o1': 's1' },
    },
  );

  test("drops an item's changes and changes left empty", () => {
    expect(discardItems(queue, ['s1']).map((change) => change.itemIds)).toEqual([
      ['s2'],
      ['s1#o1'],
    ]);
    expect(discardItems(queue, ['s1#o1']).map((change) => change.itemIds)).toEqual([['s1', 's2']]);
  });

  test("with samples, a sample's objects' changes go too", () => {
    expect(discardItems(queue, ['s1'], { samples: true }).map((c) => c.itemIds)).toEqual([['s2']]);
  });
});

describe('toRequests', () => {
  test('creates queued subsets first, then updates subsets, then samples, then objects', () => {
    const queue = queueOf(
      {
        kind: 'delete',
        dataLevel: 'image_object',
        itemIds: ['s4#o1'],
        sampleOf: { 's4#o1': 's4' },
      },
      { kind: 'update_label', label: 'car', dataLevel: 'image', itemIds: ['s1', 's2'] },
      { kind: 'add_to_subset', subset: { newName: 'rainy' }, dataLevel: 'image', itemIds: ['s1'] },
      { kind: 'move_to_subset', from: night, to: day, dataLevel: 'image', itemIds: ['s2'] },
      {
        kind: 'move_to_subset',
        from: night,
        to: { newName: 'rainy' },
        dataLevel: 'image',
        itemIds: ['s3'],
      },
      { kind: 'update_split', split: 'holdout', isNew: true, itemIds: ['s2'] },
      { kind: 'delete', dataLevel: 'image', itemIds: ['s5'] },
      { kind: 'promote', predictionsId: PREDICTIONS, itemIds: ['pred:p1', 'pred:p2'] },
      {
        kind: 'update_label',
        label: 'person',
        dataLevel: 'image_object',
        itemIds: ['s4#o2'],
        sampleOf: { 's4#o2': 's4' },
      },
    );
    const steps = toRequests(queue, DATASET);
    expect(steps.map((step) => step.kind)).toEqual([
      'create_subset',
      'update_subset',
      'update_subset',
      'apply_actions',
      'apply_actions',
    ]);
    const [create, toDay, fromNight, samples, objects] = steps;
    expect(create).toMatchObject({
      newName: 'rainy',
      body: { name: 'rainy', data_level: 'image', item_ids: ['s1', 's3'] },
    });
    expect(toDay).toMatchObject({
      subset: day,
      body: { added_item_ids: ['s2'], removed_item_ids: [] },
    });
    expect(fromNight).toMatchObject({
      subset: night,
      body: { added_item_ids: [], removed_item_ids: ['s2', 's3'] },
    });
    expect(samples).toMatchObject({
      level: 'samples',
      body: {
        actions: [
          { type: 'update_label', dataset_id: DATASET, updates: { car: ['s1', 's2'] } },
          { type: 'update_split', dataset_id: DATASET, updates: { holdout: ['s2'] } },
          { type: 'delete_items', dataset_id: DATASET, item_ids: ['s5'] },
        ],
      },
    });
    expect(objects).toMatchObject({
      level: 'objects',
      body: {
        actions: [
          { type: 'update_label', dataset_id: DATASET, updates: { person: ['s4#o2'] } },
          {
            type: 'add_predicted_objects_to_ground_truth',
            predictions_id: PREDICTIONS,
            item_ids: ['pred:p1', 'pred:p2'],
          },
          { type: 'delete_items', dataset_id: DATASET, item_ids: ['s4#o1'] },
        ],
      },
    });
    // A move belongs to both subsets' requests; every change is carried by some request.
    const carried = new Set(steps.flatMap((step) => step.changeIds));
    expect([...carried].sort()).toEqual(queue.map((change) => change.id).sort());
    expect(create!.changeIds).toEqual(['c3', 'c5']);
    expect(fromNight!.changeIds).toEqual(['c4', 'c5']);
  });

  test('an item added to and removed from one subset ends as the later change says', () => {
    const queue = queueOf(
      { kind: 'add_to_subset', subset: night, dataLevel: 'image', itemIds: ['a', 'b'] },
      { kind: 'remove_from_subset', subset: night, dataLevel: 'image', itemIds: ['b'] },
    );
    expect(toRequests(queue, DATASET)).toMatchObject([
      { kind: 'update_subset', body: { added_item_ids: ['a'], removed_item_ids: ['b'] } },
    ]);
  });

  test('only sample actions, or only object actions, make one request', () => {
    const samples = queueOf({ kind: 'delete', dataLevel: 'audio', itemIds: ['clip'] });
    expect(toRequests(samples, DATASET)).toMatchObject([
      { kind: 'apply_actions', level: 'samples' },
    ]);
    expect(toRequests([], DATASET)).toEqual([]);
  });

  test('a created subset is named by id from then on', () => {
    const queue = queueOf({
      kind: 'add_to_subset',
      subset: { newName: 'rainy' },
      dataLevel: 'image',
      itemIds: ['s1'],
    });
    const resolved = resolveNewSubset(queue, 'rainy', { id: 'sub-rainy', name: 'rainy' });
    expect(toRequests(resolved, DATASET)).toMatchObject([
      { kind: 'update_subset', subset: { id: 'sub-rainy' }, body: { added_item_ids: ['s1'] } },
    ]);
    // The action repeated later ('Apply last action') adds to it too, rather than creating it again.
    const action = {
      kind: 'add_to_subset',
      subset: { newName: 'rainy' },
      dataLevel: 'image',
    } as const;
    expect(resolveNewSubsetIn(action, 'rainy', { id: 'sub-rainy', name: 'rainy' })).toEqual({
      ...action,
      subset: { id: 'sub-rainy', name: 'rainy' },
    });
  });
});

describe('failureMessage', () => {
  test('names what failed in the product words where one action failed', () => {
    const [deleteStep] = toRequests(
      queueOf({ kind: 'delete', dataLevel: 'image', itemIds: ['a', 'b'] }),
      DATASET,
    );
    expect(failureMessage(deleteStep!)).toBe('Failed to delete 2 items');
    const [labelStep] = toRequests(
      queueOf({ kind: 'update_label', label: 'car', dataLevel: 'image', itemIds: ['a'] }),
      DATASET,
    );
    expect(failureMessage(labelStep!)).toBe('Failed to update 1 items to label "car"');
    const [addStep] = toRequests(
      queueOf({ kind: 'add_to_subset', subset: night, dataLevel: 'image', itemIds: ['a'] }),
      DATASET,
    );
    expect(failureMessage(addStep!)).toBe('Failed adding 1 items to night');
    const [createStep] = toRequests(
      queueOf({
        kind: 'add_to_subset',
        subset: { newName: 'x' },
        dataLevel: 'image',
        itemIds: ['a'],
      }),
      DATASET,
    );
    expect(failureMessage(createStep!)).toBe('Failed to create subset');
    const [removeStep] = toRequests(
      queueOf({ kind: 'remove_from_subset', subset: night, dataLevel: 'image', itemIds: ['a'] }),
      DATASET,
    );
    expect(failureMessage(removeStep!)).toBe('Failed updating subset');
    const [mixed] = toRequests(
      queueOf(
        { kind: 'delete', dataLevel: 'image', itemIds: ['a'] },
        { kind: 'update_split', split: 'x', isNew: false, itemIds: ['b'] },
      ),
      DATASET,
    );
    expect(failureMessage(mixed!)).toBeNull();
  });
});

describe('revertTo', () => {
  test('drops changes queued since the snapshot and restores the ones altered since', () => {
    const before = queueOf(
      { kind: 'update_label', label: 'car', dataLevel: 'image', itemIds: ['a', 'b'] },
      { kind: 'delete', dataLevel: 'image', itemIds: ['z'] },
    );
    let n = 10;
    let after = addChange(
      before,
      { kind: 'update_label', label: 'person', dataLevel: 'image', itemIds: ['a'] },
      () => `c${++n}`,
    );
    after = after.filter((change) => change.kind !== 'delete'); // discarded meanwhile
    expect(changedSince(after, before).map((change) => change.itemIds)).toEqual([['b'], ['a']]);
    expect(revertTo(after, before)).toEqual([before[0]]);
  });
});

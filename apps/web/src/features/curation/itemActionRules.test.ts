// Which actions items offer, and whether the last action can be repeated on an item.
import { describe, expect, test } from 'vitest';
import { availableActions, canReplay, type ActionContext } from './itemActionRules';
import {
  queuedNewSplits,
  queuedNewSubsets,
  splitNameProblem,
  subsetNameProblem,
} from './nameRules';
import type { PendingChange } from './pendingChanges';

const gt = (id: string) => ({ id, type: 'gt' as const, sampleId: id.split('#')[0]! });
const pred = (id: string) => ({ id, type: 'pred' as const, sampleId: 's1' });
const PREDICTIONS = '9a1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a10';

describe('availableActions', () => {
  test('classification samples: subsets, label, split, delete', () => {
    expect(
      availableActions({ taskType: 'classification', dataLevel: 'image', items: [gt('a')] }),
    ).toEqual(['add_to_subset', 'update_label', 'update_split', 'delete']);
    expect(
      availableActions({ taskType: 'audio_classification', dataLevel: 'audio', items: [gt('a')] }),
    ).toContain('update_label');
  });

  test('labels change only on classification samples and detection or instance objects', () => {
    const labelled = (context: Omit<ActionContext, 'items'>) =>
      availableActions({ ...context, items: [gt('s1#o1')] }).includes('update_label');
    expect(labelled({ taskType: 'regression', dataLevel: 'image' })).toBe(false);
    expect(labelled({ taskType: 'automatic_speech_recognition', dataLevel: 'audio' })).toBe(false);
    expect(labelled({ taskType: 'object_detection', dataLevel: 'image' })).toBe(false);
    expect(labelled({ taskType: 'object_detection', dataLevel: 'image_object' })).toBe(true);
    expect(labelled({ taskType: 'instance_segmentation', dataLevel: 'image_object' })).toBe(true);
  });

  test('objects have no split; a subset context adds move and remove', () => {
    expect(
      availableActions({
        taskType: 'object_detection',
        dataLevel: 'image_object',
        items: [gt('s1#o1')],
        currentSubsetId: 'sub',
      }),
    ).toEqual(['add_to_subset', 'move_to_subset', 'remove_from_subset', 'update_label', 'delete']);
  });

  test('predicted objects can only be added as ground truth, and only from a prediction set', () => {
    const context = { taskType: 'object_detection', dataLevel: 'image_object' } as const;
    expect(
      availableActions({ ...context, items: [pred('pred:p1')], predictionsId: PREDICTIONS }),
    ).toEqual(['promote']);
    expect(availableActions({ ...context, items: [pred('pred:p1')] })).toEqual([]);
    // A mix of predictions and ground truth has no action every item offers.
    expect(
      availableActions({
        ...context,
        items: [pred('pred:p1'), gt('s1#o1')],
        predictionsId: PREDICTIONS,
      }),
    ).toEqual([]);
  });

  test("semantic segmentation's classes and empty selections offer nothing", () => {
    expect(
      availableActions({
        taskType: 'semantic_segmentation',
        dataLevel: 'image_object',
        items: [gt('s1#car')],
      }),
    ).toEqual([]);
    expect(availableActions({ taskType: 'classification', dataLevel: 'image', items: [] })).toEqual(
      [],
    );
  });
});

describe('canReplay', () => {
  const samples = { taskType: 'object_detection', dataLevel: 'image', items: [gt('s2')] } as const;
  const objects = { ...samples, dataLevel: 'image_object', items: [gt('s2#o1')] } as const;

  test('a split goes to samples only; a label to items of its level', () => {
    const split = { kind: 'update_split', split: 'test', isNew: false } as const;
    expect(canReplay(split, samples)).toBe(true);
    expect(canReplay(split, objects)).toBe(false);
    const label = { kind: 'update_label', label: 'car', dataLevel: 'image_object' } as const;
    expect(canReplay(label, objects)).toBe(true);
    expect(canReplay(label, samples)).toBe(false);
  });

  test('subset moves and removals repeat inside their subset only; promotions per model', () => {
    const night = { id: 'night', name: 'night' };
    const remove = { kind: 'remove_from_subset', subset: night, dataLevel: 'image' } as const;
    expect(canReplay(remove, { ...samples, currentSubsetId: 'night' })).toBe(true);
    expect(canReplay(remove, { ...samples, currentSubsetId: 'day' })).toBe(false);
    const promote = { kind: 'promote', predictionsId: PREDICTIONS } as const;
    const predicted = { ...objects, items: [pred('pred:p9')], predictionsId: PREDICTIONS };
    expect(canReplay(promote, predicted)).toBe(true);
    expect(canReplay(promote, { ...predicted, predictionsId: 'other' })).toBe(false);
    expect(canReplay({ kind: 'delete', dataLevel: 'image_object' }, predicted)).toBe(false);
  });
});

describe('names', () => {
  test("a new subset's name: not empty, NONE, MULTIPLE or taken", () => {
    expect(subsetNameProblem('  ', [])).toBe('Subset name is required.');
    expect(subsetNameProblem('NONE', [])).toBe("Subset name can't be 'NONE'.");
    expect(subsetNameProblem('MULTIPLE', [])).toBe("Subset name can't be 'MULTIPLE'.");
    expect(subsetNameProblem(' night ', ['night'])).toBe('Subset with that name already exists.');
    expect(subsetNameProblem('rainy', ['night'])).toBeNull();
  });

  test("a new split's name: not empty or an existing split's", () => {
    expect(splitNameProblem('train', ['train', 'test'])).toBe(
      'A Split with that name already exists',
    );
    expect(splitNameProblem('', [])).toBe('Split name is required.');
    expect(splitNameProblem('holdout', ['train'])).toBeNull();
  });

  test('the subsets and splits a queue creates', () => {
    const queue: PendingChange[] = [
      {
        id: 'c1',
        kind: 'add_to_subset',
        subset: { newName: 'rainy' },
        dataLevel: 'image',
        itemIds: ['a'],
      },
      {
        id: 'c2',
        kind: 'move_to_subset',
        from: { id: 'n', name: 'night' },
        to: { newName: 'fog' },
        dataLevel: 'image_object',
        itemIds: ['a#1'],
      },
      { id: 'c3', kind: 'update_split', split: 'holdout', isNew: true, itemIds: ['a'] },
      { id: 'c4', kind: 'update_split', split: 'train', isNew: false, itemIds: ['b'] },
    ];
    expect(queuedNewSubsets(queue)).toEqual([
      { name: 'rainy', dataLevel: 'image' },
      { name: 'fog', dataLevel: 'image_object' },
    ]);
    expect(queuedNewSplits(queue)).toEqual(['holdout']);
  });
});

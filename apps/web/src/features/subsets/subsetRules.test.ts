import '../../test/setup';
import { expect, test } from 'vitest';
import {
  ISSUES_TABLE_PAGE_SIZE_KEY,
  NO_SELECTION,
  clickSelect,
  explorePath,
  exportFormats,
  levelLabel,
  matchesSearch,
  nameProblem,
  pagesRoot,
  readPageSize,
  selectedInOrder,
  similarPath,
  writePageSize,
} from './subsetRules';

test('the page size is 10 until one of the offered sizes is stored', () => {
  expect(readPageSize()).toBe(10);
  writePageSize(50);
  expect(window.localStorage.getItem(ISSUES_TABLE_PAGE_SIZE_KEY)).toBe('50');
  expect(readPageSize()).toBe(50);
  window.localStorage.setItem(ISSUES_TABLE_PAGE_SIZE_KEY, '7');
  expect(readPageSize()).toBe(10);
  writePageSize(7);
  expect(window.localStorage.getItem(ISSUES_TABLE_PAGE_SIZE_KEY)).toBe('7');
});

test('search matches the name, ignoring case and surrounding blanks', () => {
  expect(matchesSearch({ name: 'Night Boats' }, '  night ')).toBe(true);
  expect(matchesSearch({ name: 'Night Boats' }, 'day')).toBe(false);
  expect(matchesSearch({ name: 'anything' }, '   ')).toBe(true);
});

test('data levels in the product words: Sample, Object, Class', () => {
  expect(levelLabel('classification', 'image')).toBe('Sample');
  expect(levelLabel('audio_classification', 'audio')).toBe('Sample');
  expect(levelLabel('object_detection', 'image_object')).toBe('Object');
  expect(levelLabel('semantic_segmentation', 'image_object')).toBe('Class');
});

test('names: required, not NONE or MULTIPLE', () => {
  expect(nameProblem('  ')).toBe('Subset name is required.');
  expect(nameProblem('NONE')).toBe("Subset name can't be 'NONE'.");
  expect(nameProblem(' MULTIPLE ')).toBe("Subset name can't be 'MULTIPLE'.");
  expect(nameProblem('none')).toBeNull();
  expect(nameProblem('night')).toBeNull();
});

test('COCO is offered to detection and instance segmentation only; CSV to every task', () => {
  const enabled = (task: Parameters<typeof exportFormats>[0]) =>
    exportFormats(task)
      .filter((choice) => choice.enabled)
      .map((choice) => choice.format);
  expect(enabled('object_detection')).toEqual(['coco', 'csv']);
  expect(enabled('instance_segmentation')).toEqual(['coco', 'csv']);
  expect(enabled('classification')).toEqual(['csv']);
  expect(enabled('semantic_segmentation')).toEqual(['csv']);
  expect(enabled('audio_classification')).toEqual(['csv']);
});

test('paths at dataset and model routes', () => {
  const root = pagesRoot('d1');
  const modelRoot = pagesRoot('d1', 'm1');
  expect(modelRoot).toBe('/models/datasets/d1/predictions/m1');
  const subset = { id: 's1', data_level: 'image_object' as const };
  expect(explorePath(root, subset)).toBe('/datasets/d1/explore?subset_id=s1&level=image_object');
  expect(explorePath(modelRoot, subset, { view: 'embeddings' })).toBe(
    '/models/datasets/d1/predictions/m1/explore?subset_id=s1&level=image_object&view=embeddings',
  );
  expect(similarPath(root, { id: 's1', data_level: 'image' })).toBe(
    '/datasets/d1/subsets/s1/similar',
  );
  expect(similarPath(root, subset, ['a', 'b'])).toBe(
    '/datasets/d1/subsets/s1/similar?sample_ids=a,b&data_level=image_object',
  );
});

test('click toggles, Shift+click adds the range from the last click, in subset order', () => {
  const ids = ['a', 'b', 'c', 'd', 'e'];
  let selection = clickSelect(NO_SELECTION, ids, 3, false);
  selection = clickSelect(selection, ids, 1, true);
  expect(selectedInOrder(ids, selection.ids)).toEqual(['b', 'c', 'd']);
  selection = clickSelect(selection, ids, 2, false);
  expect(selectedInOrder(ids, selection.ids)).toEqual(['b', 'd']);
  // A Shift+click without an anchor toggles one item.
  expect([...clickSelect(NO_SELECTION, ids, 4, true).ids]).toEqual(['e']);
  expect(clickSelect(selection, ids, 9, false)).toBe(selection);
});

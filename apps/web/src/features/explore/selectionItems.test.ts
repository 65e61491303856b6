// The selection as curation items: rows in result order, looked up in calls of at most 1000 rows,
// or by the result's ids for a large selection of samples.
import { expect, test } from 'vitest';
import { item } from './testData';
import {
  actionItem,
  chunks,
  lookUpByIds,
  sampleActionItem,
  selectedInResultOrder,
} from './selectionItems';

test('selected rows come in the order the result shows them', () => {
  const rows = Uint32Array.from([7, 3, 9, 1]);
  expect(selectedInResultOrder(rows, new Set([1, 7, 42]))).toEqual([7, 1]);
  expect(selectedInResultOrder(rows, new Set())).toEqual([]);
});

test('rows are looked up 1000 a call; many samples by the ids of the result instead', () => {
  expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  expect(lookUpByIds('image', 1000)).toBe(false);
  expect(lookUpByIds('image', 1001)).toBe(true);
  expect(lookUpByIds('audio', 5000)).toBe(true);
  // Objects need their sample, which only the items call tells.
  expect(lookUpByIds('image_object', 50_000)).toBe(false);
});

test('an item says what it is and which sample it belongs to', () => {
  expect(actionItem(item(3, 'image_object'))).toEqual({
    id: 'img-3#0',
    type: 'gt',
    sampleId: 'img-3',
  });
  expect(actionItem({ ...item(2, 'image_object'), id: 'pred:p9', type: 'pred' })).toEqual({
    id: 'pred:p9',
    type: 'pred',
    sampleId: 'img-2',
  });
  expect(sampleActionItem('img-5')).toEqual({ id: 'img-5', type: 'gt', sampleId: 'img-5' });
});

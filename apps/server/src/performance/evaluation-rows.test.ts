import { describe, expect, it } from 'vitest';
import { liveInUploadOrder, pick, predictionRows } from './evaluation-rows.js';

describe('predictionRows', () => {
  it('finds each sample its prediction in one walk of both id lists', () => {
    expect([...predictionRows(['a', 'b', 'c', 'd'], ['b', 'd'])]).toEqual([-1, 0, -1, 1]);
    expect([...predictionRows(['a', 'b'], [])]).toEqual([-1, -1]);
    expect([...predictionRows([], [])]).toEqual([]);
  });

  it('still matches every prediction when one has no sample or the orders differ', () => {
    // 'q' has no sample: the rest are found through a map of the ids.
    expect([...predictionRows(['a', 'b', 'c', 'd'], ['b', 'q', 'a', 'd'])]).toEqual([2, 0, -1, 3]);
  });
});

describe('liveInUploadOrder', () => {
  it('orders the live samples by seq, leaving the deleted out', () => {
    expect([...liveInUploadOrder([5, 0, 3, 9, 1], [0, 0, 1, 0, 0])]).toEqual([1, 4, 0, 3]);
  });

  it('sorts when the seqs are far apart', () => {
    expect([...liveInUploadOrder([1e9, 7, 2e9], [0, 0, 0])]).toEqual([1, 0, 2]);
  });
});

describe('pick', () => {
  it('takes the items at the rows, null for −1, decoded when asked', () => {
    const rows = Int32Array.from([2, -1, 0]);
    expect(pick(['x', 'y', 'z'], rows)).toEqual(['z', null, 'x']);
    expect(pick(['1', '2', '3'], rows, (v) => (v === null ? null : Number(v)))).toEqual([
      3,
      null,
      1,
    ]);
    expect(pick(undefined, rows)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { pick, predictionRows } from './evaluation-rows.js';

describe('predictionRows', () => {
  it('finds each sample its prediction in one walk of both seq lists', () => {
    expect([...predictionRows([0, 1, 2, 3], [1, 3])]).toEqual([-1, 0, -1, 1]);
    expect([...predictionRows([0, 1], [])]).toEqual([-1, -1]);
    expect([...predictionRows([], [4])]).toEqual([]);
    expect([...predictionRows([], [])]).toEqual([]);
  });

  it('passes over the predictions of samples not read (deleted ones)', () => {
    // 2 and 9 are deleted samples' predictions; the gaps in the seqs are deleted samples.
    expect([...predictionRows([1, 4, 7, 8], [1, 2, 4, 8, 9])]).toEqual([0, 2, -1, 3]);
    expect([...predictionRows([5, 6], [0, 1, 2, 3])]).toEqual([-1, -1]);
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

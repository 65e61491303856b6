import { describe, expect, it } from 'vitest';
import {
  classCountsPerSplit,
  classImbalance,
  labelShift,
  rareClasses,
  referenceSplit,
} from './balance.js';

/** Items from a table of counts: counts[split][class] items of each. */
function itemsOf(counts: number[][]): { label: Int32Array; split: Int32Array } {
  const label: number[] = [];
  const split: number[] = [];
  counts.forEach((row, s) =>
    row.forEach((count, c) => {
      for (let i = 0; i < count; i++) {
        label.push(c);
        split.push(s);
      }
    }),
  );
  return { label: Int32Array.from(label), split: Int32Array.from(split) };
}

describe('class balance', () => {
  // Splits: test, train, validation (ascending); classes: cat, dog, bird.
  const table = [
    [20, 20, 0], // test: no bird at all
    [100, 50, 5], // train: bird 5 / 100 = 0.05 < 0.1
    [30, 15, 3], // validation: 3 / 30 = 0.1, not below
  ];
  const { label, split } = itemsOf(table);
  // Items without a label or a split are not counted.
  const counts = classCountsPerSplit(
    Int32Array.from([...label, -1, 0]),
    Int32Array.from([...split, 1, -1]),
    3,
    3,
  );

  it('counts items by split and class', () => {
    expect(Array.from(counts.counts)).toEqual(table.flat());
    expect(Array.from(counts.splitTotals)).toEqual([40, 155, 48]);
    expect(Array.from(counts.classTotals)).toEqual([150, 85, 8]);
  });

  it('finds splits whose smallest class is under a tenth of the largest', () => {
    const result = classImbalance(counts);
    expect(result.map((r) => [r.smallest, r.largest, r.imbalanced])).toEqual([
      [20, 20, false],
      [5, 100, true],
      [3, 30, false],
    ]);
    expect(result[1]!.ratio).toBeCloseTo(0.05, 12);
    expect(result[1]!.minorityClasses).toEqual([2]);
    expect(classImbalance(counts, 0.5).map((r) => r.minorityClasses)).toEqual([[], [2], [2]]);
  });

  it('measures label shift against train by total variation distance', () => {
    const reference = referenceSplit(counts, ['test', 'train', 'validation']);
    expect(reference).toBe(1);
    const shifts = labelShift(counts, reference);
    // test: (0.5, 0.5, 0) vs (100, 50, 5)/155: ½(|0.5 − 0.6452| + |0.5 − 0.3226| + |0 − 0.0323|).
    const trainShare = [100 / 155, 50 / 155, 5 / 155];
    const tvd = (share: number[]) =>
      share.reduce((sum, p, c) => sum + Math.abs(p - trainShare[c]!), 0) / 2;
    expect(shifts.map((s) => s.split)).toEqual([0, 2]);
    expect(shifts[0]!.distance).toBeCloseTo(tvd([0.5, 0.5, 0]), 12);
    expect(shifts[0]!.distance).toBeCloseTo(0.1774, 4);
    expect(shifts[0]!.shifted).toBe(true);
    expect(shifts[1]!.distance).toBeCloseTo(tvd([30 / 48, 15 / 48, 3 / 48]), 12);
    expect(shifts[1]!.shifted).toBe(false);
    expect(shifts[0]!.shareDifference[1]).toBeCloseTo(0.5 - 50 / 155, 12);
  });

  it('takes the largest split as reference when there is no train split', () => {
    expect(referenceSplit(counts, ['a', 'b', 'c'])).toBe(1);
    expect(referenceSplit(counts, ['a', 'b', 'TRAIN'])).toBe(2);
    const empty = classCountsPerSplit(new Int32Array(0), new Int32Array(0), 2, 2);
    expect(referenceSplit(empty, ['train', 'test'])).toBe(-1);
    expect(labelShift(empty, -1)).toEqual([]);
  });

  it('finds classes with fewer than 10 items in a split, absent ones included', () => {
    expect(rareClasses(counts)).toEqual([
      { split: 0, class: 2, count: 0 },
      { split: 1, class: 2, count: 5 },
      { split: 2, class: 2, count: 3 },
    ]);
    expect(rareClasses(counts, 20)).toEqual([
      { split: 0, class: 2, count: 0 },
      { split: 1, class: 2, count: 5 },
      { split: 2, class: 1, count: 15 },
      { split: 2, class: 2, count: 3 },
    ]);
    // A class no split has is not rare anywhere.
    const withUnused = classCountsPerSplit(label, split, 4, 3);
    expect(rareClasses(withUnused).some((r) => r.class === 3)).toBe(false);
  });
});

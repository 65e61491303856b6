import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../random.js';
import { exactDuplicateGroups, leakedGroups, spansSplits } from './duplicates.js';

const lists = (members: Int32Array[]) => members.map((m) => Array.from(m));

/** The definition, directly: rows by key, groups of two or more ordered by their first row. */
function naiveGroups(keys: (string | null)[]): number[][] {
  const byKey = new Map<string, number[]>();
  keys.forEach((key, i) => {
    if (key !== null) byKey.set(key, [...(byKey.get(key) ?? []), i]);
  });
  return [...byKey.values()].filter((rows) => rows.length > 1).sort((a, b) => a[0]! - b[0]!);
}

describe('exactDuplicateGroups', () => {
  it('groups equal keys, ignores missing ones and numbers groups by first member', () => {
    const keys = ['a', null, 'b', 'a', 'c', 'b', 'a', null];
    const { group, members } = exactDuplicateGroups(keys);
    expect(lists(members)).toEqual([
      [0, 3, 6],
      [2, 5],
    ]);
    expect(Array.from(group)).toEqual([0, -1, 1, 0, -1, 1, 0, -1]);
  });

  it('agrees with the definition on random keys', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'))), (keys) => {
        const { group, members } = exactDuplicateGroups(keys);
        const expected = naiveGroups(keys);
        expect(lists(members)).toEqual(expected);
        const expectedGroup = keys.map((_, i) => expected.findIndex((rows) => rows.includes(i)));
        expect(Array.from(group)).toEqual(expectedGroup);
      }),
    );
  });

  it('finds planted duplicates among 20,000 distinct hashes, and those across splits', () => {
    const random = createRandom(3);
    const n = 20_000;
    const keys = Array.from({ length: n }, (_, i) => `h${i}`);
    const split = Int32Array.from({ length: n }, () => random.int(-1, 2));
    // 40 pairs and 10 triples planted at random rows (row 2k + 1 copies row 2k, …).
    const planted: number[][] = [];
    for (let k = 0; k < 50; k++) {
      const first = 400 * k;
      const copies = k < 40 ? [first + 1 + random.int(0, 300)] : [first + 150, first + 399];
      for (const c of copies) keys[c] = keys[first]!;
      planted.push([first, ...copies].sort((a, b) => a - b));
    }
    const groups = exactDuplicateGroups(keys);
    expect(lists(groups.members)).toEqual(planted);
    const leaked = leakedGroups(groups, split);
    const expected = planted.filter((rows) => new Set(rows.map((r) => split[r])).size > 1);
    expect(expected.length).toBeGreaterThan(20);
    expect(lists(leaked.members)).toEqual(expected);
    const expectedGroup = new Int32Array(n).fill(-1);
    expected.forEach((rows, g) => rows.forEach((row) => (expectedGroup[row] = g)));
    expect(leaked.group).toEqual(expectedGroup);
  });
});

describe('spansSplits', () => {
  it('counts rows without a split as a split of their own', () => {
    const split = Int32Array.from([0, 0, 1, -1, -1]);
    expect(spansSplits([0, 1], split)).toBe(false);
    expect(spansSplits([0, 2], split)).toBe(true);
    expect(spansSplits([3, 4], split)).toBe(false);
    expect(spansSplits([1, 3], split)).toBe(true);
    expect(spansSplits([1], split)).toBe(false);
  });
});

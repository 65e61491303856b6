import { describe, expect, it } from 'vitest';
import { fixture } from './fixture.js';
import { queryRows } from './query.js';
import { prepareSortIndexes } from './sort.js';
import { fromColumns } from './table.js';
import type { SortEntry } from './types.js';

const asc = (name: string): SortEntry => ({ name, direction: 'ascending' });
const desc = (name: string): SortEntry => ({ name, direction: 'descending' });

// Numeric keys sort by their IEEE bits, or by dense ranks once a sort index exists: both ways.
describe.each([
  ['without sort indexes', false],
  ['with sort indexes', true],
])('sort %s', (_, indexed) => {
  const table = fixture();
  if (indexed) prepareSortIndexes(table);
  const sorted = (sort: SortEntry[], include_missing = true) =>
    Array.from(queryRows(table, { sort, include_missing }));

  it('sorts numbers with ties in upload order and missing last in both directions', () => {
    // w: 0→10, 1→missing, 2→−2.5, 3→10, 4→0, 5→7
    expect(sorted([asc('w')])).toEqual([2, 4, 5, 0, 3, 1]);
    expect(sorted([desc('w')])).toEqual([0, 3, 5, 4, 2, 1]);
  });

  it('leaves out items missing a sort key unless include_missing', () => {
    expect(sorted([asc('w')], false)).toEqual([2, 4, 5, 0, 3]);
    expect(sorted([asc('label'), asc('w')], false)).toEqual([3, 5, 0, 4]);
    expect(Array.from(queryRows(table, { sort: [asc('w')] }))).toEqual([2, 4, 5, 0, 3]); // default
    expect(Array.from(queryRows(table, {}))).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('sorts strings alphabetically, booleans false before true, timestamps by time', () => {
    expect(sorted([asc('label')])).toEqual([3, 0, 5, 1, 4, 2]);
    expect(sorted([desc('label')])).toEqual([1, 4, 0, 5, 3, 2]);
    expect(sorted([asc('ok')])).toEqual([1, 4, 0, 3, 5, 2]);
    expect(sorted([desc('ok')])).toEqual([0, 3, 5, 1, 4, 2]);
    expect(sorted([asc('at')])).toEqual([0, 3, 2, 5, 4, 1]);
    expect(sorted([desc('at')])).toEqual([4, 2, 5, 0, 3, 1]);
  });

  it('breaks ties on the first key with the second', () => {
    // label ascending: ant(3), cat(0: 10, 5: 7), dog(1: —, 4: 0), missing(2)
    expect(sorted([asc('label'), desc('w')])).toEqual([3, 0, 5, 4, 1, 2]);
    expect(sorted([desc('ok'), asc('w')])).toEqual([5, 0, 3, 4, 1, 2]);
  });

  it('orders strings by UTF-16 code units, equal zeros as ties, infinities before missing', () => {
    const t = fromColumns({
      ids: ['p', 'q', 'r', 's'],
      columns: {
        s: { type: 'string', values: ['a', 'B', 'b', null] },
        z: { type: 'numeric', values: [0, -0, -1, 0] },
        inf: { type: 'numeric', values: [Infinity, NaN, -Infinity, 1] },
      },
    });
    if (indexed) prepareSortIndexes(t);
    const q = (sort: SortEntry[]) => Array.from(queryRows(t, { sort, include_missing: true }));
    expect(q([asc('s')])).toEqual([1, 0, 2, 3]);
    expect(q([asc('z')])).toEqual([2, 0, 1, 3]);
    expect(q([desc('z')])).toEqual([0, 1, 3, 2]);
    expect(q([asc('inf')])).toEqual([2, 3, 0, 1]);
    expect(q([desc('inf')])).toEqual([0, 3, 2, 1]);
  });

  it('throws on an unknown field or direction', () => {
    expect(() => sorted([asc('nope')])).toThrow("Unknown metadata field 'nope'");
    expect(() => sorted([{ name: 'w', direction: 'up' as 'ascending' }])).toThrow(
      "Unknown sort direction 'up'",
    );
  });
});

describe('sort of a large selection', () => {
  it('orders 400,000 rows by a category and an indexed number as a comparator sort does', () => {
    // Large enough for the index scan and the byte-per-row category reads; compared with a
    // plain comparator sort (missing last in both directions, ties by row).
    const n = 400_000;
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const label = Array.from({ length: n }, () =>
      next() < 0.05 ? null : `c${Math.floor(next() * 20)}`,
    );
    const area = Array.from({ length: n }, () =>
      next() < 0.05 ? null : Math.floor(next() * 5000) / 4,
    );
    const table = fromColumns({
      ids: Array.from({ length: n }, (_, i) => `o${i}`),
      columns: {
        label: { type: 'string', values: label },
        area: { type: 'numeric', values: area },
      },
    });
    prepareSortIndexes(table);
    const rows = Array.from({ length: n }, (_, r) => r).filter((r) => (area[r] ?? 0) >= 100);
    const compare = <T extends string | number>(
      a: T | null,
      b: T | null,
      descending: boolean,
    ): number => {
      if (a === b) return 0;
      if (a === null) return 1;
      if (b === null) return -1;
      return (a < b ? -1 : 1) * (descending ? -1 : 1);
    };
    for (const [labelDescending, areaDescending] of [
      [false, true],
      [true, false],
    ] as const) {
      const expected = [...rows].sort(
        (a, b) =>
          compare(label[a] ?? null, label[b] ?? null, labelDescending) ||
          compare(area[a] ?? null, area[b] ?? null, areaDescending) ||
          a - b,
      );
      const sort: SortEntry[] = [
        labelDescending ? desc('label') : asc('label'),
        areaDescending ? desc('area') : asc('area'),
      ];
      const filter = {
        type: 'numeric' as const,
        metadata_id: 'area',
        op: 'between' as const,
        value: [100, null] as [number, null],
      };
      const got = queryRows(table, { filter, sort, include_missing: true });
      // The first place they differ (a diff of 380,000 numbers would drown the report).
      const differ = expected.findIndex((row, i) => got[i] !== row);
      expect({ length: got.length, differ }).toEqual({ length: expected.length, differ: -1 });
    }
  });
});

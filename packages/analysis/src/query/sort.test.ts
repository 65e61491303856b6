import { describe, expect, it } from 'vitest';
import { bitsetToRows } from './bitset.js';
import { evaluateFilter } from './filter.js';
import { fixture } from './fixture.js';
import { assignCoded, withColumns } from './patch.js';
import { queryRows, rowsOfIds } from './query.js';
import {
  adoptSortIndex,
  builtSortIndex,
  prepareSortIndexes,
  sortRows,
  verifySortIndex,
  type SortIndex,
} from './sort.js';
import { fromColumns } from './table.js';
import type { CategoricalColumn, NumericColumn, SortEntry } from './types.js';

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

describe('sort by dictionary keys then an indexed number (bucket sort)', () => {
  // Every row passes through the index scan's buckets: the selection is over a sixteenth of
  // the table. Compared with a comparator sort: missing last in both directions, ties by row.
  const n = 20_000;
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(values: readonly T[], missing: number): T | null =>
    next() < missing ? null : values[Math.floor(next() * values.length)]!;
  const columns = {
    label: Array.from({ length: n }, () => pick(['cat', 'dog', 'ant', 'bee'], 0.05)),
    ok: Array.from({ length: n }, () => pick([false, true], 0.1)),
    // Few distinct values: long groups of ties, the case the descending scan walks by groups.
    area: Array.from({ length: n }, () => pick([0, -0, 1.5, 7, 100, -3, Infinity], 0.05)),
    many: Array.from({ length: n }, () =>
      pick(
        Array.from({ length: 300 }, (_, c) => `m${c}`),
        0.02,
      ),
    ),
  };
  const table = fromColumns({
    ids: Array.from({ length: n }, (_, i) => `o${i}`),
    columns: {
      label: { type: 'string', values: columns.label },
      ok: { type: 'boolean', values: columns.ok },
      area: { type: 'numeric', values: columns.area },
      many: { type: 'string', values: columns.many },
    },
  });
  prepareSortIndexes(table);
  type Name = keyof typeof columns;
  const compare = (a: unknown, b: unknown, descending: boolean): number => {
    if (a === null) return b === null ? 0 : 1;
    if (b === null) return -1;
    const x = typeof a === 'number' && a === 0 ? 0 : a; // −0 and +0 are ties
    const y = typeof b === 'number' && b === 0 ? 0 : b;
    if (x === y) return 0;
    return ((x as number) < (y as number) ? -1 : 1) * (descending ? -1 : 1);
  };
  const expected = (rows: number[], sort: SortEntry[], values = columns) =>
    [...rows].sort((a, b) => {
      for (const { name, direction } of sort) {
        const column = values[name as Name];
        const c = compare(column[a], column[b], direction === 'descending');
        if (c !== 0) return c;
      }
      return a - b;
    });
  const all = Array.from({ length: n }, (_, r) => r);
  const sorts: SortEntry[][] = [
    [asc('label'), desc('area')],
    [desc('label'), asc('area')],
    [desc('ok'), asc('label'), desc('area')],
    [asc('many'), desc('ok'), asc('area')],
    [desc('area')],
    [asc('area')],
  ];

  it.each(sorts.map((sort) => [sort.map((e) => `${e.name} ${e.direction}`).join(', '), sort]))(
    'orders %s as a comparator sort does, with and without missing values',
    (_, sort) => {
      const sorted = expected(all, sort as SortEntry[]);
      const got = Array.from(
        queryRows(table, { sort: sort as SortEntry[], include_missing: true }),
      );
      expect(got.findIndex((row, i) => sorted[i] !== row)).toBe(-1);
      expect(got.length).toBe(n);
      const present = all.filter((r) =>
        (sort as SortEntry[]).every((e) => columns[e.name as Name][r] !== null),
      );
      const kept = Array.from(queryRows(table, { sort: sort as SortEntry[] }));
      expect(kept).toEqual(expected(present, sort as SortEntry[]));
    },
  );

  it('sorts a filtered selection, and rows given as an array, the same way', () => {
    const filter = {
      type: 'numeric' as const,
      metadata_id: 'area',
      op: 'between' as const,
      value: [0, 100] as [number, number],
    };
    const rows = bitsetToRows(evaluateFilter(table, filter));
    expect(rows.length * 16).toBeGreaterThan(n);
    for (const sort of sorts) {
      const want = expected(Array.from(rows), sort);
      expect(Array.from(queryRows(table, { filter, sort, include_missing: true }))).toEqual(want);
      expect(Array.from(sortRows(table, rows, sort))).toEqual(want);
    }
  });

  it('reads the new codes of a patched dictionary column, not the copy kept for the old', () => {
    // The first sorts keep the label's and then other columns' codes in the area index's
    // order; the patched snapshot shares the area column (and its index) with a new label.
    for (const name of ['label', 'ok', 'many', 'label'] as const)
      queryRows(table, { sort: [asc(name), desc('area')], include_missing: true });
    const patched = columns.label.map((v, r) => (r % 7 === 0 ? 'eel' : v));
    const label = assignCoded(table.columns.get('label') as CategoricalColumn, [
      {
        value: 'eel',
        rows: rowsOfIds(
          table,
          all.filter((r) => r % 7 === 0).map((r) => `o${r}`),
        ),
      },
    ]);
    const next = withColumns(table, { version: 2, columns: new Map([['label', label]]) });
    expect(next.columns.get('area')).toBe(table.columns.get('area'));
    const sort = [asc('label'), desc('area')];
    const got = Array.from(queryRows(next, { sort, include_missing: true }));
    expect(got).toEqual(expected(all, sort, { ...columns, label: patched }));
    // The old snapshot still sorts by its own labels.
    expect(Array.from(queryRows(table, { sort, include_missing: true }))).toEqual(
      expected(all, sort),
    );
  });
});

describe('adoptSortIndex and verifySortIndex', () => {
  const values = [3, NaN, -0, 1, 0, 3, NaN, -2.5, 1e300, 1];
  const table = () =>
    fromColumns({
      ids: values.map((_, i) => `r${i}`),
      columns: { v: { type: 'numeric', values: Float64Array.from(values) } },
    });
  const column = (t: ReturnType<typeof table>) => t.columns.get('v') as NumericColumn;
  const copy = (index: SortIndex): SortIndex => ({
    order: index.order.slice(),
    ranks: index.ranks.slice(),
    groupStarts: index.groupStarts.slice(),
    present: index.present,
    distinct: index.distinct,
  });

  it('installs a stored index that then sorts exactly as a built one, and checks it', () => {
    const source = table();
    prepareSortIndexes(source);
    const index = builtSortIndex(column(source))!;
    const target = table();
    expect(adoptSortIndex(column(target), copy(index))).toBe(true);
    expect(builtSortIndex(column(target))).toEqual(index);
    // Only rows with a value are placed; a selection of the whole table takes the index scan.
    const rows = Uint32Array.from([0, 2, 3, 4, 5, 7, 8, 9]);
    for (const direction of ['ascending', 'descending'] as const)
      expect([...sortRows(target, rows, [{ name: 'v', direction }])]).toEqual([
        ...sortRows(source, rows, [{ name: 'v', direction }]),
      ]);
    expect(verifySortIndex(column(target))).toBe(true);
    expect(builtSortIndex(column(target))).toEqual(index);
  });

  it('refuses sizes that do not fit the column at once', () => {
    const source = table();
    prepareSortIndexes(source);
    const index = builtSortIndex(column(source))!;
    const short = { ...copy(index), order: index.order.slice(1) };
    const tooMany = { ...copy(index), distinct: index.present + 1 };
    for (const bad of [short, tooMany]) {
      const target = table();
      expect(adoptSortIndex(column(target), bad)).toBe(false);
      expect(builtSortIndex(column(target))).toBeUndefined();
    }
  });

  it('drops an adopted index that does not order the column, which is then built again', () => {
    const source = table();
    prepareSortIndexes(source);
    const index = builtSortIndex(column(source))!;
    const swapped = copy(index);
    [swapped.order[0], swapped.order[1]] = [swapped.order[1]!, swapped.order[0]!];
    const repeated = copy(index);
    repeated.order[1] = repeated.order[0]!;
    const grouped = copy(index);
    grouped.groupStarts[0] = 0xffffffff;
    const ranked = copy(index);
    ranked.ranks[0] = 0;
    const counted = { ...copy(index), distinct: index.distinct - 1 };
    const missingEarly = { ...copy(index), present: index.present + 1 };
    // Two rows of equal value out of row order.
    const ties = copy(index);
    const first = ties.order.indexOf(3);
    const second = ties.order.indexOf(9); // both hold 1
    [ties.order[first], ties.order[second]] = [9, 3];
    for (const bad of [swapped, repeated, grouped, ranked, counted, missingEarly, ties]) {
      const target = table();
      expect(adoptSortIndex(column(target), bad)).toBe(true);
      expect(verifySortIndex(column(target))).toBe(false);
      expect(builtSortIndex(column(target))).toBeUndefined();
      prepareSortIndexes(target);
      expect(builtSortIndex(column(target))).toEqual(index);
    }
  });

  it('checks an adopted index once, a built one never', () => {
    const source = table();
    prepareSortIndexes(source);
    expect(verifySortIndex(column(source))).toBe(true);
    const target = table();
    adoptSortIndex(column(target), copy(builtSortIndex(column(source))!));
    builtSortIndex(column(target))!.order[0] = 99; // damaged: the one check finds it
    expect(verifySortIndex(column(target))).toBe(false);
    expect(verifySortIndex(column(target))).toBe(true);
  });
});

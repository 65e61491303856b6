import { describe, expect, it } from 'vitest';
import { createRandom } from '../random.js';
import { bitsetToRows, countRows, fullBitset } from './bitset.js';
import { dropMissing, evaluateFilter } from './filter.js';
import { fixture } from './fixture.js';
import { refMatches, type RefRow } from './reference.js';
import { fromColumns } from './table.js';
import type { Filter } from './types.js';

const table = fixture();
const rows = (filter: Filter, options = {}) =>
  Array.from(bitsetToRows(evaluateFilter(table, filter, options)));
const numeric = (min: number | null, max: number | null): Filter => ({
  type: 'numeric',
  metadata_id: 'w',
  op: 'between',
  value: [min, max],
});

describe('evaluateFilter', () => {
  it('numeric between is inclusive, bounds may be open, missing never matches', () => {
    expect(rows(numeric(0, 10))).toEqual([0, 3, 4, 5]);
    expect(rows(numeric(null, 0))).toEqual([2, 4]);
    expect(rows(numeric(7, null))).toEqual([0, 3, 5]);
    expect(rows(numeric(null, null))).toEqual([0, 2, 3, 4, 5]);
    expect(rows(numeric(8, 9))).toEqual([]);
    expect(rows(numeric(10, 0))).toEqual([]); // an empty range
  });

  it('not is the complement, so it includes items with a missing value', () => {
    expect(rows({ type: 'not', child: numeric(0, 10) })).toEqual([1, 2]);
    expect(
      rows({
        type: 'not',
        child: { type: 'boolean', metadata_id: 'ok', op: 'bool_equals', value: true },
      }),
    ).toEqual([1, 2, 4]);
    // Excluding the missing ones under a not: and with an open range.
    expect(
      rows({
        type: 'and',
        children: [{ type: 'not', child: numeric(0, 10) }, numeric(null, null)],
      }),
    ).toEqual([2]);
  });

  it('string in matches listed categories; unknown values match nothing', () => {
    expect(rows({ type: 'string', metadata_id: 'label', op: 'in', value: ['cat', 'ant'] })).toEqual(
      [0, 3, 5],
    );
    expect(rows({ type: 'string', metadata_id: 'label', op: 'in', value: ['zebra'] })).toEqual([]);
    expect(rows({ type: 'string', metadata_id: 'label', op: 'in', value: [] })).toEqual([]);
  });

  it('boolean bool_equals', () => {
    expect(rows({ type: 'boolean', metadata_id: 'ok', op: 'bool_equals', value: true })).toEqual([
      0, 3, 5,
    ]);
    expect(rows({ type: 'boolean', metadata_id: 'ok', op: 'bool_equals', value: false })).toEqual([
      1, 4,
    ]);
  });

  it('timestamp ts_between (ISO or epoch ms, inclusive, open bounds) and ts_equals', () => {
    const jan1 = '2024-01-01T00:00:00Z';
    const jan2 = '2024-01-02T00:00:00Z';
    const between = (value: [string | number | null, string | number | null]): Filter => ({
      type: 'timestamp',
      metadata_id: 'at',
      op: 'ts_between',
      value,
    });
    expect(rows(between([jan1, jan2]))).toEqual([0, 2, 3, 5]);
    expect(rows(between([Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 2)]))).toEqual([0, 2, 3, 5]);
    expect(rows(between([jan2, null]))).toEqual([2, 4, 5]);
    expect(rows(between([null, jan1]))).toEqual([0, 3]);
    expect(rows({ type: 'timestamp', metadata_id: 'at', op: 'ts_equals', value: jan1 })).toEqual([
      0, 3,
    ]);
    expect(
      rows({
        type: 'timestamp',
        metadata_id: 'at',
        op: 'ts_equals',
        value: '2024-01-03T00:00:00Z',
      }),
    ).toEqual([]);
  });

  it('history matches items created by the record, plus rows the caller adds per record', () => {
    expect(rows({ type: 'history', record_id: 'r2' })).toEqual([2, 3, 4]);
    const recordRows = new Map([
      ['r1', [5]],
      ['r9', [1]],
    ]);
    expect(rows({ type: 'history', record_id: 'r1' }, { recordRows })).toEqual([0, 1, 5]);
    expect(rows({ type: 'history', record_id: 'r9' }, { recordRows })).toEqual([1]);
    expect(() => rows({ type: 'history', record_id: 'r9' })).toThrow(/Unknown history record 'r9'/);
  });

  it('nests and, or, not', () => {
    const nested: Filter = {
      type: 'or',
      children: [
        {
          type: 'and',
          children: [
            { type: 'boolean', metadata_id: 'ok', op: 'bool_equals', value: true },
            numeric(8, null),
          ],
        },
        { type: 'string', metadata_id: 'label', op: 'in', value: ['dog'] },
      ],
    };
    expect(rows(nested)).toEqual([0, 1, 3, 4]);
    expect(rows({ type: 'not', child: nested })).toEqual([2, 5]);
    expect(rows({ type: 'and', children: [] })).toEqual([0, 1, 2, 3, 4, 5]);
    expect(rows({ type: 'or', children: [] })).toEqual([]);
  });

  it('keeps bits past the last row clear, so not and counts stay exact', () => {
    const t = fromColumns({ ids: Array.from({ length: 33 }, (_, i) => `i${i}`), columns: {} });
    expect(
      countRows(evaluateFilter(t, { type: 'not', child: { type: 'and', children: [] } })),
    ).toBe(0);
    expect(countRows(evaluateFilter(t, { type: 'not', child: { type: 'or', children: [] } }))).toBe(
      33,
    );
  });

  it('throws clear errors naming the unknown field, operator, type or mismatch', () => {
    expect(() =>
      rows({ type: 'numeric', metadata_id: 'nope', op: 'between', value: [0, 1] }),
    ).toThrow("Unknown metadata field 'nope'");
    expect(() =>
      rows({ type: 'numeric', metadata_id: 'w', op: 'gt', value: [0, 1] } as unknown as Filter),
    ).toThrow("Unknown numeric filter operator 'gt'");
    expect(() => rows({ type: 'nlp', query: 'x' } as unknown as Filter)).toThrow(
      "Unknown filter type 'nlp'",
    );
    expect(() =>
      rows({ type: 'numeric', metadata_id: 'label', op: 'between', value: [0, 1] }),
    ).toThrow("cannot apply to metadata field 'label' of type 'string'");
    expect(() =>
      rows({
        type: 'numeric',
        metadata_id: 'w',
        op: 'between',
        value: ['1', 2],
      } as unknown as Filter),
    ).toThrow(/min must be a number or null/);
    expect(() =>
      rows({ type: 'timestamp', metadata_id: 'at', op: 'ts_equals', value: 'not a date' }),
    ).toThrow(/Invalid timestamp "not a date"/);
  });

  it('agrees with the row-by-row reference over many words, in every kind of tree', () => {
    // 1,003 rows: 31 whole words and a tail; values drawn so that every word has misses.
    const random = createRandom(11);
    const n = 1003;
    const labels = ['ant', 'bee', 'cat', 'dog', 'eel'];
    const refRows: RefRow[] = Array.from({ length: n }, (_, i) => ({
      id: `i${i}`,
      split: null,
      created_record: i < 500 ? 'r1' : 'r2',
      metadata: {
        x: random.next() < 0.1 ? null : random.int(-5, 5),
        label: random.next() < 0.1 ? null : labels[random.int(0, 4)]!,
        ok: random.next() < 0.1 ? null : random.next() < 0.5,
      },
    }));
    const big = fromColumns({
      ids: refRows.map((r) => r.id),
      columns: {
        x: { type: 'numeric', values: refRows.map((r) => r.metadata.x as number | null) },
        label: { type: 'string', values: refRows.map((r) => r.metadata.label as string | null) },
        ok: { type: 'boolean', values: refRows.map((r) => r.metadata.ok as boolean | null) },
      },
      createdRecord: refRows.map((r) => r.created_record),
    });
    const x = (lo: number | null, hi: number | null): Filter => ({
      type: 'numeric',
      metadata_id: 'x',
      op: 'between',
      value: [lo, hi],
    });
    const label = (...value: string[]): Filter => ({
      type: 'string',
      metadata_id: 'label',
      op: 'in',
      value,
    });
    const ok: Filter = { type: 'boolean', metadata_id: 'ok', op: 'bool_equals', value: true };
    const not = (child: Filter): Filter => ({ type: 'not', child });
    const and = (...children: Filter[]): Filter => ({ type: 'and', children });
    const or = (...children: Filter[]): Filter => ({ type: 'or', children });
    const filters: Filter[] = [
      x(-2, 3),
      x(4, 4),
      x(null, null),
      label('cat'), // one category: a comparison
      label('cat', 'eel', 'zebra'), // some: the lookup table
      label(...labels), // all: has a value
      label(),
      not(ok),
      and(x(-5, 0), label('ant', 'bee'), not(ok)),
      and(x(5, 5), ok), // words emptied by the first child are skipped
      or(x(-5, -5), label('dog'), ok),
      or(x(null, null), not(x(null, null))), // words filled by the first child are skipped
      not(and(x(0, null), or(ok, label('cat')))),
      not(or(and(ok, x(1, 2)), and(not(ok), label('bee', 'cat')))),
      and(or(x(0, 1), label('ant')), not(or(ok, and()))),
      or(and(x(0, 1), not(label('ant'))), { type: 'history', record_id: 'r2' }),
      not({ type: 'history', record_id: 'r1' }),
    ];
    for (const filter of filters) {
      const expected = refRows.flatMap((row, i) => (refMatches(row, filter) ? [i] : []));
      const bits = evaluateFilter(big, filter);
      expect(Array.from(bitsetToRows(bits)), JSON.stringify(filter)).toEqual(expected);
      expect(countRows(bits)).toBe(expected.length); // nothing past the last row
    }
  });

  it('string in agrees with the reference through the bit mask (≤ 31 categories) and the table', () => {
    // 31 categories use the mask, whose bit 31 is where the missing code −1 lands; 32 use the
    // lookup table. Rows cycle through every code and a missing value, over several words.
    const random = createRandom(5);
    for (const size of [2, 30, 31, 32, 40]) {
      const names = Array.from({ length: size }, (_, k) => `c${String(k).padStart(2, '0')}`);
      const refRows: RefRow[] = Array.from({ length: 301 }, (_, i) => ({
        id: `i${i}`,
        split: null,
        created_record: null,
        metadata: { s: i % (size + 1) === size ? null : names[i % (size + 1)]! },
      }));
      const t = fromColumns({
        ids: refRows.map((r) => r.id),
        columns: {
          s: { type: 'string', values: refRows.map((r) => r.metadata.s as string | null) },
        },
      });
      const pick = (share: number) => names.filter(() => random.next() < share);
      const lists = [
        [names[0]!, names[size - 1]!], // the lowest and the highest code
        pick(0.5),
        pick(0.9),
        names.slice(1), // all but one
        [],
      ];
      for (const value of lists) {
        const filter: Filter = { type: 'string', metadata_id: 's', op: 'in', value };
        for (const f of [filter, { type: 'not', child: filter } as Filter]) {
          const expected = refRows.flatMap((row, i) => (refMatches(row, f) ? [i] : []));
          const bits = evaluateFilter(t, f);
          expect(Array.from(bitsetToRows(bits)), `${size}: ${JSON.stringify(f)}`).toEqual(expected);
          expect(countRows(bits)).toBe(expected.length);
        }
      }
    }
  });

  it('numeric and timestamp: NaN is missing, infinities are values, under and/or/not', () => {
    const values = [NaN, -Infinity, -1, 0, 2, Infinity, null, 5];
    const times = [null, 0, 86_400_000, NaN, 1_700_000_000_000, 86_400_000, -1, 3];
    const refRows: RefRow[] = values.map((v, i) => ({
      id: `i${i}`,
      split: null,
      created_record: null,
      metadata: { x: v, at: times[i]! },
    }));
    const t = fromColumns({
      ids: refRows.map((r) => r.id),
      columns: {
        x: { type: 'numeric', values },
        at: { type: 'timestamp', values: times },
      },
    });
    const x = (lo: number | null, hi: number | null): Filter => ({
      type: 'numeric',
      metadata_id: 'x',
      op: 'between',
      value: [lo, hi],
    });
    const at = (lo: number | string | null, hi: number | string | null): Filter => ({
      type: 'timestamp',
      metadata_id: 'at',
      op: 'ts_between',
      value: [lo, hi],
    });
    const day: Filter = {
      type: 'timestamp',
      metadata_id: 'at',
      op: 'ts_equals',
      value: '1970-01-02T00:00:00Z',
    };
    const filters: Filter[] = [
      x(null, null), // every value, infinities too, no NaN or null
      x(0, null),
      x(null, 0),
      x(-1, 2),
      { type: 'not', child: x(null, null) }, // exactly the missing ones
      at(null, null),
      at('1970-01-01T00:00:00Z', '1970-01-02T00:00:00Z'),
      at(null, 0),
      day,
      { type: 'not', child: day },
      { type: 'or', children: [] }, // nothing
      { type: 'not', child: { type: 'and', children: [] } }, // nothing
      { type: 'and', children: [x(0, null), { type: 'not', child: at(null, 3) }] },
      { type: 'or', children: [x(null, -1), { type: 'and', children: [day, x(0, 5)] }] },
      { type: 'not', child: { type: 'or', children: [x(2, 2), { type: 'not', child: day }] } },
    ];
    for (const filter of filters) {
      const expected = refRows.flatMap((row, i) => (refMatches(row, filter) ? [i] : []));
      const bits = evaluateFilter(t, filter);
      expect(Array.from(bitsetToRows(bits)), JSON.stringify(filter)).toEqual(expected);
      expect(countRows(bits)).toBe(expected.length);
    }
  });

  it('drops the rows missing a value, column by column', () => {
    const t = fixture();
    const bits = fullBitset(t.length);
    dropMissing(t, bits, 'w');
    expect(Array.from(bitsetToRows(bits))).toEqual([0, 2, 3, 4, 5]);
    dropMissing(t, bits, 'label');
    expect(Array.from(bitsetToRows(bits))).toEqual([0, 3, 4, 5]);
  });
});

import { describe, expect, it } from 'vitest';
import { bitsetFromRows } from './bitset.js';
import { evaluateFilter } from './filter.js';
import { fixture } from './fixture.js';
import { assignCoded, withColumns } from './patch.js';
import { idsAt, queryRows, rowsOfIds } from './query.js';
import { prepareSortIndex } from './sort.js';
import type { CategoricalColumn } from './types.js';

const rows = (...r: number[]) => bitsetFromRows(6, r);

describe('assignCoded', () => {
  it('writes a copy, adds new values in sorted order and leaves the old column alone', () => {
    const table = fixture(); // labels: cat dog — ant dog cat
    const label = table.columns.get('label') as CategoricalColumn;
    const before = Array.from(label.codes);
    const next = assignCoded(label, [
      { value: 'bee', rows: rows(0, 2) },
      { value: null, rows: rows(1) },
      { value: 'cat', rows: rows(3) },
    ]);
    expect(next.type).toBe('string');
    expect(next.categories).toEqual(['ant', 'bee', 'cat', 'dog']);
    const decoded = Array.from(next.codes, (c) => (c < 0 ? null : next.categories[c]));
    expect(decoded).toEqual(['bee', null, 'bee', 'cat', 'dog', 'cat']);
    expect(Array.from(label.codes)).toEqual(before);
    expect(label.categories).toEqual(['ant', 'cat', 'dog']);
  });

  it('keeps the dictionary when every value is known, and refuses other booleans', () => {
    const table = fixture();
    const ok = table.columns.get('ok') as CategoricalColumn;
    const next = assignCoded(ok, [{ value: 'false', rows: rows(0, 5) }]);
    expect(next.categories).toBe(ok.categories);
    expect(Array.from(next.codes)).toEqual([0, 0, -1, 1, 0, 0]);
    expect(() => assignCoded(ok, [{ value: 'maybe', rows: rows(0) }])).toThrow(
      "A boolean column takes 'false' or 'true', not 'maybe'",
    );
  });
});

describe('withColumns', () => {
  it('answers a new snapshot that filters and sorts on the new values and shares the rest', () => {
    const table = fixture();
    const w = table.columns.get('w');
    prepareSortIndex(table, 'w');
    const label = assignCoded(table.columns.get('label') as CategoricalColumn, [
      { value: 'ant', rows: rowsOfIds(table, ['a', 'e']) },
    ]);
    const split = assignCoded(table.split!, [{ value: 'val', rows: rows(5) }]);
    const next = withColumns(table, { version: 9, columns: new Map([['label', label]]), split });
    expect(next.version).toBe(9);
    expect(next.ids).toBe(table.ids);
    expect(next.columns.get('w')).toBe(w);
    expect(next.createdRecord).toBe(table.createdRecord);
    const ants = evaluateFilter(next, {
      type: 'string',
      metadata_id: 'label',
      op: 'in',
      value: ['ant'],
    });
    expect(idsAt(next, queryRows(next, { within: ants }))).toEqual(['a', 'd', 'e']);
    // The old snapshot still answers the old values.
    const oldAnts = evaluateFilter(table, {
      type: 'string',
      metadata_id: 'label',
      op: 'in',
      value: ['ant'],
    });
    expect(idsAt(table, queryRows(table, { within: oldAnts }))).toEqual(['d']);
    expect(Array.from(next.split!.codes, (c) => next.split!.categories[c])).toEqual([
      'train',
      'val',
      'train',
      'test',
      'train',
      'val',
    ]);
  });

  it('refuses unknown fields, other types and other lengths', () => {
    const table = fixture();
    const label = table.columns.get('label')!;
    expect(() => withColumns(table, { version: 1, columns: new Map([['nope', label]]) })).toThrow(
      "Unknown metadata field 'nope'",
    );
    expect(() => withColumns(table, { version: 1, columns: new Map([['ok', label]]) })).toThrow(
      "Column 'ok' is boolean, not string",
    );
    const short = { type: 'string' as const, codes: new Int32Array(2), categories: ['x'] };
    expect(() => withColumns(table, { version: 1, columns: new Map([['label', short]]) })).toThrow(
      "Column 'label' has 2 rows, expected 6",
    );
  });
});

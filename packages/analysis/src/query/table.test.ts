import { describe, expect, it } from 'vitest';
import { fromColumns, ItemTableBuilder } from './table.js';
import type { CategoricalColumn, NumericColumn } from './types.js';

const strings = (column: unknown) => {
  const { codes, categories } = column as CategoricalColumn;
  return Array.from(codes, (c) => (c < 0 ? null : categories[c]));
};

describe('ItemTableBuilder', () => {
  it('appends batches, keeps dictionaries sorted, and leaves earlier snapshots unchanged', () => {
    const builder = new ItemTableBuilder([
      { id: 'label', type: 'string' },
      { id: 'x', type: 'numeric' },
      { id: 'ok', type: 'boolean' },
    ]);
    builder.append([
      { id: 'a', split: 'val', metadata: { label: 'm', x: 1, ok: true } },
      { id: 'b', split: 'train', metadata: { label: 'z' } },
    ]);
    const first = builder.build();
    builder.append([
      { id: 'c', metadata: { label: 'a', x: 3, ok: false } },
      { id: 'd', split: 'test', metadata: { label: 'm', x: null } },
    ]);
    const second = builder.build();

    expect(first.length).toBe(2);
    expect(first.ids).toEqual(['a', 'b']);
    expect((first.columns.get('label') as CategoricalColumn).categories).toEqual(['m', 'z']);
    expect(strings(first.columns.get('label'))).toEqual(['m', 'z']);
    expect(strings(first.split)).toEqual(['val', 'train']);

    expect(second.ids).toEqual(['a', 'b', 'c', 'd']);
    expect(second.version).toBeGreaterThan(first.version);
    expect((second.columns.get('label') as CategoricalColumn).categories).toEqual(['a', 'm', 'z']);
    expect(strings(second.columns.get('label'))).toEqual(['m', 'z', 'a', 'm']);
    expect(Array.from((second.columns.get('x') as NumericColumn).values)).toEqual([1, NaN, 3, NaN]);
    expect(strings(second.columns.get('ok'))).toEqual(['true', null, 'false', null]);
    expect(second.split!.categories).toEqual(['test', 'train', 'val']);
    expect(strings(second.split)).toEqual(['val', 'train', null, 'test']);
    expect(second.createdRecord).toBeNull();
  });

  it('rejects values of the wrong type, naming the field and item, and duplicate fields', () => {
    const builder = new ItemTableBuilder([
      { id: 'x', type: 'numeric' },
      { id: 't', type: 'timestamp' },
    ]);
    expect(() => builder.append([{ id: 'a', metadata: { x: '3' } }])).toThrow(
      /field 'x' of item 'a'/,
    );
    expect(() => builder.append([{ id: 'b', metadata: { t: 'yesterday' } }])).toThrow(
      /field 't' of item 'b'/,
    );
    expect(
      () =>
        new ItemTableBuilder([
          { id: 'x', type: 'numeric' },
          { id: 'x', type: 'string' },
        ]),
    ).toThrow(/Duplicate metadata field 'x'/);
  });
});

describe('fromColumns', () => {
  it('takes typed arrays as they are and sorts dictionaries', () => {
    const values = Float64Array.of(1, NaN, 2);
    const table = fromColumns({
      ids: ['a', 'b', 'c'],
      version: 5,
      columns: {
        x: { type: 'numeric', values },
        s: { type: 'string', codes: Int32Array.of(0, -1, 1), categories: ['z', 'b'] },
        v: { type: 'string', values: ['q', 'p', null] },
        ok: { type: 'boolean', values: [null, true, false] },
      },
      split: ['train', null, 'val'],
      createdRecord: [7, 7, 8],
    });
    expect(table.version).toBe(5);
    expect((table.columns.get('x') as NumericColumn).values).toBe(values);
    expect((table.columns.get('s') as CategoricalColumn).categories).toEqual(['b', 'z']);
    expect(strings(table.columns.get('s'))).toEqual(['z', null, 'b']);
    expect(strings(table.columns.get('v'))).toEqual(['q', 'p', null]);
    expect(strings(table.columns.get('ok'))).toEqual([null, 'true', 'false']);
    expect(strings(table.split)).toEqual(['train', null, 'val']);
    expect(strings(table.createdRecord)).toEqual(['7', '7', '8']);
  });

  it('rejects columns of the wrong length and codes out of range', () => {
    expect(() =>
      fromColumns({ ids: ['a'], columns: { x: { type: 'numeric', values: [1, 2] } } }),
    ).toThrow("Column 'x' has 2 rows, expected 1");
    expect(() =>
      fromColumns({
        ids: ['a'],
        columns: { s: { type: 'string', codes: Int32Array.of(2), categories: ['a'] } },
      }),
    ).toThrow(/code 2 at row 0 is out of range/);
  });
});

import { describe, expect, it } from 'vitest';
import { bitsetToRows } from './bitset.js';
import { fixture } from './fixture.js';
import { idsAt, queryRows, rowsOfIds } from './query.js';

const table = fixture(); // ids a..f for rows 0..5

describe('queryRows end to end', () => {
  it('filters, sorts, and pages ids by row index', () => {
    const rows = queryRows(table, {
      filter: { type: 'string', metadata_id: 'label', op: 'in', value: ['cat', 'dog'] },
      sort: [{ name: 'w', direction: 'descending' }],
      include_missing: true,
    });
    // cat/dog rows 0 (10), 1 (—), 4 (0), 5 (7) by w descending, missing last
    expect(idsAt(table, rows)).toEqual(['a', 'f', 'e', 'b']);
    expect(idsAt(table, rows.subarray(1, 3))).toEqual(['f', 'e']);
  });

  it('restricts to a subset given by item ids', () => {
    const within = rowsOfIds(table, ['e', 'a', 'zz', 'c']);
    expect(Array.from(bitsetToRows(within))).toEqual([0, 2, 4]);
    const rows = queryRows(table, { within, sort: [{ name: 'w', direction: 'ascending' }] });
    expect(idsAt(table, rows)).toEqual(['c', 'e', 'a']);
  });

  it('rejects rows outside the table', () => {
    expect(() => idsAt(table, [6])).toThrow('Row 6 is outside the table (6 rows)');
    expect(() => idsAt(table, [-1])).toThrow(/outside the table/);
  });
});

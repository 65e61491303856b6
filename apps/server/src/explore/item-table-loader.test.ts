import { fromColumns, sortRows } from '@loupe/analysis';
import { describe, expect, it } from 'vitest';
import { prepareSortIndexesInBackground } from './item-table-loader.js';

describe('prepareSortIndexesInBackground', () => {
  const table = fromColumns({
    ids: ['a', 'b', 'c', 'd', 'e'],
    columns: {
      score: { type: 'numeric', values: [0.5, -1.25, null, 0.5, 3] },
      at: { type: 'timestamp', values: [30, 10, 20, null, 10] },
      label: { type: 'string', values: ['x', 'y', 'x', null, 'y'] },
    },
  });
  const all = Uint32Array.from([0, 1, 2, 3, 4]);
  const order = (name: string, direction: 'ascending' | 'descending') =>
    Array.from(sortRows(table, all, [{ name, direction }]), (row) => table.ids[row]);

  it('builds the indexes in later turns of the event loop and sorts as before', async () => {
    const before = ['score', 'at'].flatMap((name) => [
      order(name, 'ascending'),
      order(name, 'descending'),
    ]);
    // A request arriving meanwhile is answered between two columns' builds.
    let answered = false;
    const ready = prepareSortIndexesInBackground(table);
    setImmediate(() => (answered = true));
    await ready;
    expect(answered).toBe(true);
    const after = ['score', 'at'].flatMap((name) => [
      order(name, 'ascending'),
      order(name, 'descending'),
    ]);
    expect(after).toEqual(before);
    // Missing values last in both directions; ties in upload order.
    expect(after[0]).toEqual(['b', 'a', 'd', 'e', 'c']);
    expect(after[1]).toEqual(['e', 'a', 'd', 'b', 'c']);
    expect(after[2]).toEqual(['b', 'e', 'c', 'a', 'd']);
  });
});

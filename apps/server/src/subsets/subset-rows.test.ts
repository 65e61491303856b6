// The subset rows cache: members are read once per table rows and subset change.
import { bitsetToRows, fromColumns, type ItemTable } from '@loupe/analysis';
import { describe, expect, it } from 'vitest';
import { SubsetRowsCache } from './subset-rows.js';

function table(ids: string[], version = 1): ItemTable {
  return fromColumns({ ids, columns: {}, version });
}

function indexOf(t: ItemTable): Map<string, number> {
  return new Map(t.ids.map((id, row) => [id, row]));
}

describe('SubsetRowsCache', () => {
  it('maps members to rows, skipping those not in the table, and reads them once', async () => {
    const cache = new SubsetRowsCache();
    const t = table(['a', 'b', 'c', 'd']);
    let reads = 0;
    const members = async () => {
      reads++;
      return ['d', 'gone', 'b'];
    };
    const subset = { id: 's', updated_at: 10 };
    const first = await cache.rows(t, subset, members, () => indexOf(t));
    expect([...bitsetToRows(first.bits)]).toEqual([1, 3]);
    expect(first.count).toBe(2);
    expect(await cache.rows(t, subset, members, () => indexOf(t))).toBe(first);
    expect(reads).toBe(1);
    // A patched table sharing the ids keeps the rows.
    const patched = { ...t, version: 2 };
    expect(await cache.rows(patched, subset, members, () => indexOf(t))).toBe(first);
    expect(reads).toBe(1);
  });

  it('reads again when the subset changed or the table was rebuilt', async () => {
    const cache = new SubsetRowsCache();
    const t = table(['a', 'b', 'c']);
    let current = ['a'];
    const members = async () => current;
    await cache.rows(t, { id: 's', updated_at: 1 }, members, () => indexOf(t));
    current = ['a', 'c'];
    const changed = await cache.rows(t, { id: 's', updated_at: 2 }, members, () => indexOf(t));
    expect([...bitsetToRows(changed.bits)]).toEqual([0, 2]);
    const rebuilt = table(['c', 'b', 'a'], 2);
    const again = await cache.rows(rebuilt, { id: 's', updated_at: 2 }, members, () =>
      indexOf(rebuilt),
    );
    expect([...bitsetToRows(again.bits)]).toEqual([0, 2]);
    expect(again).not.toBe(changed);
  });

  it('does not keep a failed read', async () => {
    const cache = new SubsetRowsCache();
    const t = table(['a']);
    const subset = { id: 's', updated_at: 1 };
    await expect(
      cache.rows(
        t,
        subset,
        () => Promise.reject(new Error('db down')),
        () => indexOf(t),
      ),
    ).rejects.toThrow('db down');
    const rows = await cache.rows(
      t,
      subset,
      async () => ['a'],
      () => indexOf(t),
    );
    expect(rows.count).toBe(1);
  });
});

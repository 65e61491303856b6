import { fromColumns } from '@loupe/analysis';
import { describe, expect, it } from 'vitest';
import { ItemTableCache } from './item-table-cache.js';
import type { ExploreTable } from './item-table-loader.js';

const table = (bytes: number, dataVersion = 1): ExploreTable => ({
  table: fromColumns({ ids: [], columns: {} }),
  fields: [],
  dataVersion,
  bytes,
  stats: new Map(),
});

describe('item table cache', () => {
  it('shares one build between concurrent callers and rebuilds only for a newer version', async () => {
    const cache = new ItemTableCache();
    let builds = 0;
    const build = (v: number) => async () => {
      builds++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return table(10, v);
    };
    const [a, b] = await Promise.all([cache.get('k', 1, build(1)), cache.get('k', 1, build(1))]);
    expect(a).toBe(b);
    expect(builds).toBe(1);
    // A caller that read an older version before a write gets the newer table, not a rebuild.
    expect(await cache.get('k', 0, build(0))).toBe(a);
    expect((await cache.get('k', 2, build(2))).dataVersion).toBe(2);
    expect(builds).toBe(2);
    expect(cache.builds).toBe(2);
  });

  it('does not keep a failed build', async () => {
    const cache = new ItemTableCache();
    await expect(
      cache.get('k', 1, () => Promise.reject(new Error('database gone'))),
    ).rejects.toThrow('database gone');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await cache.get('k', 1, async () => table(1))).bytes).toBe(1);
  });

  it('drops the least recently used tables beyond its memory budget', async () => {
    const cache = new ItemTableCache(250);
    let builds = 0;
    const build = () => async () => {
      builds++;
      return table(100);
    };
    await cache.get('a', 1, build());
    await cache.get('b', 1, build());
    await cache.get('a', 1, build()); // a is now the most recently used
    await cache.get('c', 1, build()); // 300 bytes: b goes
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(builds).toBe(3);
    await cache.get('a', 1, build());
    await cache.get('c', 1, build());
    expect(builds).toBe(3);
    await cache.get('b', 1, build());
    expect(builds).toBe(4);
  });

  it('forgets every table of a deleted dataset', async () => {
    const cache = new ItemTableCache();
    await cache.get(ItemTableCache.key('d1', 'image', null), 1, async () => table(1));
    cache.forget('d1');
    let rebuilt = false;
    await cache.get(ItemTableCache.key('d1', 'image', null), 1, async () => {
      rebuilt = true;
      return table(1);
    });
    expect(rebuilt).toBe(true);
  });
});

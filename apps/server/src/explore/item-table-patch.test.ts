import { evaluateFilter, fromColumns, idsAt, queryRows, type Filter } from '@loupe/analysis';
import { describe, expect, it } from 'vitest';
import { ItemTableCache } from './item-table-cache.js';
import type { ExploreTable } from './item-table-loader.js';
import { tablePatch, type ItemEdits } from './item-table-patch.js';

const explore = (table: ExploreTable['table'], dataVersion = 3): ExploreTable => ({
  table,
  fields: [],
  dataVersion,
  bytes: 100,
  stats: new Map([
    ['label', { num_missing: 0, num_total: 4 }],
    ['card_index', { num_missing: 0, num_total: 4 }],
  ]),
});

/**
 * Samples a..d (rows 0..3, card_index 0 2 5 9): labels cat dog cat dog, splits train train
 * val –, predicted cat cat – dog.
 */
function samples(withPredictions: boolean): ExploreTable {
  return explore(
    fromColumns({
      ids: ['a', 'b', 'c', 'd'],
      version: 3,
      columns: {
        card_index: { type: 'numeric', values: [0, 2, 5, 9] },
        label: { type: 'string', values: ['cat', 'dog', 'cat', 'dog'] },
        split: { type: 'string', values: ['train', 'train', 'val', null] },
        ...(withPredictions
          ? {
              'prediction.label': { type: 'string' as const, values: ['cat', 'cat', null, 'dog'] },
              'prediction.is_correct': {
                type: 'boolean' as const,
                values: [true, false, null, true],
              },
            }
          : {}),
      },
      split: ['train', 'train', 'val', null],
    }),
  );
}

/** Objects a#1 a#2 (image a, train), c#1 (image c, val), and a predicted a#p. */
function objects(): ExploreTable {
  return explore(
    fromColumns({
      ids: ['a#1', 'a#2', 'pred:a#p', 'c#1'],
      version: 3,
      columns: {
        sample_id: { type: 'string', values: ['a', 'a', 'a', 'c'] },
        'object.label': { type: 'string', values: ['cat', 'dog', 'cat', 'cat'] },
        split: { type: 'string', values: ['train', 'train', 'train', 'val'] },
      },
      split: ['train', 'train', 'train', 'val'],
    }),
  );
}

/** Samples a..d hold seq 0, 2, 5, 9 (card_index; the gaps were deleted); x is not in the table. */
const SEQ: Record<string, number> = { a: 0, b: 2, c: 5, d: 9, x: 7 };
const groups = (values: Record<string, string[]> = {}) =>
  new Map(
    Object.entries(values).map(([value, ids]) => [value, { ids, seqs: ids.map((id) => SEQ[id]!) }]),
  );

const edits = (partial: Partial<Record<keyof ItemEdits, Record<string, string[]>>>): ItemEdits => ({
  sampleLabels: groups(partial.sampleLabels),
  sampleSplits: groups(partial.sampleSplits),
  objectLabels: new Map(Object.entries(partial.objectLabels ?? {})),
});

const select = (e: ExploreTable, filter: Filter) =>
  idsAt(e.table, queryRows(e.table, { within: evaluateFilter(e.table, filter) }));
const string = (metadata_id: string, value: string[]): Filter => ({
  type: 'string',
  metadata_id,
  op: 'in',
  value,
});

describe('tablePatch', () => {
  it('relabels samples and recomputes is_correct where there is a prediction', () => {
    const before = samples(true);
    const patch = tablePatch(
      'image',
      edits({ sampleLabels: { dog: ['a', 'c', 'x'], bird: ['d'] } }),
      4,
    );
    const after = patch(before);
    expect(after.dataVersion).toBe(4);
    expect(after.table.version).toBe(4);
    expect(after.table.ids).toBe(before.table.ids);
    expect(after.table.columns.get('card_index')).toBe(before.table.columns.get('card_index'));
    expect(select(after, string('label', ['dog']))).toEqual(['a', 'b', 'c']);
    expect(select(after, string('label', ['bird']))).toEqual(['d']);
    // a: dog predicted cat → false; c: no prediction → stays missing; d: bird predicted dog → false.
    const correct = after.table.columns.get('prediction.is_correct')!;
    expect('codes' in correct && Array.from(correct.codes)).toEqual([0, 0, -1, 0]);
    // Statistics of the edited field go; the others stay.
    expect(after.stats.has('label')).toBe(false);
    expect(after.stats.has('card_index')).toBe(true);
    // The old snapshot is untouched.
    expect(select(before, string('label', ['dog']))).toEqual(['b', 'd']);
  });

  it('moves samples, and objects with their samples, to new splits', () => {
    const edit = edits({ sampleSplits: { test: ['a'], train: ['d'] } });
    const sampleTable = tablePatch('image', edit, 4)(samples(false));
    expect(select(sampleTable, string('split', ['test']))).toEqual(['a']);
    expect(select(sampleTable, string('split', ['train']))).toEqual(['b', 'd']);
    expect(
      Array.from(sampleTable.table.split!.codes, (c) => sampleTable.table.split!.categories[c]),
    ).toEqual(['test', 'train', 'val', 'train']);
    const objectTable = tablePatch('image_object', edit, 4)(objects());
    expect(select(objectTable, string('split', ['test']))).toEqual(['a#1', 'a#2', 'pred:a#p']);
    expect(select(objectTable, string('split', ['val']))).toEqual(['c#1']);
  });

  it('relabels objects (re-matching is tested with the loader)', () => {
    const edit = edits({ objectLabels: { bird: ['a#1'] } });
    const after = tablePatch('image_object', edit, 4)(objects());
    expect(select(after, string('object.label', ['bird']))).toEqual(['a#1']);
    // Image tables without objects to match only take the new version.
    const image = samples(true);
    const same = tablePatch('image', edit, 4)(image);
    expect(same.table.version).toBe(4);
    expect(same.table.columns).toEqual(image.table.columns);
  });
});

describe('ItemTableCache.patch', () => {
  it('replaces tables of the old version by their patched snapshots, drops or keeps the others', async () => {
    const cache = new ItemTableCache();
    let builds = 0;
    const build = (table: ExploreTable) => async () => {
      builds++;
      return table;
    };
    await cache.get(ItemTableCache.key('d', 'image', null), 3, build(samples(false)));
    await cache.get(ItemTableCache.key('d', 'image_object', 'set'), 3, build(objects()));
    await cache.get(ItemTableCache.key('d', 'image_object', null), 2, build(objects()));
    await cache.get(ItemTableCache.key('e', 'image', null), 3, build(samples(false)));
    const asked: string[] = [];
    cache.patch('d', 3, 4, (level, predictions) => {
      asked.push(`${level}|${predictions}`);
      return predictions === null ? (t) => ({ ...t, dataVersion: 4 }) : null;
    });
    // Only the dataset's tables of version 3 are patched (or dropped).
    expect(asked.sort()).toEqual(['image_object|set', 'image|null']);
    const patched = await cache.get(
      ItemTableCache.key('d', 'image', null),
      4,
      build(samples(false)),
    );
    expect(patched.dataVersion).toBe(4);
    expect(builds).toBe(4);
    // Dropped: rebuilt on the next read; older: rebuilt too; another dataset: untouched.
    await cache.get(ItemTableCache.key('d', 'image_object', 'set'), 4, build(objects()));
    await cache.get(ItemTableCache.key('d', 'image_object', null), 4, build(objects()));
    await cache.get(ItemTableCache.key('e', 'image', null), 3, build(samples(false)));
    expect(builds).toBe(6);
  });

  it('forgets a table whose patch fails', async () => {
    const cache = new ItemTableCache();
    const key = ItemTableCache.key('d', 'image', null);
    await cache.get(key, 3, async () => samples(false));
    cache.patch('d', 3, 4, () => () => {
      throw new Error('bad patch');
    });
    await expect(cache.get(key, 4, async () => samples(false))).rejects.toThrow('bad patch');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await cache.get(key, 4, async () => samples(false))).dataVersion).toBe(3);
  });
});

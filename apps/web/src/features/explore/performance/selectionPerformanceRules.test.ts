// What the performance sidebar asks: the selection by ids, else the filter within the subset.
import { MAX_SELECTION_PERFORMANCE_ITEMS, type Filter } from '@loupe/contracts';
import { expect, test } from 'vitest';
import { idsDigest, planSummary } from './selectionPerformanceRules';

const filter: Filter = {
  type: 'and',
  children: [{ type: 'numeric', metadata_id: 'width', op: 'between', value: [1, 2] }],
};
const base = { dataLevel: 'image_object' as const, filter, subsetId: 's-1' };

test('a selection is asked by its ids alone; the filter and subset do not narrow it further', () => {
  const plan = planSummary({ ...base, selectedCount: 2, selectedIds: ['x#0', 'y#1'] });
  expect(plan.kind).toBe('ask');
  expect(plan.scope).toBe('selection');
  if (plan.kind !== 'ask') return;
  expect(plan.request.body).toEqual({ data_level: 'image_object', item_ids: ['x#0', 'y#1'] });
  expect(plan.request.identity).toEqual({
    data_level: 'image_object',
    items: idsDigest(['x#0', 'y#1']),
  });
});

test('without a selection: the filter and the subset, or everything', () => {
  const filtered = planSummary({ ...base, selectedCount: 0, selectedIds: [] });
  expect(filtered.scope).toBe('filter');
  expect(filtered.kind === 'ask' && filtered.request.body).toEqual({
    data_level: 'image_object',
    filter,
    subset_id: 's-1',
  });
  const subset = planSummary({ ...base, filter: null, selectedCount: 0, selectedIds: [] });
  expect(subset.scope).toBe('subset');
  const all = planSummary({
    ...base,
    filter: null,
    subsetId: null,
    selectedCount: 0,
    selectedIds: [],
  });
  expect(all.scope).toBe('all');
  expect(all.kind === 'ask' && all.request.body).toEqual({
    data_level: 'image_object',
    filter: null,
  });
});

test('a selection whose ids are loading waits; one above the limit is too many, unsent', () => {
  expect(planSummary({ ...base, selectedCount: 3, selectedIds: null }).kind).toBe('waiting');
  expect(
    planSummary({ ...base, selectedCount: MAX_SELECTION_PERFORMANCE_ITEMS, selectedIds: null })
      .kind,
  ).toBe('waiting');
  expect(
    planSummary({ ...base, selectedCount: MAX_SELECTION_PERFORMANCE_ITEMS + 1, selectedIds: null })
      .kind,
  ).toBe('too-many');
});

test('the ids digest ignores order and tells different sets apart', () => {
  const ids = Array.from({ length: 5000 }, (_, index) => `item-${index}`);
  const shuffled = [...ids].reverse();
  expect(idsDigest(shuffled)).toBe(idsDigest(ids));
  const seen = new Set([idsDigest(ids)]);
  // Dropping any one id, or swapping one for an unseen id, gives a new digest.
  for (let index = 0; index < ids.length; index += 97) {
    seen.add(idsDigest(ids.filter((_, other) => other !== index)));
    seen.add(idsDigest(ids.map((id, other) => (other === index ? `other-${index}` : id))));
  }
  expect(seen.size).toBe(1 + 2 * Math.ceil(ids.length / 97));
});

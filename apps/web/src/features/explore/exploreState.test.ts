import { expect, test } from 'vitest';
import { DEFAULT_CARD_TOGGLES, readExploreState, writeExploreState } from './exploreState';

const levels = ['image', 'image_object'] as const;

test('the state survives a round trip through the URL; defaults stay out of it', () => {
  const params = writeExploreState(new URLSearchParams('subset_id=s1'), {
    dataLevel: 'image_object',
    sort: [{ name: 'width', direction: 'descending' }],
    filter: { type: 'and', children: [{ type: 'history', record_id: 'r1' }] },
    colorBy: 'label',
    cardToggles: DEFAULT_CARD_TOGGLES,
    cardWidth: 240,
    view: 'split',
    item: 'cat-1',
  });
  expect(params.get('subset_id')).toBe('s1');
  expect(params.has('cards')).toBe(false);
  expect(readExploreState(params, [...levels])).toEqual({
    dataLevel: 'image_object',
    sort: [{ name: 'width', direction: 'descending' }],
    filter: { type: 'and', children: [{ type: 'history', record_id: 'r1' }] },
    colorBy: 'label',
    cardToggles: DEFAULT_CARD_TOGGLES,
    cardWidth: 240,
    view: 'split',
    item: 'cat-1',
    attribution: null,
    opacity: 50,
    compare: null,
    selectAll: false,
  });
  const cleared = writeExploreState(params, {
    sort: [],
    filter: null,
    item: null,
    colorBy: null,
    view: 'grid',
  });
  expect([...cleared.keys()].sort()).toEqual(['level', 'size', 'subset_id']);
});

test('unreadable parameters and levels the task does not have fall back to defaults', () => {
  const state = readExploreState(
    new URLSearchParams('level=audio&sort=[oops&filter={"type":"xor"}&size=5&view=table'),
    [...levels],
  );
  expect(state.dataLevel).toBe('image');
  expect(state.sort).toEqual([]);
  expect(state.filter).toBeNull();
  expect(state.cardWidth).toBe(120);
  expect(state.view).toBe('grid');
});

test('an attribution and its opacity live in the URL, in the default view only', () => {
  const params = writeExploreState(new URLSearchParams(), {
    attribution: 'image:gradcam',
    opacity: 35,
  });
  expect(readExploreState(params, [...levels])).toMatchObject({
    attribution: 'image:gradcam',
    opacity: 35,
  });
  // Another view clears the choice; the opacity stays.
  const split = writeExploreState(params, { view: 'split' });
  expect(split.has('attribution')).toBe(false);
  expect(readExploreState(split, [...levels]).opacity).toBe(35);
  // A link naming an attribution outside the default view shows none.
  const linked = new URLSearchParams('view=embeddings&attribution=image:gradcam');
  expect(readExploreState(linked, [...levels]).attribution).toBeNull();
  // Opacity is a whole percent from 0 to 100; the default (50) stays out of the URL.
  for (const [text, value] of [
    ['150', 100],
    ['-3', 0],
    ['12.6', 13],
    ['x', 50],
  ] as const)
    expect(readExploreState(new URLSearchParams({ opacity: text }), [...levels]).opacity).toBe(
      value,
    );
  expect(writeExploreState(params, { opacity: 50 }).has('opacity')).toBe(false);
});

test('the comparison of two models survives a round trip; an unreadable one is none', () => {
  const context = {
    predictions_id_a: '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d',
    predictions_id_b: '1b2c3d4e-5f60-4a71-8b92-a3b4c5d6e7f8',
    split: 'all',
    metric: 'accuracy',
    regression_value_name: null,
  };
  const params = writeExploreState(new URLSearchParams('level=image'), { compare: context });
  expect(JSON.parse(params.get('compare')!)).toEqual(context);
  expect(readExploreState(params, [...levels]).compare).toEqual(context);
  // Leaving the comparison removes the parameter and keeps the rest.
  const left = writeExploreState(params, { compare: null });
  expect(left.has('compare')).toBe(false);
  expect(left.get('level')).toBe('image');
  for (const text of ['{oops', '{"predictions_id_a":"a"}', '[1]', '']) {
    expect(
      readExploreState(new URLSearchParams({ compare: text }), [...levels]).compare,
    ).toBeNull();
  }
  expect(readExploreState(new URLSearchParams(), [...levels]).compare).toBeNull();
});

test("a link's select=all reads as selectAll; writing false removes it, other values are none", () => {
  const linked = new URLSearchParams('level=image&select=all');
  expect(readExploreState(linked, [...levels]).selectAll).toBe(true);
  const done = writeExploreState(linked, { selectAll: false });
  expect(done.toString()).toBe('level=image');
  expect(readExploreState(done, [...levels]).selectAll).toBe(false);
  expect(writeExploreState(new URLSearchParams(), { selectAll: true }).toString()).toBe(
    'select=all',
  );
  expect(readExploreState(new URLSearchParams('select=some'), [...levels]).selectAll).toBe(false);
  expect(readExploreState(new URLSearchParams('select='), [...levels]).selectAll).toBe(false);
});

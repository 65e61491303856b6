// A metadata field's explorer link: the model's explorer at the field's level, coloured and sorted
// by the field, with the whole result selected.
import { expect, test } from 'vitest';
import { exploreByField } from './metadataRules';

test("a field opens the model's explorer coloured and sorted by it, every item selected", () => {
  const url = new URL(exploreByField('d 1', 'p1', 'image_object', 'width'), 'http://loupe.test');
  expect(url.pathname).toBe('/models/datasets/d%201/predictions/p1/explore');
  expect(url.searchParams.get('level')).toBe('image_object');
  expect(url.searchParams.get('color')).toBe('width');
  expect(JSON.parse(url.searchParams.get('sort')!)).toEqual([
    { name: 'width', direction: 'descending' },
  ]);
  expect(url.searchParams.get('select')).toBe('all');
});

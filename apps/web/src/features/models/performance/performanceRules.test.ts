// The page's rules: splits, labels, stored metric choices, subset grouping and search, the first
// metadata field, and the explorer address of a bin.
import { Filter } from '@loupe/contracts';
import { expect, test } from 'vitest';
import {
  defaultMetadataField,
  defaultSplit,
  exploreConfigPath,
  formatMetric,
  groupSubsetEntries,
  readVisibleMetrics,
  splitOptions,
  subsetGridSpans,
  truncateLabel,
} from './performanceRules';
import { itemCount, performanceStrings } from './strings';
import { exploreConfig, field, subset, subsetEntry } from './testData';

test("splits: 'all' first and chosen by default, else the first split", () => {
  expect(splitOptions(['train', 'test'])).toEqual(['all', 'train', 'test']);
  expect(splitOptions(['all', 'val'])).toEqual(['all', 'val']);
  expect(defaultSplit(['all', 'train'])).toBe('all');
  expect(defaultSplit(['train', 'test'])).toBe('train');
});

test("labels are cut after the limit with '...'", () => {
  expect(truncateLabel('a-very-long-class-name-indeed', 20)).toBe('a-very-long-class-na...');
  expect(truncateLabel('exactly-twenty-chars', 20)).toBe('exactly-twenty-chars');
});

test('metric values: by catalogue type, a dash when undefined', () => {
  expect(formatMetric('accuracy', 0.9)).toBe('90.00%');
  expect(formatMetric('count', 12)).toBe('12');
  expect(formatMetric('mean_squared_error', 0.1234)).toBe('0.123');
  expect(formatMetric('accuracy', null)).toBe('–');
});

test('stored metric choices: kept in table order; unknown or unreadable ones fall back', () => {
  const choices = ['a', 'b', 'c'];
  expect(readVisibleMetrics('["c","a"]', choices, ['b'])).toEqual(['a', 'c']);
  expect(readVisibleMetrics('["gone"]', choices, ['b'])).toEqual(['b']);
  expect(readVisibleMetrics('not json', choices, ['b'])).toEqual(['b']);
  expect(readVisibleMetrics('{"a":1}', choices, ['b'])).toEqual(['b']);
  expect(readVisibleMetrics(null, choices, ['a', 'b'])).toEqual(['a', 'b']);
});

test('subsets: grouped audio, image, image object; searched by name without case', () => {
  const entries = [
    subsetEntry(subset(1, { name: 'Night', data_level: 'image_object' })),
    subsetEntry(subset(2, { name: 'night rain', data_level: 'image' })),
    subsetEntry(subset(3, { name: 'day', data_level: 'image' })),
    subsetEntry(subset(4, { name: 'nightingale', data_level: 'audio' })),
  ];
  const groups = groupSubsetEntries(entries, ' NIGHT');
  expect(groups.map((group) => group.level)).toEqual(['audio', 'image', 'image_object']);
  expect(groups.map((group) => group.entries.map((entry) => entry.subset.name))).toEqual([
    ['nightingale'],
    ['night rain'],
    ['Night'],
  ]);
  expect(groupSubsetEntries(entries, 'fog')).toEqual([]);
  expect(groupSubsetEntries(entries, '')[1]!.entries.map((entry) => entry.subset.name)).toEqual([
    'day',
    'night rain',
  ]);
});

test('the first metadata field: uploaded, then computed, then the label, skipping pending ones', () => {
  const split = field('split', { source: 'builtin' });
  const label = field('label', { source: 'builtin' });
  const computed = field('brightness', { source: 'computed', type: 'numeric' });
  const uploaded = field('weather');
  const pending = field('camera', { state: 'pending' });
  expect(defaultMetadataField([split, label, computed, pending, uploaded])).toBe('weather');
  expect(defaultMetadataField([split, label, computed])).toBe('brightness');
  expect(defaultMetadataField([split, label])).toBe('label');
  expect(defaultMetadataField([split])).toBe('split');
  expect(defaultMetadataField([pending])).toBeUndefined();
  expect(defaultMetadataField([])).toBeUndefined();
});

test("a bin's explorer address: level, filter, the bin's field on the cards, all selected", () => {
  const path = exploreConfigPath('/models/datasets/d/predictions/p', {
    ...exploreConfig('rain'),
    sort_by: 'weather',
  });
  const url = new URL(path, 'http://loupe.test');
  expect(url.pathname).toBe('/models/datasets/d/predictions/p/explore');
  expect(url.searchParams.get('level')).toBe('image');
  const filter: unknown = JSON.parse(url.searchParams.get('filter')!);
  expect(filter).toEqual(exploreConfig('rain').filter);
  // The explorer reads it back with the contracts' schema.
  expect(Filter.safeParse(filter).success).toBe(true);
  expect(JSON.parse(url.searchParams.get('sort')!)).toEqual([
    { name: 'weather', direction: 'ascending' },
  ]);
  expect(JSON.parse(url.searchParams.get('cards')!)).toEqual([
    'similarity_score',
    'label',
    'split',
    'weather',
  ]);
  // The explorer selects the whole result on arrival, so the map highlights it.
  expect(url.searchParams.get('select')).toBe('all');
  // No filter and no extra field: only the level (and the selection).
  expect(
    exploreConfigPath('/r', {
      data_level: 'image_object',
      filter: null,
      sort_by: null,
      visible_metadata_ids: ['split'],
    }),
  ).toBe('/r/explore?level=image_object&select=all');
});

test('subset cards share a row equally: as many columns as cards, up to 4 (fewer on small screens)', () => {
  expect(subsetGridSpans(1)).toEqual({ xs: 24, md: 24, lg: 24, xl: 24 });
  expect(subsetGridSpans(2)).toEqual({ xs: 24, md: 12, lg: 12, xl: 12 });
  expect(subsetGridSpans(3)).toEqual({ xs: 24, md: 12, lg: 8, xl: 8 });
  expect(subsetGridSpans(6)).toEqual({ xs: 24, md: 12, lg: 8, xl: 6 });
});

test('item counts are plural except for one', () => {
  expect(itemCount(0)).toBe('0 items');
  expect(itemCount(1)).toBe('1 item');
  expect(itemCount(2)).toBe('2 items');
  expect(itemCount(12345)).toBe('12,345 items');
  expect(performanceStrings.itemsUsed(1, 1)).toBe('1 item');
  expect(performanceStrings.itemsUsed(0, 1)).toBe('0 of 1 item with predictions');
  expect(performanceStrings.itemsUsed(3, 4)).toBe('3 of 4 items with predictions');
  expect(performanceStrings.binItems(1)).toBe('1 item');
});

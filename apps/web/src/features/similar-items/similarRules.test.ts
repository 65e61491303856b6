import { expect, test } from 'vitest';
import {
  dataLevelOf,
  levelWord,
  parseSampleIds,
  preselected,
  usableFeatures,
} from './similarRules';

test('sample_ids is comma-joined; blanks and repeats are dropped, order kept', () => {
  expect(parseSampleIds(null)).toEqual([]);
  expect(parseSampleIds('')).toEqual([]);
  expect(parseSampleIds('b, a,,b,c ')).toEqual(['b', 'a', 'c']);
});

test('the data level comes from the URL when the task allows it, else the task default', () => {
  expect(dataLevelOf('object_detection', 'image_object')).toBe('image_object');
  expect(dataLevelOf('classification', 'image_object')).toBe('image');
  expect(dataLevelOf('audio_classification', null)).toBe('audio');
  expect(levelWord('image_object')).toBe('objects');
  expect(levelWord('audio')).toBe('samples');
});

test('usable features: some query item has them, fewest missing first', () => {
  expect(
    usableFeatures(
      [
        { feature_name: 'none', num_missing: 3 },
        { feature_name: 'half', num_missing: 1 },
        { feature_name: 'all', num_missing: 0 },
      ],
      3,
    ).map((f) => f.feature_name),
  ).toEqual(['all', 'half']);
});

test("a subset's query items: those named in sample_ids, or all when it names none of them", () => {
  expect([...preselected(['a', 'b', 'c'], ['c', 'x'])]).toEqual(['c']);
  expect([...preselected(['a', 'b'], ['x'])]).toEqual(['a', 'b']);
  expect([...preselected(['a', 'b'], [])]).toEqual(['a', 'b']);
});

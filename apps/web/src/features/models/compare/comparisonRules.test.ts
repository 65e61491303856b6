// The comparison page's rules: score scaling, delta texts, widths, order and scaling of bars, and
// the explorer addresses of bars, bins and subcategories.
import type { Filter, MetricDelta } from '@loupe/contracts';
import { expect, test } from 'vitest';
import {
  barLength,
  binExploreConfig,
  comparisonExplorePath,
  exploreSides,
  groupSubsetComparison,
  largestAbsoluteDelta,
  rawDeltaText,
  relativeDeltaText,
  scoreText,
  segmentWidths,
  sortByAbsoluteDelta,
  subsetCategoryCounts,
} from './comparisonRules';
import { subcategorySides } from './components/SubcategoryIllustration';
import {
  classificationComparison,
  DATASET_ID,
  entity,
  exploreConfig,
  MODEL_A,
  MODEL_B,
  subset,
  subsetComparisonEntry,
} from './testData';

const delta = (change: Partial<MetricDelta>): MetricDelta => ({
  model_a: 0.8,
  model_b: 0.84,
  raw_delta: 0.04,
  relative_delta: 5,
  better: 'model_b_is_better',
  ...change,
});

test('scores are percentages times 100 with 2 decimals, except accuracy and EER', () => {
  expect(scoreText('macro_f1_score', 0.8765)).toBe('87.65%');
  expect(scoreText('mAP_COCO', 0.5)).toBe('50.00%');
  expect(scoreText('accuracy', 0.9)).toBe('0.90');
  expect(scoreText('equal_error_rate', 0.125)).toBe('0.13');
  expect(scoreText('mean_absolute_error', 0.125)).toBe('0.125');
  expect(scoreText('accuracy', null)).toBe('–');
});

test('the relative delta carries its sign and arrow; improvement follows the desired direction', () => {
  expect(relativeDeltaText(delta({}))).toEqual({ text: '+5.00%', arrow: '↑', improved: true });
  // A lower error of B: a drop, and an improvement.
  expect(
    relativeDeltaText(delta({ model_a: 0.5, model_b: 0.4, raw_delta: -0.1, relative_delta: -20 })),
  ).toEqual({ text: '−20.00%', arrow: '↓', improved: true });
  expect(
    relativeDeltaText(
      delta({ raw_delta: -0.05, relative_delta: -5.556, better: 'model_a_is_better' }),
    ),
  ).toEqual({ text: '−5.56%', arrow: '↓', improved: false });
  expect(relativeDeltaText(delta({ relative_delta: null, raw_delta: null, better: null }))).toEqual(
    { text: '–', arrow: '', improved: null },
  );
  expect(rawDeltaText('f1_score', -0.4)).toBe('−40.00%');
  expect(rawDeltaText('mean_absolute_error', 0.25)).toBe('+0.25');
});

test('segment widths are count / total × 100', () => {
  expect(segmentWidths([2, 1, 1, 7], 11).map((width) => width.toFixed(2))).toEqual([
    '18.18',
    '9.09',
    '9.09',
    '63.64',
  ]);
  expect(segmentWidths([0, 0], 0)).toEqual([0, 0]);
});

test('lists sort by |raw delta|, and bars scale to the largest |raw delta| of every category', () => {
  const breakdown = classificationComparison().per_class!;
  expect(sortByAbsoluteDelta(breakdown.model_b_is_better).map((entry) => entry.entity)).toEqual([
    'fish',
    'mouse',
    'snake',
    'horse',
    'lizard',
    'bird',
    'rabbit',
  ]);
  // fish: 0.6 is the largest across categories; cat (A better) −0.4 is two thirds of it.
  const largest = largestAbsoluteDelta(breakdown);
  expect(largest).toBeCloseTo(0.6);
  expect(barLength(entity('cat', 0.9, 0.5).raw_delta, largest)).toBeCloseTo(66.667, 2);
  expect(barLength(0.6, largest)).toBeCloseTo(100);
  expect(barLength(0, 0)).toBe(0);
});

test('an explore link opens model A or B with the config, the comparison context, all selected', () => {
  const config = exploreConfig({
    type: 'string',
    metadata_id: 'comparison.category',
    op: 'in',
    value: ['model_b_is_better'],
  });
  const toB = new URL(comparisonExplorePath(DATASET_ID, 'model_b', config), 'http://x');
  expect(toB.pathname).toBe(`/models/datasets/${DATASET_ID}/predictions/${MODEL_B}/explore`);
  expect(toB.searchParams.get('level')).toBe('image');
  expect(JSON.parse(toB.searchParams.get('filter')!)).toEqual(config.filter);
  expect(JSON.parse(toB.searchParams.get('sort')!)).toEqual([
    { name: 'comparison.delta', direction: 'ascending' },
  ]);
  expect(JSON.parse(toB.searchParams.get('cards')!)).toContain('comparison.category');
  expect(JSON.parse(toB.searchParams.get('compare')!)).toEqual(config.context);
  expect(toB.searchParams.get('select')).toBe('all');
  const toA = new URL(comparisonExplorePath(DATASET_ID, 'model_a', config), 'http://x');
  expect(toA.pathname).toBe(`/models/datasets/${DATASET_ID}/predictions/${MODEL_A}/explore`);
});

test('a bin adds {bin between [i, i]} to the distribution filter with and', () => {
  const filter: Filter = { type: 'string', metadata_id: 'object.type', op: 'in', value: ['gt'] };
  const config = exploreConfig(filter, { bin_metadata_id: 'comparison.bin' });
  expect(binExploreConfig(config, 7).filter).toEqual({
    type: 'and',
    children: [
      filter,
      { type: 'numeric', metadata_id: 'comparison.bin', op: 'between', value: [7, 7] },
    ],
  });
  expect(binExploreConfig({ ...config, filter: null }, 0).filter).toEqual({
    type: 'numeric',
    metadata_id: 'comparison.bin',
    op: 'between',
    value: [0, 0],
  });
});

test('subcategories open the models that have a prediction there', () => {
  expect(exploreSides('unmatched_a_fp_b')).toEqual(['model_b']);
  expect(exploreSides('tp_a_unmatched_b')).toEqual(['model_a']);
  expect(exploreSides('tp_a_fp_b')).toEqual(['model_a', 'model_b']);
  expect(exploreSides(null)).toEqual(['model_a', 'model_b']);
  expect(subcategorySides('fp_a_unmatched_b')).toEqual({ a: 'fp', b: 'unmatched' });
});

test('subsets group by level in order and count per category on their chosen metric', () => {
  const entries = [
    subsetComparisonEntry(subset(1, { name: 'Night', data_level: 'image_object' }), 0.5, 0.4),
    subsetComparisonEntry(subset(2, { name: 'day' }), 0.5, 0.6),
    subsetComparisonEntry(subset(3, { name: 'birds', data_level: 'audio' }), 0.5, 0.5),
  ];
  expect(groupSubsetComparison(entries, '').map((group) => group.level)).toEqual([
    'audio',
    'image',
    'image_object',
  ]);
  expect(groupSubsetComparison(entries, 'NIGHT').map((group) => group.entries.length)).toEqual([1]);
  expect(subsetCategoryCounts(entries)).toEqual({
    model_a_is_better: 1,
    both_are_problematic: 0,
    both_are_neutral: 1,
    model_b_is_better: 1,
  });
});

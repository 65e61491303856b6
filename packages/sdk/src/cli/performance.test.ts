// The tables `loupe performance` prints. The Python SDK's test_performance.py holds the same
// answer and the same text: both command lines print exactly this.
import type { SubsetPerformanceEntry } from '@loupe/contracts';
import { describe, expect, it } from 'vitest';
import type { Performance } from '../client/performance.js';
import { performanceText } from './performance.js';

const FIXTURE: Performance = {
  statistics: {
    status: 'ready',
    progress: 1,
    data_version: 1,
    splits: ['all', 'train'],
    num_items: 6,
    num_missing: 1,
    statistics: [
      {
        metric_name: 'accuracy',
        values: [
          { split_name: 'all', value: 0.5 },
          { split_name: 'train', value: 2 / 3 },
        ],
      },
      {
        metric_name: 'count',
        values: [
          { split_name: 'all', value: 6 },
          { split_name: 'train', value: 3 },
        ],
      },
      {
        metric_name: 'equal_error_rate',
        values: [
          { split_name: 'all', value: null },
          { split_name: 'train', value: 0.25 },
        ],
      },
    ],
  },
  overall: {
    status: 'ready',
    progress: 1,
    data_version: 1,
    primary_key: 'class',
    metrics: ['f1_score', 'count'],
    splits: [
      {
        split_name: 'all',
        rows: [
          { key: 'cat', values: { f1_score: 0.5, count: 3 } },
          { key: 'dog', values: { f1_score: 4 / 7, count: 3 } },
        ],
      },
      { split_name: 'train', rows: [] },
    ],
  },
  subsets: {
    performance_per_subset: {
      s1: {
        performance_per_metric: { accuracy: 1 / 3, macro_f1_score: null },
        num_items_used: 3,
        num_items_total: 3,
        metric_name: 'accuracy',
        subset: { id: 's1', name: 'Cats', data_level: 'image' },
      } as unknown as SubsetPerformanceEntry,
    },
    pending_subsets: [],
  },
};

const FIXTURE_TEXT = `Performance of model 'resnet' on dataset 'pets' (classification)
6 items, 1 without a prediction

Statistics
Metric                       all   train
Accuracy                  50.00%  66.67%
Ground-truth annotations       6       3
EER                            –  25.00%

Overall performance per class (split all)
Class      F1  Ground-truth annotations
cat    50.00%                         3
dog    57.14%                         3

Subset performance (split all)
Subset  Level  Items  Accuracy  Macro F1
Cats    image    3/3    33.33%         –
`;

const heading = { dataset: 'pets', model: 'resnet', task: 'classification' } as const;

describe('performanceText', () => {
  it('prints the statistics per split, the table of a split and the subsets', () => {
    expect(performanceText(heading, FIXTURE, 'all')).toBe(FIXTURE_TEXT);
  });

  it('says when a split has no rows', () => {
    const { subsets: _, ...withoutSubsets } = FIXTURE;
    expect(performanceText(heading, withoutSubsets, 'train')).toMatch(
      /Overall performance per class \(split train\)\nNo rows\.\n$/,
    );
  });
});

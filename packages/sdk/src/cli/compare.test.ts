// The tables `loupe compare` prints. compare.fixture.json is a detection comparison (overall, per
// class, ground-truth and predicted objects with their subcategories, subsets) and
// compare.fixture.txt its text; the Python SDK's test_compare.py prints the same text from the
// same file, so both command lines print exactly this.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Comparison } from '../client/compare.js';
import { compareText } from './compare.js';

const read = (name: string) => readFileSync(join(import.meta.dirname, name), 'utf8');
const FIXTURE = JSON.parse(read('compare.fixture.json')) as Comparison;
const heading = { dataset: 'street', modelA: 'yolo-s', modelB: 'yolo-m' };

describe('compareText', () => {
  it('prints the winners, the per-class breakdown, the object sections and the subsets', () => {
    expect(compareText(heading, FIXTURE)).toBe(read('compare.fixture.txt'));
  });

  it('says when the active metric has no per-class breakdown', () => {
    const accuracy: Comparison = {
      ...FIXTURE,
      task: 'classification',
      metric: 'accuracy',
      iou_threshold: null,
      overall: { accuracy: FIXTURE.overall.precision! },
      per_class: null,
      per_class_unavailable: true,
      per_object_gt: null,
      per_object_pred: null,
      subsets: undefined,
    };
    expect(compareText(heading, accuracy)).toBe(
      "Comparison of model A 'yolo-s' and model B 'yolo-m' on dataset 'street' (classification)\n" +
        'Split all, metric Accuracy\n\n' +
        'Overall\n' +
        'Metric    Model A  Model B    Delta  Relative   Better\n' +
        'Accuracy   80.00%   60.00%  -20.00%   -25.00%  Model A\n\n' +
        'Per class breakdown\n' +
        'Per-class breakdown is not available for "Accuracy"\n' +
        "It's available for all other metrics\n",
    );
  });

  it('shows three categories for regression, its value name, and the status while computing', () => {
    const text = compareText(heading, {
      ...FIXTURE,
      task: 'regression',
      metric: 'mean_absolute_error',
      regression_value_name: 'age',
      iou_threshold: null,
      status: 'computing',
      progress: 0.4,
      overall: {},
      other_metrics: null,
      per_class: null,
      per_object_gt: null,
      per_object_pred: null,
      per_sample: { ...FIXTURE.per_object_gt!, unit: 'sample', subcategories: {} },
      subsets: undefined,
    });
    expect(text).toContain('Split all, metric Mean absolute error, value name age\n\n');
    expect(text).toContain('Status: computing (40%)\n\nOverall\nNo metrics.\n\n');
    expect(text).toContain(
      'Per sample breakdown (10 samples)\n' +
        'Category           Items   Share\n' +
        'Model A is better      2  20.00%\n' +
        'Both are equal         4  40.00%\n' +
        'Model B is better      3  30.00%\n\n' +
        'IoU difference (B − A): mean 0.013, std 0.25\n',
    );
  });
});

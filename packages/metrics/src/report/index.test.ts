// The report's dispatch: catalogue metric ids and order for every task, slice metric ids, and
// the errors a caller gets for bad input.
import { describe, expect, it } from 'vitest';
import { PERFORMANCE_METRICS, type TaskType } from '../catalogue.js';
import {
  finegrainedReport,
  performanceReport,
  sliceMetricIds,
  sliceMetrics,
  type EvalData,
} from './index.js';
import { opts } from './test-support.js';

/** One small data set per task: two samples, the second without a prediction. */
const DATA: Record<TaskType, EvalData> = {
  classification: {
    kind: 'class',
    classes: ['a', 'b'],
    truth: Int32Array.of(0, 1),
    pred: Int32Array.of(0, -1),
    score: Float64Array.of(0.8, NaN),
    probabilities: null,
  },
  audio_classification: {
    kind: 'class',
    classes: ['a', 'b', 'c'],
    truth: Int32Array.of(0, 1),
    pred: Int32Array.of(0, -1),
    score: Float64Array.of(NaN, NaN),
    probabilities: null,
  },
  regression: {
    kind: 'value',
    valueNames: ['v'],
    truth: Float64Array.of(1, 2),
    pred: Float64Array.of(1.5, NaN),
  },
  object_detection: objects('bbox'),
  instance_segmentation: objects('segm'),
  semantic_segmentation: {
    kind: 'mask',
    classes: ['bg', 'fg'],
    confusion: [Float64Array.of(3, 1, 0, 2), null],
  },
  automatic_speech_recognition: {
    kind: 'transcript',
    reference: ['a b', 'c'],
    hypothesis: ['a c', null],
  },
};

function objects(iouType: 'bbox' | 'segm'): EvalData {
  return {
    kind: 'objects',
    classes: ['car'],
    iouType,
    hasPrediction: Uint8Array.of(1, 0),
    imageSize: Float64Array.of(20, 20, 20, 20),
    gt: {
      image: Int32Array.of(0, 1),
      label: Int32Array.of(0, 0),
      box: Float64Array.of(0, 0, 10, 10, 0, 0, 5, 5),
      rle: [null, null],
      iscrowd: Uint8Array.of(0, 0),
    },
    pred: {
      image: Int32Array.of(0),
      label: Int32Array.of(0),
      score: Float64Array.of(0.9),
      box: Float64Array.of(0, 0, 10, 10),
      rle: [null],
    },
  };
}

const TASKS = Object.keys(DATA) as TaskType[];
const splits = [
  { split_name: 'all', rows: Uint32Array.of(0, 1) },
  { split_name: 'empty', rows: Uint32Array.of() },
];

describe('performanceReport', () => {
  for (const task of TASKS) {
    it(`lists the catalogue's metrics in order for ${task}`, () => {
      const spec = PERFORMANCE_METRICS[task];
      const report = performanceReport(task, DATA[task], splits, opts);
      expect(report.statistics.map((s) => s.metric_name)).toEqual([
        ...spec.statistics.visible,
        ...spec.statistics.hidden,
      ]);
      expect(report.overall.primary_key).toBe(spec.primaryKey);
      const overallIds = [...spec.overall.visible, ...spec.overall.hidden];
      expect(report.overall.metrics).toEqual(overallIds);
      for (const split of report.overall.splits) {
        for (const row of split.rows) expect(Object.keys(row.values)).toEqual(overallIds);
      }
      for (const statistic of report.statistics) {
        expect(statistic.values.map((v) => v.split_name)).toEqual(['all', 'empty']);
        // Numbers or null, never NaN (JSON has none).
        for (const { value } of statistic.values) {
          expect(value === null || Number.isFinite(value)).toBe(true);
        }
      }
      // The empty split: every rate null, every count 0.
      for (const statistic of report.statistics) {
        expect([null, 0]).toContain(statistic.values[1]!.value);
      }
      expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    });

    it(`computes the slice metrics of ${task} and only those`, () => {
      const ids = PERFORMANCE_METRICS[task].slice;
      for (const id of ids) expect(sliceMetricIds(task)).toContain(id);
      const result = sliceMetrics(task, DATA[task], Uint32Array.of(0, 1), ids, opts);
      expect(Object.keys(result)).toEqual([...ids]);
      expect(sliceMetrics(task, DATA[task], Uint32Array.of(0), [ids[0]!], opts)).toEqual({
        [ids[0]!]: expect.anything() as unknown,
      });
    });

    it(`draws fine-grained series for ${task} that survive JSON`, () => {
      const fine = finegrainedReport(task, DATA[task], splits, opts);
      expect(fine.split_performance.map((s) => s.split_name)).toEqual(['all', 'empty']);
      expect(JSON.parse(JSON.stringify(fine))).toEqual(fine);
    });
  }
});

describe('bad input', () => {
  it('names an unknown metric id', () => {
    expect(() =>
      sliceMetrics('regression', DATA.regression, Uint32Array.of(0), ['accuracy'], opts),
    ).toThrow(/metric "accuracy" is not available for regression/);
    expect(() =>
      sliceMetrics('regression', DATA.regression, Uint32Array.of(0), ['nope'], opts),
    ).toThrow(RangeError);
  });

  it('refuses data of another task and sample indexes out of range', () => {
    expect(() => performanceReport('regression', DATA.classification, splits, opts)).toThrow(
      TypeError,
    );
    expect(() =>
      performanceReport(
        'classification',
        DATA.classification,
        [{ split_name: 'train', rows: Uint32Array.of(0, 2) }],
        opts,
      ),
    ).toThrow(/split "train" has sample index 2/);
    expect(() =>
      sliceMetrics('classification', DATA.classification, Uint32Array.of(0), ['accuracy'], {
        iouThreshold: 2,
      }),
    ).toThrow(RangeError);
  });

  it('refuses class indexes outside the classes', () => {
    const data: EvalData = {
      kind: 'class',
      classes: ['a'],
      truth: Int32Array.of(3),
      pred: Int32Array.of(0),
      score: Float64Array.of(NaN),
      probabilities: null,
    };
    expect(() => performanceReport('classification', data, splits.slice(1), opts)).toThrow(
      /truth\[0\] = 3/,
    );
  });
});

// Semantic segmentation performance report: a hand-computed case and the per-image IoU
// histogram, and summed confusion against per-image sums on a random case.
import { describe, expect, it } from 'vitest';
import {
  finegrainedReport,
  performanceReport,
  predictionCoverage,
  sliceMetrics,
  type MaskEvalData,
} from './index.js';
import { opts, prng, rows } from './test-support.js';

describe('semantic segmentation report by hand', () => {
  // Pixel confusion per image, row = truth, column = prediction, classes [bg, road]:
  // image 0 [[5, 1], [2, 2]], image 1 [[3, 0], [0, 0]], image 2 without prediction.
  const data: MaskEvalData = {
    kind: 'mask',
    classes: ['bg', 'road'],
    confusion: [Float64Array.of(5, 1, 2, 2), Float64Array.of(3, 0, 0, 0), null],
  };
  const splits = [
    { split_name: 'all', rows: rows(0, 1, 2) },
    { split_name: 'one', rows: rows(1) },
    { split_name: 'none', rows: rows(2) },
  ];
  const report = performanceReport('semantic_segmentation', data, splits, opts);
  const stat = (id: string, s: number) =>
    report.statistics.find((x) => x.metric_name === id)!.values[s]!.value;

  it('sums the pixel confusion of the predicted images', () => {
    // Sum [[8, 1], [2, 2]]. bg: TP 8, FP 2, FN 1 → IoU 8/11, P 8/10, R 8/9, F1 16/19.
    // road: TP 2, FP 1, FN 2 → IoU 2/5, P 2/3, R 1/2, F1 4/7.
    const [bg, road] = report.overall.splits[0]!.rows;
    expect(bg!.values.IoU).toBeCloseTo(8 / 11, 12);
    expect(bg!.values.precision).toBeCloseTo(0.8, 12);
    expect(bg!.values.recall).toBeCloseTo(8 / 9, 12);
    expect(bg!.values.f1_score).toBeCloseTo(16 / 19, 12);
    expect(road!.values.IoU).toBeCloseTo(0.4, 12);
    expect(road!.values.f1_score).toBeCloseTo(4 / 7, 12);
    // Statistics: means over the classes.
    expect(report.statistics.map((s) => s.metric_name)).toEqual([
      'precision',
      'recall',
      'f1_score',
      'IoU',
    ]);
    expect(stat('IoU', 0)).toBeCloseTo((8 / 11 + 0.4) / 2, 12);
    expect(stat('precision', 0)).toBeCloseTo((0.8 + 2 / 3) / 2, 12);
    expect(stat('recall', 0)).toBeCloseTo((8 / 9 + 0.5) / 2, 12);
    expect(stat('f1_score', 0)).toBeCloseTo((16 / 19 + 4 / 7) / 2, 12);
  });

  it('leaves classes absent from a split out of its means', () => {
    // Image 1 has only bg (TP 3): bg IoU 1; road has no value.
    expect(stat('IoU', 1)).toBe(1);
    expect(report.overall.splits[1]!.rows[1]!.values).toEqual({
      precision: null,
      recall: null,
      f1_score: null,
      IoU: null,
    });
    // Only the image without prediction: nothing.
    expect(stat('IoU', 2)).toBeNull();
  });

  it('answers mean per-image IoU on slices and counts missing masks', () => {
    // Image 0: bg 5/(5+1+2) = 5/8, road 2/(2+1+2) = 2/5 → 0.5125; image 1: bg 1 → 1.
    expect(
      sliceMetrics('semantic_segmentation', data, rows(0, 1, 2), ['mean_IoU', 'IoU'], opts),
    ).toEqual({ mean_IoU: (0.5125 + 1) / 2, IoU: (8 / 11 + 0.4) / 2 });
    expect(predictionCoverage('semantic_segmentation', data)).toEqual({
      num_items: 3,
      num_missing: 1,
    });
  });

  it('draws the histogram of per-image mean IoU', () => {
    const fine = finegrainedReport('semantic_segmentation', data, splits, opts);
    expect(fine.kind).toBe('iou_distribution');
    const series = fine.split_performance[0]!.performance[0]!;
    // 0.5125 → bin 10 ([0.5, 0.55)), 1 → bin 19 (the last, inclusive).
    expect(series.values).toHaveLength(20);
    expect(series.values[10]![1]).toBe(1);
    expect(series.values[19]![1]).toBe(1);
    expect(series.values.reduce((a, [, c]) => a + c, 0)).toBe(2);
    expect(series.summary).toEqual({ metric_name: 'mean_IoU', value: (0.5125 + 1) / 2 });
  });
});

describe('semantic segmentation report on a random case', () => {
  const random = prng(3);
  const K = 4;
  const N = 50;
  const confusion = Array.from({ length: N }, () =>
    random() < 0.1
      ? null
      : Float64Array.from({ length: K * K }, (_, c) =>
          c % (K + 1) === 0 ? Math.floor(random() * 100) : Math.floor(random() * 10),
        ),
  );
  const data: MaskEvalData = { kind: 'mask', classes: ['a', 'b', 'c', 'd'], confusion };
  const all = Uint32Array.from({ length: N }, (_, i) => i);

  it('agrees with IoU from pixel counts added image by image', () => {
    const report = performanceReport(
      'semantic_segmentation',
      data,
      [{ split_name: 'all', rows: all }],
      opts,
    );
    for (let k = 0; k < K; k++) {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      for (const c of confusion) {
        if (!c) continue;
        for (let j = 0; j < K; j++) {
          if (j === k) tp += c[k * K + k]!;
          else {
            fn += c[k * K + j]!;
            fp += c[j * K + k]!;
          }
        }
      }
      expect(report.overall.splits[0]!.rows[k]!.values.IoU).toBeCloseTo(tp / (tp + fp + fn), 12);
    }
  });
});

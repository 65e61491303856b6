// Object detection and instance segmentation performance report: a hand-computed case (COCO AP
// and matching), masks, and a naive greedy matcher on a larger random case.
import { describe, expect, it } from 'vitest';
import { encodeMask } from '../rle.js';
import {
  finegrainedReport,
  performanceReport,
  predictionCoverage,
  sliceMetrics,
  type ObjectEvalData,
} from './index.js';
import { objectMatches } from './objects.js';
import { objectData, prng, rows, statistic, type Obj } from './test-support.js';

describe('object detection report by hand', () => {
  // Classes car (0), person (1); images 0, 1, 2 (image 2 not predicted).
  // g0 img0 car [0,0,10,10]; g1 img0 person [20,20,10,10]; g2 img1 car [0,0,10,10];
  // g3 img2 car [50,50,10,10].
  // p0 img0 car [0,0,10,10] 0.9: IoU 1 with g0 → TP.
  // p1 img0 person [25,20,10,10] 0.8: overlap 5×10 = 50, union 150 → IoU 1/3 with g1.
  // p2 img1 car [0,0,10,10] 0.7 and p3 img1 car, same box, 0.95: p3 (higher) takes g2, p2 FP.
  const data = objectData(
    ['car', 'person'],
    3,
    [
      { image: 0, label: 0, box: [0, 0, 10, 10] },
      { image: 0, label: 1, box: [20, 20, 10, 10] },
      { image: 1, label: 0, box: [0, 0, 10, 10] },
      { image: 2, label: 0, box: [50, 50, 10, 10] },
    ],
    [
      { image: 0, label: 0, box: [0, 0, 10, 10], score: 0.9 },
      { image: 0, label: 1, box: [25, 20, 10, 10], score: 0.8 },
      { image: 1, label: 0, box: [0, 0, 10, 10], score: 0.7 },
      { image: 1, label: 0, box: [0, 0, 10, 10], score: 0.95 },
    ],
    [1, 1, 0],
  );
  const splits = [
    { split_name: 'all', rows: rows(0, 1, 2) },
    { split_name: 'a', rows: rows(0, 1) },
    { split_name: 'b', rows: rows(2) },
    { split_name: 'empty', rows: rows() },
  ];
  const report = performanceReport('object_detection', data, splits, { iouThreshold: 0.5 });

  it('counts TP/FP/FN at the IoU threshold, missing images as missed objects', () => {
    // TP p0, p3; FP p1 (IoU 1/3 < 0.5), p2; FN g1, g3 → P 2/4, R 2/4, F1 4/(4 + 2 + 2).
    expect(statistic(report, 'tp', 'all')).toBe(2);
    expect(statistic(report, 'fp', 'all')).toBe(2);
    expect(statistic(report, 'fn', 'all')).toBe(2);
    expect(statistic(report, 'precision', 'all')).toBe(0.5);
    expect(statistic(report, 'recall', 'all')).toBe(0.5);
    expect(statistic(report, 'f1_score', 'all')).toBe(0.5);
    expect(statistic(report, 'ground_truth_objects', 'all')).toBe(4);
    // At IoU 0.3, p1 matches g1: TP 3, FP 1, FN 1 → P 3/4, R 3/4.
    expect(
      sliceMetrics('object_detection', data, rows(0, 1, 2), ['precision', 'recall'], {
        iouThreshold: 0.3,
      }),
    ).toEqual({ precision: 0.75, recall: 0.75 });
  });

  it("computes COCO's mAP overall and per class", () => {
    // car: 3 GT; detections by score p3 TP, p0 TP, p2 FP at every IoU threshold (IoU 1):
    // precision 1, 1, 2/3 at recall 1/3, 2/3, 2/3. Interpolated precision is 1 at the 67
    // recall points 0 … 0.66 and 0 at 0.67 … 1 → AP 67/101. person: its one detection has IoU
    // 1/3 → AP 0. mAP (67/101 + 0)/2. (COCO's precision is tp/(tp + fp + ε): 1 − 2⁻⁵³.)
    expect(statistic(report, 'mAP_COCO', 'all')).toBeCloseTo(67 / 202, 12);
    const [car, person] = report.overall.splits[0]!.rows;
    expect(car!.values.mAP_COCO).toBeCloseTo(67 / 101, 12);
    expect(person!.values.mAP_COCO).toBe(0);
    // car: TP 2, FP 1, FN 1 → P 2/3, R 2/3, F1 4/6; person: TP 0, FP 1, FN 1 → 0.
    expect(car!.values.precision).toBeCloseTo(2 / 3, 12);
    expect(car!.values.f1_score).toBeCloseTo(2 / 3, 12);
    expect(car!.values.ground_truth_objects).toBe(3);
    expect(person!.values).toMatchObject({ precision: 0, recall: 0, tp: 0, fp: 1, fn: 1 });
    expect(report.overall.metrics).toEqual([
      'mAP_COCO',
      'precision',
      'recall',
      'ground_truth_objects',
      'f1_score',
      'tp',
      'fp',
      'fn',
    ]);
  });

  it('evaluates each split on its own images', () => {
    // Split b: image 2 only, not predicted: g3 is an FN → P 0, R 0, car AP 0, person no GT.
    expect(statistic(report, 'recall', 'b')).toBe(0);
    expect(statistic(report, 'mAP_COCO', 'b')).toBe(0);
    expect(report.overall.splits[2]!.rows[1]!.values.mAP_COCO).toBeNull();
    // Counts of the splits add up to 'all'.
    for (const id of ['tp', 'fp', 'fn', 'ground_truth_objects']) {
      expect((statistic(report, id, 'a') as number) + (statistic(report, id, 'b') as number)).toBe(
        statistic(report, id, 'all'),
      );
    }
    // Empty split: values null, counts 0.
    expect(statistic(report, 'mAP_COCO', 'empty')).toBeNull();
    expect(statistic(report, 'precision', 'empty')).toBeNull();
    expect(statistic(report, 'ground_truth_objects', 'empty')).toBe(0);
  });

  it('counts images without prediction as missing', () => {
    expect(predictionCoverage('object_detection', data)).toEqual({ num_items: 3, num_missing: 1 });
  });

  it('gives per-object match status', () => {
    const status = objectMatches(data, 0.5);
    expect([...status.gt]).toEqual([1, 2, 1, 2]);
    expect([...status.pred]).toEqual([1, 2, 2, 1]);
  });

  it("draws COCO's precision at 101 recall points at IoU 0.5", () => {
    const fine = finegrainedReport('object_detection', data, splits, { iouThreshold: 0.5 });
    expect(fine.kind).toBe('precision_recall');
    const all = fine.split_performance[0]!;
    const car = all.performance[0]!;
    expect(car.values).toHaveLength(101);
    car.values.forEach(([recall, precision], r) => {
      expect(recall).toBeCloseTo(r / 100, 12);
      expect(precision).toBeCloseTo(r <= 66 ? 1 : 0, 12);
    });
    expect(car.summary!.value).toBeCloseTo(67 / 101, 12);
    expect(all.average_performance!.summary!.value).toBeCloseTo(67 / 202, 12);
    // No person ground truth in split b: no curve.
    expect(fine.split_performance[2]!.performance[1]!.values).toEqual([]);
    expect(fine.split_performance[3]!.average_performance).toBeNull();
  });
});

describe('instance segmentation report by hand', () => {
  // 4×4 image; masks in column-major order (pixel (y, x) at x·4 + y).
  // g0 class 0: 2×2 top-left (pixels 0, 1, 4, 5); p0 class 0: its left column (0, 1) → IoU 2/4.
  // g1 class 1 and p1 class 1: no mask, box [2, 2, 2, 2] → made from the box, IoU 1.
  const mask = (pixels: number[]) => {
    const m = new Uint8Array(16);
    for (const p of pixels) m[p] = 1;
    return encodeMask(m, 4, 4);
  };
  const data: ObjectEvalData = {
    kind: 'objects',
    classes: ['a', 'b'],
    iouType: 'segm',
    hasPrediction: Uint8Array.of(1),
    imageSize: Float64Array.of(4, 4),
    gt: {
      image: Int32Array.of(0, 0),
      label: Int32Array.of(0, 1),
      box: Float64Array.of(0, 0, 2, 2, 2, 2, 2, 2),
      rle: [mask([0, 1, 4, 5]), null],
      iscrowd: Uint8Array.of(0, 0),
    },
    pred: {
      image: Int32Array.of(0, 0),
      label: Int32Array.of(0, 1),
      score: Float64Array.of(0.9, 0.8),
      box: Float64Array.of(0, 0, 1, 2, 2, 2, 2, 2),
      rle: [mask([0, 1]), null],
    },
  };

  it('matches on masks and computes mAP over IoU .50:.95', () => {
    const report = performanceReport(
      'instance_segmentation',
      data,
      [{ split_name: 'all', rows: rows(0) }],
      { iouThreshold: 0.5 },
    );
    // IoU 0.5 ≥ 0.5 and 1: both TP.
    expect(statistic(report, 'tp', 'all')).toBe(2);
    expect(statistic(report, 'precision', 'all')).toBe(1);
    // Class a matches only at IoU threshold 0.5 (1 of 10) → AP 1/10; class b at all → 1.
    expect(statistic(report, 'mAP_COCO', 'all')).toBeCloseTo((0.1 + 1) / 2, 12);
    expect(report.statistics.map((s) => s.metric_name)).toEqual([
      'mAP_COCO',
      'precision',
      'recall',
      'ground_truth_objects',
      'f1_score',
      'tp',
      'fp',
      'fn',
    ]);
    // At 0.6 the half-overlapping mask no longer matches.
    expect(
      sliceMetrics('instance_segmentation', data, rows(0), ['tp', 'fp', 'fn'], {
        iouThreshold: 0.6,
      }),
    ).toEqual({ tp: 1, fp: 1, fn: 1 });
  });
});

function iou(a: number[], b: number[]): number {
  const w = Math.max(0, Math.min(a[0]! + a[2]!, b[0]! + b[2]!) - Math.max(a[0]!, b[0]!));
  const h = Math.max(0, Math.min(a[1]! + a[3]!, b[1]! + b[3]!) - Math.max(a[1]!, b[1]!));
  const inter = w * h;
  return inter / (a[2]! * a[3]! + b[2]! * b[3]! - inter);
}

/** Greedy matching image by image, predictions by descending score, best unmatched IoU. */
function naiveCounts(gt: Obj[], pred: Obj[], images: Set<number>, threshold: number, K: number) {
  const counts = Array.from({ length: K }, () => ({ tp: 0, fp: 0, fn: 0 }));
  for (const image of images) {
    const g = gt.filter((o) => o.image === image);
    const p = pred
      .filter((o) => o.image === image)
      .map((o, order) => ({ o, order }))
      .sort((x, y) => y.o.score! - x.o.score! || x.order - y.order)
      .map((x) => x.o);
    const taken = g.map(() => false);
    for (const d of p) {
      let best = -1;
      let bestIou = -1;
      g.forEach((t, j) => {
        if (taken[j] || t.label !== d.label) return;
        const v = iou(d.box, t.box);
        if (v >= threshold && v > bestIou) {
          best = j;
          bestIou = v;
        }
      });
      if (best >= 0) {
        taken[best] = true;
        counts[d.label]!.tp++;
      } else counts[d.label]!.fp++;
    }
    g.forEach((t, j) => {
      if (!taken[j]) counts[t.label]!.fn++;
    });
  }
  return counts;
}

describe('object detection report against a naive greedy matcher', () => {
  const random = prng(23);
  const N = 150;
  const K = 3;
  const gt: Obj[] = [];
  const pred: Obj[] = [];
  for (let image = 0; image < N; image++) {
    const n = Math.floor(random() * 6);
    for (let g = 0; g < n; g++) {
      const box = [random() * 60, random() * 60, 10 + random() * 30, 10 + random() * 30];
      const label = Math.floor(random() * K);
      gt.push({ image, label, box });
      if (random() < 0.8) {
        const jitter = box.map((v, c) => v + (random() - 0.5) * (c < 2 ? 8 : 6));
        pred.push({ image, label, box: jitter, score: Math.round(random() * 10) / 10 });
      }
    }
    for (let d = Math.floor(random() * 3); d > 0; d--) {
      const box = [random() * 60, random() * 60, 10 + random() * 30, 10 + random() * 30];
      pred.push({
        image,
        label: Math.floor(random() * K),
        box,
        score: Math.round(random() * 10) / 10,
      });
    }
  }
  const data = objectData(['a', 'b', 'c'], N, gt, pred);
  const all = Uint32Array.from({ length: N }, (_, i) => i);
  const splits = [
    { split_name: 'all', rows: all },
    { split_name: 'low', rows: all.filter((i) => i < 60) },
    { split_name: 'high', rows: all.filter((i) => i >= 60) },
  ];

  for (const threshold of [0.3, 0.5, 0.7]) {
    it(`agrees on TP/FP/FN, precision and recall per split and class at IoU ${threshold}`, () => {
      const report = performanceReport('object_detection', data, splits, {
        iouThreshold: threshold,
      });
      for (const { split_name, rows: r } of splits) {
        const naive = naiveCounts(gt, pred, new Set(r), threshold, K);
        const total = naive.reduce(
          (s, c) => ({ tp: s.tp + c.tp, fp: s.fp + c.fp, fn: s.fn + c.fn }),
          { tp: 0, fp: 0, fn: 0 },
        );
        expect(statistic(report, 'tp', split_name)).toBe(total.tp);
        expect(statistic(report, 'fp', split_name)).toBe(total.fp);
        expect(statistic(report, 'fn', split_name)).toBe(total.fn);
        expect(statistic(report, 'precision', split_name)).toBeCloseTo(
          total.tp / (total.tp + total.fp),
          12,
        );
        expect(statistic(report, 'recall', split_name)).toBeCloseTo(
          total.tp / (total.tp + total.fn),
          12,
        );
        const table = report.overall.splits.find((s) => s.split_name === split_name)!.rows;
        naive.forEach((c, k) => {
          expect(table[k]!.values).toMatchObject({ tp: c.tp, fp: c.fp, fn: c.fn });
        });
      }
      const sum = (id: string) =>
        (statistic(report, id, 'low') as number) + (statistic(report, id, 'high') as number);
      for (const id of ['tp', 'fp', 'fn', 'ground_truth_objects']) {
        expect(sum(id)).toBe(statistic(report, id, 'all'));
      }
    });
  }
});

// Comparing two detection models object by object: a hand-built case with every subcategory,
// and masks. Each model's matching is the report's own (report/objects.test.ts).
import { describe, expect, it } from 'vitest';
import { encodeMask } from '../rle.js';
import type { ObjectEvalData } from '../report/index.js';
import { objectData as reportObjectData, type Obj } from '../report/test-support.js';
import { compareModels, selectSectionItems, type ObjectSubcategory } from './index.js';

/** Two classes, car and person. */
const objectData = (images: number, gt: Obj[], pred: Obj[], hasPrediction?: number[]) =>
  reportObjectData(['car', 'person'], images, gt, pred, hasPrediction);

const CAR = 0;
const PERSON = 1;
const all = (n: number) => Uint32Array.from({ length: n }, (_, i) => i);

// Ground truth (boxes x, y, w, h):
//   image 0: g0 car [0 0 10 10], g1 person [20 20 10 10], g2 car [40 40 10 10]
//   image 1: g3 person [0 0 10 10]
//   image 2: g4 car [0 0 10 10]
//   image 3: g5 person [0 0 10 10]
//   image 4: g6 car [0 0 10 10]
const gt: Obj[] = [
  { image: 0, label: CAR, box: [0, 0, 10, 10] },
  { image: 0, label: PERSON, box: [20, 20, 10, 10] },
  { image: 0, label: CAR, box: [40, 40, 10, 10] },
  { image: 1, label: PERSON, box: [0, 0, 10, 10] },
  { image: 2, label: CAR, box: [0, 0, 10, 10] },
  { image: 3, label: PERSON, box: [0, 0, 10, 10] },
  { image: 4, label: CAR, box: [0, 0, 10, 10] },
];
// A: a0 TP g0; a1 FP (nothing there); a2 TP g2; a3 TP g3; a4 FP (g3 taken by a3);
//    a5 TP g4 (IoU 70/130 ≈ 0.54); a6 FP; a7 FP on g6 (IoU 40/160 = 0.25).
const a = objectData(5, gt, [
  { image: 0, label: CAR, box: [0, 0, 10, 10], score: 0.9 },
  { image: 0, label: PERSON, box: [50, 50, 10, 10], score: 0.8 },
  { image: 0, label: CAR, box: [40, 40, 10, 10], score: 0.7 },
  { image: 1, label: PERSON, box: [0, 0, 10, 10], score: 0.5 },
  { image: 1, label: PERSON, box: [0, 0, 10, 10], score: 0.3 },
  { image: 2, label: CAR, box: [3, 0, 10, 10], score: 0.9 },
  { image: 3, label: PERSON, box: [50, 50, 5, 5], score: 0.3 },
  { image: 4, label: CAR, box: [6, 0, 10, 10], score: 0.4 },
]);
// B: b0 TP g0 (IoU 90/110); b1 TP g1; b2 FP; b3 TP g3; b4 FP (overlaps a4: IoU 90/110);
//    b5 FP on g4 (0.25, but 70/130 with a5); b6 TP g6 (0.54). No prediction for image 3.
const b = objectData(
  5,
  gt,
  [
    { image: 0, label: CAR, box: [1, 0, 10, 10], score: 0.6 },
    { image: 0, label: PERSON, box: [20, 20, 10, 10], score: 0.5 },
    { image: 0, label: CAR, box: [70, 70, 10, 10], score: 0.4 },
    { image: 1, label: PERSON, box: [0, 0, 10, 10], score: 0.9 },
    { image: 1, label: PERSON, box: [0, 1, 10, 10], score: 0.2 },
    { image: 2, label: CAR, box: [6, 0, 10, 10], score: 0.8 },
    { image: 4, label: CAR, box: [3, 0, 10, 10], score: 0.7 },
  ],
  [1, 1, 1, 0, 1],
);

describe('object detection by hand', () => {
  const { result, items } = compareModels('object_detection', a, b, all(5), {
    metric: 'precision',
    iouThreshold: 0.5,
  });

  const subcategories = (section: typeof result.per_object_gt) =>
    Object.fromEntries(Object.entries(section!.subcategories).map(([id, s]) => [id, s.num_items]));

  it('classifies every ground truth by who found it', () => {
    const section = result.per_object_gt!;
    expect(section.unit).toBe('ground_truth_object');
    expect(section.num_items).toBe(7);
    // g0, g3 both; g1, g6 B only; g2, g4 A only; g5 neither.
    expect(subcategories(section)).toEqual({
      tp_a_fn_b: 2,
      fn_a_tp_b: 2,
      fn_a_fn_b: 1,
      tp_a_tp_b: 2,
    });
    expect([
      section.model_a_is_better.num_items,
      section.both_are_problematic.num_items,
      section.both_are_neutral.num_items,
      section.model_b_is_better.num_items,
    ]).toEqual([2, 1, 2, 2]);
    const gts = (id: ObjectSubcategory) =>
      Array.from(
        selectSectionItems(items.per_object_gt!, { subcategory: id }),
        (t) => items.per_object_gt!.groundTruth![t],
      );
    expect(gts('tp_a_fn_b')).toEqual([2, 4]);
    expect(gts('fn_a_tp_b')).toEqual([1, 6]);
    expect(gts('fn_a_fn_b')).toEqual([5]);
    expect(section.subcategories.tp_a_fn_b!.category).toBe('model_a_is_better');
    expect(section.subcategories.fn_a_fn_b!.fraction_of_total_items).toBeCloseTo(1 / 7, 12);
  });

  it('distributes the IoU difference of each ground truth', () => {
    // B − A: g0 90/110 − 1; g1 1 − 0; g2 0 − 1; g3 0; g4 0.25 − 70/130; g5 0; g6 70/130 − 0.25.
    const expected = [90 / 110 - 1, 1, -1, 0, 0.25 - 70 / 130, 0, 70 / 130 - 0.25];
    const delta = Array.from(items.per_object_gt!.delta);
    expected.forEach((d, g) => expect(delta[g]).toBeCloseTo(d, 12));
    const d = result.per_object_gt!.distribution;
    expect(d.type).toBe('iou');
    expect(d.y_label).toBe('Ground-truth objects');
    const mean = expected.reduce((x, y) => x + y, 0) / 7;
    expect(d.mean).toBeCloseTo(mean, 12);
    // The subcategory's distribution counts its own items: g2 (−1) and g4.
    const own = result.per_object_gt!.subcategories.tp_a_fn_b!.distribution;
    expect(own.bins.reduce((n, bin) => n + bin.value, 0)).toBe(2);
    expect(own.bins[0]!.value).toBe(1);
    expect(own.mean).toBeCloseTo((-1 + 0.25 - 70 / 130) / 2, 12);
  });

  it('pairs the predictions: by a shared ground truth, then by overlap, else unmatched', () => {
    const section = result.per_object_pred!;
    expect(section.unit).toBe('predicted_object');
    // (a0, b0) share g0; (a3, b3) share g3; (a4, b4) overlap, both FP; (a5, b5) overlap:
    // A TP, B FP; (a7, b6): A FP, B TP. Alone: a1 FP, a2 TP, a6 FP; b1 TP, b2 FP.
    expect(subcategories(section)).toEqual({
      tp_a_tp_b: 2,
      tp_a_fp_b: 1,
      fp_a_tp_b: 1,
      fp_a_fp_b: 1,
      tp_a_unmatched_b: 1,
      unmatched_a_tp_b: 1,
      unmatched_a_fp_b: 1,
      fp_a_unmatched_b: 2,
    });
    expect(section.num_items).toBe(10);
    expect([
      section.model_a_is_better.num_items,
      section.both_are_problematic.num_items,
      section.both_are_neutral.num_items,
      section.model_b_is_better.num_items,
    ]).toEqual([3, 1, 2, 4]);
    const pairs = (id: ObjectSubcategory) =>
      Array.from(selectSectionItems(items.per_object_pred!, { subcategory: id }), (t) => [
        items.per_object_pred!.predictionA![t],
        items.per_object_pred!.predictionB![t],
      ]);
    expect(pairs('tp_a_tp_b')).toEqual([
      [0, 0],
      [3, 3],
    ]);
    expect(pairs('fp_a_fp_b')).toEqual([[4, 4]]);
    expect(pairs('tp_a_fp_b')).toEqual([[5, 5]]);
    expect(pairs('fp_a_tp_b')).toEqual([[7, 6]]);
    expect(pairs('fp_a_unmatched_b')).toEqual([
      [1, -1],
      [6, -1],
    ]);
    expect(pairs('tp_a_unmatched_b')).toEqual([[2, -1]]);
    expect(pairs('unmatched_a_tp_b')).toEqual([[-1, 1]]);
    expect(pairs('unmatched_a_fp_b')).toEqual([[-1, 2]]);
  });

  it('distributes the confidence difference of each prediction (0 for no prediction)', () => {
    const d = result.per_object_pred!.distribution;
    expect(d.type).toBe('confidence');
    // B − A: −0.3, −0.8, −0.7, +0.5, +0.4, +0.4, −0.1, −0.1, −0.3, +0.3.
    const sum = -0.3 - 0.8 - 0.7 + 0.5 + 0.4 + 0.4 - 0.1 - 0.1 - 0.3 + 0.3;
    expect(d.mean).toBeCloseTo(sum / 10, 12);
    expect(result.per_object_pred!.subcategories.unmatched_a_fp_b!.distribution.mean).toBeCloseTo(
      0.4,
      12,
    );
  });

  it('compares precision overall and per class at the IoU threshold', () => {
    expect(result.iou_threshold).toBe(0.5);
    // A: TP 4, FP 4 → 1/2; B: TP 4, FP 3 → 4/7.
    expect(result.overall.precision).toMatchObject({ model_a: 0.5, better: 'model_b_is_better' });
    expect(result.overall.precision!.model_b).toBeCloseTo(4 / 7, 12);
    expect(result.overall.recall!.model_a).toBeCloseTo(4 / 7, 12);
    expect(Object.keys(result.overall)).toEqual(['mAP_COCO', 'precision', 'recall', 'f1_score']);
    // car: A 3/4, B 2/4; person: A 1/4, B 2/3.
    const perClass = result.per_class!;
    expect(perClass.metric).toBe('precision');
    expect(perClass.model_a_is_better.map((e) => [e.entity, e.raw_delta])).toEqual([
      ['car', -0.25],
    ]);
    expect(perClass.model_b_is_better.map((e) => e.entity)).toEqual(['person']);
    expect(perClass.model_b_is_better[0]!.raw_delta).toBeCloseTo(2 / 3 - 1 / 4, 12);
    expect(result.per_sample).toBeNull();
    expect(result.per_word).toBeNull();
  });

  it('counts only the images of the rows', () => {
    const { result: part } = compareModels('object_detection', a, b, Uint32Array.from([2, 4]), {
      metric: 'mAP_COCO',
      iouThreshold: 0.5,
    });
    expect(part.per_object_gt!.num_items).toBe(2);
    expect(part.per_object_pred!.num_items).toBe(2);
    expect(part.per_object_pred!.subcategories.tp_a_fp_b!.num_items).toBe(1);
    expect(part.per_object_pred!.subcategories.fp_a_tp_b!.num_items).toBe(1);
  });

  it('moves objects between subcategories with the IoU threshold', () => {
    // At 0.2 the 0.25 overlaps match: g4 and g6 are found by both.
    const { result: loose } = compareModels('object_detection', a, b, all(5), {
      metric: 'precision',
      iouThreshold: 0.2,
    });
    expect(loose.iou_threshold).toBe(0.2);
    expect(loose.per_object_gt!.subcategories.tp_a_tp_b!.num_items).toBe(4);
  });
});

describe('instance segmentation', () => {
  it('matches on masks', () => {
    // One 10×10 image; the ground truth is the left half. A's mask is the same; B's the top
    // half (IoU 25/75): B misses it.
    const mask = (f: (y: number, x: number) => boolean) => {
      const m = new Uint8Array(100);
      for (let x = 0; x < 10; x++) for (let y = 0; y < 10; y++) m[x * 10 + y] = f(y, x) ? 1 : 0;
      return encodeMask(m, 10, 10);
    };
    const left = mask((_, x) => x < 5);
    const top = mask((y) => y < 5);
    const data = (rle: typeof left): ObjectEvalData => ({
      kind: 'objects',
      classes: ['cell'],
      iouType: 'segm',
      hasPrediction: Uint8Array.from([1]),
      imageSize: Float64Array.from([10, 10]),
      gt: {
        image: Int32Array.from([0]),
        label: Int32Array.from([0]),
        box: Float64Array.from([0, 0, 5, 10]),
        rle: [left],
        iscrowd: new Uint8Array(1),
      },
      pred: {
        image: Int32Array.from([0]),
        label: Int32Array.from([0]),
        score: Float64Array.from([0.9]),
        box: Float64Array.from([0, 0, 10, 10]),
        rle: [rle],
      },
    });
    const { result, items } = compareModels(
      'instance_segmentation',
      data(left),
      data(top),
      all(1),
      {
        metric: 'mAP_COCO',
        iouThreshold: 0.5,
      },
    );
    expect(result.per_object_gt!.subcategories.tp_a_fn_b!.num_items).toBe(1);
    expect(items.per_object_gt!.delta[0]).toBeCloseTo(25 / 75 - 1, 12);
    // The two predictions overlap 25/75 < 0.5: not a pair.
    expect(result.per_object_pred!.subcategories.tp_a_unmatched_b!.num_items).toBe(1);
    expect(result.per_object_pred!.subcategories.unmatched_a_fp_b!.num_items).toBe(1);
    expect(result.overall.mAP_COCO!.better).toBe('model_a_is_better');
  });
});

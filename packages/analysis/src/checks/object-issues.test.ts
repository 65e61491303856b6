import { describe, expect, it } from 'vitest';
import { createRandom } from '../random.js';
import {
  boxIou,
  findMissingObjects,
  findSpuriousObjects,
  findWrongObjectLabels,
  type ObjectBoxes,
  type ScoredObjectBoxes,
} from './object-issues.js';

type Box = [number, number, number, number];

function truthOf(rows: [image: number, label: number, box: Box][]): ObjectBoxes {
  return {
    image: Int32Array.from(rows, (r) => r[0]),
    label: Int32Array.from(rows, (r) => r[1]),
    boxes: Float64Array.from(rows.flatMap((r) => r[2])),
  };
}

function predictedOf(
  rows: [image: number, label: number, score: number, box: Box][],
): ScoredObjectBoxes {
  return {
    image: Int32Array.from(rows, (r) => r[0]),
    label: Int32Array.from(rows, (r) => r[1]),
    score: Float32Array.from(rows, (r) => r[2]),
    boxes: Float64Array.from(rows.flatMap((r) => r[3])),
  };
}

describe('boxIou', () => {
  const iou = (a: Box, b: Box): number => boxIou(a, 0, b, 0);
  it('is intersection over union of x, y, w, h boxes', () => {
    expect(iou([0, 0, 10, 10], [0, 0, 10, 10])).toBe(1);
    // 5 × 10 shared of 100 + 100 − 50.
    expect(iou([0, 0, 10, 10], [5, 0, 10, 10])).toBeCloseTo(1 / 3, 12);
    // 10 × 8 shared of 100 + 100 − 80.
    expect(iou([50, 50, 10, 10], [50, 52, 10, 10])).toBeCloseTo(2 / 3, 12);
    expect(iou([0, 0, 10, 10], [10, 0, 10, 10])).toBe(0);
    expect(iou([0, 0, 0, 0], [0, 0, 0, 0])).toBe(0);
  });
});

describe('object issues of a hand-made set', () => {
  const truth = truthOf([
    [0, 0, [0, 0, 10, 10]], // g0: predicted as is by p0
    [0, 1, [20, 20, 10, 10]], // g1: p1 says class 0 → wrong label
    [0, 0, [50, 50, 10, 10]], // g2: only p4 (score 0.2) overlaps → spurious
    [1, 2, [0, 0, 10, 10]], // g3: its image has no predictions → not checked
    [0, 1, [NaN, NaN, NaN, NaN]], // g4: no box → left out
    [4, 0, [0, 0, 10, 10]], // g5: three other-class predictions → wrong label, class 1
  ]);
  const predicted = predictedOf([
    [0, 0, 0.9, [0, 0, 10, 10]], // p0
    [0, 0, 0.8, [20, 20, 10, 10]], // p1
    [0, 1, 0.7, [100, 100, 10, 10]], // p2: nothing there → missing
    [0, 1, 0.5, [100, 0, 10, 10]], // p3: below 0.6 → not checked
    [0, 0, 0.2, [50, 52, 10, 10]], // p4: IoU 2/3 with g2 but score 0.2
    [0, 1, 0.65, [5, 0, 10, 10]], // p5: IoU 1/3 with g0 → covered
    [0, 1, 0.95, [6, 0, 10, 10]], // p6: IoU 40 / 160 = 0.25 with g0 → missing
    [2, 2, 0.6, [0, 0, 5, 5]], // p7: image without ground truth → missing
    [4, 1, 0.8, [0, 0, 10, 10]], // p8: IoU 1 with g5
    [4, 2, 0.8, [0, 0, 10, 9]], // p9: same score, IoU 0.9
    [4, 3, 0.7, [0, 0, 10, 10]], // p10: lower score
  ]);

  it('finds confident predictions no ground truth covers', () => {
    const missing = findMissingObjects(truth, predicted);
    // Scores ≥ 0.6: p0, p1, p2, p5, p6, p7, p8, p9, p10.
    expect(missing.checked).toBe(9);
    expect([...missing.rows]).toEqual([2, 6, 7]);
    expect(missing.maxIou[0]).toBe(0);
    expect(missing.maxIou[1]).toBeCloseTo(0.25, 12);
    expect(missing.maxIou[2]).toBe(0);
  });

  it('takes the thresholds given', () => {
    const missing = findMissingObjects(truth, predicted, { minScore: 0.85 });
    expect(missing.checked).toBe(2); // p0, p6
    expect([...missing.rows]).toEqual([6]);
    // Covered only from IoU 0.2: p6 (0.25) now is.
    expect([...findMissingObjects(truth, predicted, { iou: 0.2 }).rows]).toEqual([2, 7]);
  });

  it('finds ground truth no prediction supports', () => {
    const spurious = findSpuriousObjects(truth, predicted);
    // g0, g1, g2 (image 0) and g5 (image 4).
    expect(spurious.checked).toBe(4);
    expect([...spurious.rows]).toEqual([2]);
    expect(spurious.maxIou[0]).toBe(0);
    // Counting p4's score, g2 is supported.
    expect(findSpuriousObjects(truth, predicted, { minScore: 0.1 }).rows.length).toBe(0);
  });

  it('finds boxes a confident prediction of another class covers', () => {
    const wrong = findWrongObjectLabels(truth, predicted);
    expect(wrong.checked).toBe(4);
    expect([...wrong.rows]).toEqual([1, 5]);
    expect([...wrong.suggested]).toEqual([0, 1]);
    expect([...wrong.prediction]).toEqual([1, 8]);
    expect(wrong.score[0]).toBeCloseTo(0.8, 6);
    expect([...wrong.iou]).toEqual([1, 1]);
  });

  it('rejects inconsistent input', () => {
    expect(() => findMissingObjects({ ...truth, label: new Int32Array(1) }, predicted)).toThrow(
      RangeError,
    );
    expect(() => findMissingObjects(truth, { ...predicted, score: new Float32Array(1) })).toThrow(
      RangeError,
    );
  });
});

describe('object issues against all-pairs loops', () => {
  it('agree on random images', () => {
    const random = createRandom(11);
    const randomBox = (): Box => [
      random.int(0, 12),
      random.int(0, 12),
      random.int(6, 14),
      random.int(6, 14),
    ];
    const truthRows: [number, number, Box][] = [];
    const predictedRows: [number, number, number, Box][] = [];
    for (let image = 0; image < 40; image++) {
      for (let g = random.int(0, 5); g > 0; g--)
        truthRows.push([image, random.int(0, 2), randomBox()]);
      for (let p = random.int(0, 6); p > 0; p--) {
        predictedRows.push([
          image,
          random.int(0, 2),
          Math.round(random.next() * 10) / 10,
          randomBox(),
        ]);
      }
    }
    const truth = truthOf(truthRows);
    const predicted = predictedOf(predictedRows);
    const iou = (g: number, p: number): number => boxIou(truth.boxes, g, predicted.boxes, p);
    const gts = truthRows.map((_, g) => g);
    const preds = predictedRows.map((_, p) => p);
    const sameImage = (g: number, p: number): boolean => truthRows[g]![0] === predictedRows[p]![0];
    const score = (p: number): number => predicted.score[p]!;

    const missing = preds.filter(
      (p) => score(p) >= 0.6 && gts.every((g) => !sameImage(g, p) || iou(g, p) < 0.3),
    );
    expect([...findMissingObjects(truth, predicted).rows]).toEqual(missing);

    const withPredictions = gts.filter((g) => preds.some((p) => sameImage(g, p)));
    const spurious = withPredictions.filter((g) =>
      preds.every((p) => !sameImage(g, p) || score(p) < 0.3 || iou(g, p) < 0.3),
    );
    expect([...findSpuriousObjects(truth, predicted).rows]).toEqual(spurious);

    const covering = (g: number): number[] =>
      preds.filter((p) => sameImage(g, p) && iou(g, p) >= 0.5);
    const wrong = withPredictions.filter(
      (g) =>
        covering(g).every((p) => predictedRows[p]![1] !== truthRows[g]![1]) &&
        covering(g).some((p) => score(p) >= 0.6),
    );
    const found = findWrongObjectLabels(truth, predicted);
    expect([...found.rows]).toEqual(wrong);
    wrong.forEach((g, f) => {
      const top = Math.max(...covering(g).map(score));
      expect(found.score[f]).toBe(top);
      expect(predictedRows[found.prediction[f]!]![1]).toBe(found.suggested[f]);
    });
    // The random set exercises every rule.
    expect(Math.min(missing.length, spurious.length, wrong.length)).toBeGreaterThan(0);
  });
});

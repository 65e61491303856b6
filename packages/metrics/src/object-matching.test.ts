// Per-object matching for the model pages, by hand.
import { describe, expect, it } from 'vitest';
import { matchObjects, precisionRecallF1 } from './object-matching.js';
import { encodeMask } from './rle.js';

describe('matchObjects', () => {
  const gts = [
    { label: 'cat', box: [0, 0, 10, 10] },
    { label: 'dog', box: [20, 20, 10, 10] },
    { label: 'cat', box: [40, 40, 10, 10] },
  ];

  it('marks each ground truth TP or FN and each prediction TP or FP with the pair', () => {
    const preds = [
      { label: 'cat', box: [0, 0, 10, 8], score: 0.9 }, // IoU 0.8 with gt 0
      { label: 'cat', box: [1, 0, 10, 10], score: 0.95 }, // IoU 9/11 with gt 0: takes it first
      { label: 'cat', box: [20, 20, 10, 10], score: 0.8 }, // right place, wrong label
      { label: 'cat', box: [40, 40, 10, 10], score: 0.2 }, // below the score threshold
    ];
    const r = matchObjects(gts, preds, { iouThreshold: 0.5, scoreThreshold: 0.3 });
    expect(r.predictions.map((p) => p.status)).toEqual(['FP', 'TP', 'FP', 'below_score']);
    expect(r.predictions[1]).toEqual({ status: 'TP', groundTruth: 0, iou: 90 / 110 });
    expect(r.groundTruths.map((g) => g.status)).toEqual(['TP', 'FN', 'FN']);
    expect(r.groundTruths[0]!.prediction).toBe(1);
    expect([r.tp, r.fp, r.fn]).toEqual([1, 2, 2]);
    const prf = precisionRecallF1(r);
    expect(prf.precision).toBe(1 / 3);
    expect(prf.recall).toBe(1 / 3);
    expect(prf.f1).toBeCloseTo(1 / 3, 15);
  });

  it('ignores labels when asked, and applies the IoU threshold inclusively', () => {
    const preds = [{ label: 'cat', box: [20, 20, 10, 10], score: 1 }];
    expect(matchObjects(gts, preds, { sameLabel: false }).tp).toBe(1);
    // IoU exactly 0.5: [0,0,10,10] vs [0,0,10,5].
    const half = matchObjects([gts[0]!], [{ label: 'cat', box: [0, 0, 10, 5], score: 1 }], {
      iouThreshold: 0.5,
    });
    expect(half.tp).toBe(1);
  });

  it('handles no predictions and no ground truth', () => {
    expect(matchObjects(gts, [])).toMatchObject({ tp: 0, fp: 0, fn: 3 });
    expect(matchObjects([], [{ label: 'x', box: [0, 0, 1, 1], score: 1 }])).toMatchObject({
      tp: 0,
      fp: 1,
      fn: 0,
    });
    expect(precisionRecallF1({ tp: 0, fp: 0, fn: 0 })).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it('matches masks for instance segmentation', () => {
    const a = encodeMask([1, 1, 0, 0], 2, 2);
    const b = encodeMask([1, 1, 1, 0], 2, 2);
    const r = matchObjects([{ label: 1, mask: a }], [{ label: 1, mask: b, score: 1 }], {
      useMasks: true,
      iouThreshold: 0.6,
    });
    expect(r.predictions[0]).toEqual({ status: 'TP', groundTruth: 0, iou: 2 / 3 });
  });
});

// Object-level comparison of two detection (or instance segmentation) models: each ground truth
// found by A, B, both or neither, and each prediction paired with the other model's prediction
// of the same object (or alone), at the IoU threshold, with the eleven subcategories.
import type { ObjectEvalData } from '../report/index.js';
import {
  OBJECT_STATUS,
  iouMatrix,
  objectIndex,
  objectMatches,
  objectScore,
} from '../report/objects.js';
import {
  OBJECT_SUBCATEGORIES,
  SUBCATEGORY_CATEGORY,
  categoryIndex,
  subcategoryIndex,
} from './categories.js';
import type { ObjectSubcategory, SectionItems } from './types.js';

const LEFT_OUT = OBJECT_STATUS.leftOut;
const TP = OBJECT_STATUS.tp;
const FP = OBJECT_STATUS.fp;

const code = (id: ObjectSubcategory) => subcategoryIndex(id);
const categoryCode = (id: ObjectSubcategory) => categoryIndex(SUBCATEGORY_CATEGORY[id]);

/** Subcategory code of a ground truth by whether A found it (TP) and whether B did: [a][b]. */
const GT_CODE = [
  [code('fn_a_fn_b'), code('fn_a_tp_b')],
  [code('tp_a_fn_b'), code('tp_a_tp_b')],
];

/** Subcategory code of a prediction pair by the status of A's and B's (0 = none, TP, FP). */
const PREDICTION_CODE = [0, TP, FP].map((a) =>
  [0, TP, FP].map((b) => {
    const side = (s: number) => (s === TP ? 'tp' : s === FP ? 'fp' : 'unmatched');
    // No prediction on either side is not a pair: its code is never read.
    return a === 0 && b === 0 ? -1 : code(`${side(a)}_a_${side(b)}_b` as ObjectSubcategory);
  }),
);

/** Category code of each subcategory code. */
const CATEGORY_OF_CODE = OBJECT_SUBCATEGORIES.map(categoryCode);

/** A section's columns, filled up to `n` (capacity: every object that can be an item). */
class Columns {
  n = 0;
  readonly sample: Uint32Array;
  readonly groundTruth: Int32Array;
  readonly predictionA: Int32Array;
  readonly predictionB: Int32Array;
  readonly category: Uint8Array;
  readonly subcategory: Uint8Array;
  readonly delta: Float64Array;

  constructor(capacity: number) {
    this.sample = new Uint32Array(capacity);
    this.groundTruth = new Int32Array(capacity);
    this.predictionA = new Int32Array(capacity);
    this.predictionB = new Int32Array(capacity);
    this.category = new Uint8Array(capacity);
    this.subcategory = new Uint8Array(capacity);
    this.delta = new Float64Array(capacity);
  }

  push(sample: number, code: number, delta: number): number {
    const t = this.n++;
    this.sample[t] = sample;
    this.category[t] = CATEGORY_OF_CODE[code]!;
    this.subcategory[t] = code;
    this.delta[t] = delta;
    return t;
  }

  items(unit: 'ground_truth_object' | 'predicted_object'): SectionItems {
    const n = this.n;
    const gt = unit === 'ground_truth_object';
    return {
      unit,
      sample: this.sample.slice(0, n),
      groundTruth: gt ? this.groundTruth.slice(0, n) : null,
      maskClass: null,
      predictionA: gt ? null : this.predictionA.slice(0, n),
      predictionB: gt ? null : this.predictionB.slice(0, n),
      category: this.category.slice(0, n),
      subcategory: this.subcategory.slice(0, n),
      delta: this.delta.slice(0, n),
      bin: null,
    };
  }
}

export interface ObjectItems {
  gt: SectionItems;
  pred: SectionItems;
}

/** Pairs (a, b) of predictions left unpaired, by how much they overlap. */
interface Candidate {
  a: number;
  b: number;
  iou: number;
  scores: number;
}

/**
 * Largest IoU first, then the larger scores; the remaining ties by the indexes, the same way
 * whichever model is A.
 */
function byOverlap(x: Candidate, y: Candidate): number {
  return (
    y.iou - x.iou ||
    y.scores - x.scores ||
    Math.min(x.a, x.b) - Math.min(y.a, y.b) ||
    Math.max(x.a, x.b) - Math.max(y.a, y.b) ||
    x.a - y.a
  );
}

/**
 * The images of `rows`, their ground truths and predictions compared. Ground truths: found
 * (TP) or missed (FN) by each model; their difference is B's IoU − A's IoU (the match's, or the
 * best same-class overlap when missed). Predictions are paired first when both are the TP of
 * the same ground truth, then the rest greedily by their IoU (same class, IoU ≥ threshold,
 * largest IoU first, so that swapping A and B gives the same pairs); a prediction left
 * without a partner is 'unmatched' on the other side. Their difference is B's confidence − A's
 * (0 for the model without a prediction).
 */
export function objectItems(
  a: ObjectEvalData,
  b: ObjectEvalData,
  rows: Uint32Array,
  iouThreshold: number,
): ObjectItems {
  // Each model's own matching, as its report counts it (both have the same ground truth).
  const pa = objectIndex(a);
  const pb = objectIndex(b);
  const images = Uint32Array.from(rows).sort();
  const ma = objectMatches(a, iouThreshold);
  const mb = objectMatches(b, iouThreshold);
  const segm = a.iouType === 'segm';
  const PA = a.pred.image.length;
  const PB = b.pred.image.length;
  const gt = new Columns(a.gt.image.length);
  const pred = new Columns(PA + PB);
  // Partner of each prediction (−1: none); every prediction belongs to one image, so the
  // arrays need no clearing between images.
  const partnerOfA = new Int32Array(PA).fill(-1);
  const partnerOfB = new Int32Array(PB).fill(-1);
  const pair = (p: number, q: number) => {
    partnerOfA[p] = q;
    partnerOfB[q] = p;
  };
  const restA: number[] = [];
  const restB: number[] = [];
  const candidates: Candidate[] = [];
  for (let r = 0; r < images.length; r++) {
    const i = images[r]!;
    for (let x = pa.gtStart[i]!; x < pa.gtStart[i + 1]!; x++) {
      const g = pa.gtOrder[x]!;
      if (!pa.gtUsable[g]) continue;
      const p = ma.gtMatch[g]!;
      const q = mb.gtMatch[g]!;
      const t = gt.push(i, GT_CODE[p >= 0 ? 1 : 0]![q >= 0 ? 1 : 0]!, mb.gtIou[g]! - ma.gtIou[g]!);
      gt.groundTruth[t] = g;
      // Both models' TP of this ground truth are one pair.
      if (p >= 0 && q >= 0) pair(p, q);
    }
    restA.length = 0;
    restB.length = 0;
    for (let x = pa.predStart[i]!; x < pa.predStart[i + 1]!; x++) {
      const p = pa.predOrder[x]!;
      if (ma.pred[p] !== LEFT_OUT && partnerOfA[p] === -1) restA.push(p);
    }
    for (let x = pb.predStart[i]!; x < pb.predStart[i + 1]!; x++) {
      const q = pb.predOrder[x]!;
      if (mb.pred[q] !== LEFT_OUT && partnerOfB[q] === -1) restB.push(q);
    }
    if (restA.length > 0 && restB.length > 0) {
      const n = restB.length;
      const iou = iouMatrix(segm, a.pred.box, pa.predMask, restA, b.pred.box, pb.predMask, restB);
      candidates.length = 0;
      for (let d = 0; d < restA.length; d++) {
        const p = restA[d]!;
        for (let x = 0; x < n; x++) {
          const q = restB[x]!;
          const value = iou[d * n + x]!;
          if (value >= iouThreshold && a.pred.label[p] === b.pred.label[q]) {
            candidates.push({
              a: p,
              b: q,
              iou: value,
              scores: objectScore(a, p) + objectScore(b, q),
            });
          }
        }
      }
      if (candidates.length > 1) candidates.sort(byOverlap);
      for (const c of candidates) {
        if (partnerOfA[c.a] === -1 && partnerOfB[c.b] === -1) pair(c.a, c.b);
      }
    }
    // A's predictions (with their partner, if any) in upload order, then B's left alone.
    for (let x = pa.predStart[i]!; x < pa.predStart[i + 1]!; x++) {
      const p = pa.predOrder[x]!;
      const status = ma.pred[p]!;
      if (status === LEFT_OUT) continue;
      const q = partnerOfA[p]!;
      const t = pred.push(
        i,
        PREDICTION_CODE[status]![q >= 0 ? mb.pred[q]! : 0]!,
        (q >= 0 ? objectScore(b, q) : 0) - objectScore(a, p),
      );
      pred.predictionA[t] = p;
      pred.predictionB[t] = q;
    }
    for (let x = pb.predStart[i]!; x < pb.predStart[i + 1]!; x++) {
      const q = pb.predOrder[x]!;
      const status = mb.pred[q]!;
      if (status === LEFT_OUT || partnerOfB[q] !== -1) continue;
      const t = pred.push(i, PREDICTION_CODE[0]![status]!, objectScore(b, q));
      pred.predictionA[t] = -1;
      pred.predictionB[t] = q;
    }
  }
  return { gt: gt.items('ground_truth_object'), pred: pred.items('predicted_object') };
}

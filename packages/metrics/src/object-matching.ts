// Per-object matching for the model pages: at one IoU threshold and one score threshold, every
// ground truth is TP or FN and every prediction TP or FP, with the matched pair and its IoU.

import { bboxIou, rleIou, type Rle } from './rle.js';

export interface MatchableObject {
  label: string | number;
  /** [x, y, width, height] in any consistent unit (pixels or fractions). */
  box?: ArrayLike<number>;
  /** Mask, for instance segmentation (IoU on masks instead of boxes). */
  mask?: Rle;
  /** Confidence, for predictions. */
  score?: number;
}

export interface ObjectMatchingOptions {
  /** A prediction matches a ground truth when their IoU is at least this (default 0.5). */
  iouThreshold?: number;
  /** Predictions scoring below this are left out (status 'below_score'); default 0. */
  scoreThreshold?: number;
  /** Compare masks rather than boxes. */
  useMasks?: boolean;
  /** Only objects of the same label match (default true). */
  sameLabel?: boolean;
}

export interface GroundTruthMatch {
  status: 'TP' | 'FN';
  /** Index of the matched prediction, -1 if none. */
  prediction: number;
  iou: number;
}

export interface PredictionMatch {
  status: 'TP' | 'FP' | 'below_score';
  /** Index of the matched ground truth, -1 if none. */
  groundTruth: number;
  iou: number;
}

export interface ObjectCounts {
  tp: number;
  fp: number;
  fn: number;
}

export interface ObjectMatching extends ObjectCounts {
  groundTruths: GroundTruthMatch[];
  predictions: PredictionMatch[];
}

export interface PrecisionRecallF1 {
  precision: number;
  recall: number;
  f1: number;
}

/** Precision, recall and F1 from counts; 0 on zero division (scikit-learn's default). */
export function precisionRecallF1({ tp, fp, fn }: ObjectCounts): PrecisionRecallF1 {
  return {
    precision: tp + fp === 0 ? 0 : tp / (tp + fp),
    recall: tp + fn === 0 ? 0 : tp / (tp + fn),
    f1: 2 * tp + fp + fn === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn),
  };
}

/**
 * Greedy matching in one image, the way COCO matches at a single threshold: predictions in
 * descending score order (ties keep input order) each take the unmatched ground truth of the same
 * label with the highest IoU, if that IoU reaches the threshold.
 */
export function matchObjects(
  groundTruths: readonly MatchableObject[],
  predictions: readonly MatchableObject[],
  options: ObjectMatchingOptions = {},
): ObjectMatching {
  const iouThreshold = options.iouThreshold ?? 0.5;
  const scoreThreshold = options.scoreThreshold ?? 0;
  const sameLabel = options.sameLabel ?? true;
  const G = groundTruths.length;
  const kept = predictions
    .map((p, index) => ({ index, score: p.score ?? 0 }))
    .filter((p) => p.score >= scoreThreshold)
    .sort((a, b) => b.score - a.score || a.index - b.index);
  let iou: Float64Array;
  if (options.useMasks) {
    const masks = (objects: readonly MatchableObject[], what: string): Rle[] =>
      objects.map((o, i) => {
        if (!o.mask) throw new RangeError(`${what} ${i} has no mask`);
        return o.mask;
      });
    iou = rleIou(
      masks(
        kept.map((p) => predictions[p.index]!),
        'prediction',
      ),
      masks(groundTruths, 'ground truth'),
    );
  } else {
    const boxes = (objects: readonly MatchableObject[], what: string): Float64Array => {
      const out = new Float64Array(objects.length * 4);
      objects.forEach((o, i) => {
        if (!o.box || o.box.length < 4) throw new RangeError(`${what} ${i} has no box`);
        for (let c = 0; c < 4; c++) out[i * 4 + c] = o.box[c]!;
      });
      return out;
    };
    iou = bboxIou(
      boxes(
        kept.map((p) => predictions[p.index]!),
        'prediction',
      ),
      boxes(groundTruths, 'ground truth'),
    );
  }
  const gtResult: GroundTruthMatch[] = groundTruths.map(() => ({
    status: 'FN',
    prediction: -1,
    iou: 0,
  }));
  const predResult: PredictionMatch[] = predictions.map(() => ({
    status: 'below_score',
    groundTruth: -1,
    iou: 0,
  }));
  let tp = 0;
  let fp = 0;
  kept.forEach(({ index }, d) => {
    const label = predictions[index]!.label;
    let best = -1;
    let bestIou = iouThreshold;
    for (let g = 0; g < G; g++) {
      if (gtResult[g]!.prediction !== -1) continue;
      if (sameLabel && groundTruths[g]!.label !== label) continue;
      const value = iou[d * G + g]!;
      if (value >= bestIou && (best === -1 || value > bestIou)) {
        best = g;
        bestIou = value;
      }
    }
    if (best === -1) {
      let highest = 0;
      for (let g = 0; g < G; g++) highest = Math.max(highest, iou[d * G + g]!);
      predResult[index] = { status: 'FP', groundTruth: -1, iou: highest };
      fp++;
    } else {
      predResult[index] = { status: 'TP', groundTruth: best, iou: bestIou };
      gtResult[best] = { status: 'TP', prediction: index, iou: bestIou };
      tp++;
    }
  });
  return { groundTruths: gtResult, predictions: predResult, tp, fp, fn: G - tp };
}

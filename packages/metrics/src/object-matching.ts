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

/** One image's greedy matching (greedyMatch): positions in the caller's lists. */
export interface ImageMatch {
  /** Per ground truth of `gts`: the position of its prediction in `preds`, or -1. */
  gtMatch: Int32Array;
  /** Per prediction of `preds`: the position of its ground truth in `gts`, or -1. */
  predMatch: Int32Array;
  /**
   * Per ground truth: its match's IoU; unmatched, its highest IoU with a prediction it could
   * match (same label, unless labels are ignored); NaN when there is none.
   */
  gtIou: Float64Array;
  /** Per prediction, likewise. */
  predIou: Float64Array;
  /** Matched pairs. */
  tp: number;
}

/** The labels and confidences greedyMatch reads, by the caller's object indexes. */
export interface MatchSides {
  gtLabel: ArrayLike<unknown>;
  predLabel: ArrayLike<unknown>;
  /** Confidence; NaN ranks like 0. */
  predScore: ArrayLike<number>;
}

/** Positions 0..n-1 of `preds` by descending score, ties in list order (insertion sort: an
 * image holds a few dozen predictions). */
function rankByScore(predScore: ArrayLike<number>, preds: ArrayLike<number>): Uint32Array {
  const n = preds.length;
  const order = new Uint32Array(n);
  const scores = new Float64Array(n);
  for (let d = 0; d < n; d++) {
    const s = predScore[preds[d]!]!;
    scores[d] = Number.isNaN(s) ? 0 : s;
  }
  for (let x = 0; x < n; x++) {
    const score = scores[x]!;
    let y = x - 1;
    while (y >= 0 && scores[order[y]!]! < score) {
      order[y + 1] = order[y]!;
      y--;
    }
    order[y + 1] = x;
  }
  return order;
}

/**
 * The greedy matching of one image that every per-object view shares (matchObjects, the
 * performance report, the model comparison, the explorer's tables), the way COCO matches at a
 * single threshold: predictions in descending score order (ties keep list order) each take the
 * unmatched ground truth of the same label with the highest IoU (the first on ties), if that IoU
 * reaches the threshold. `gts` and `preds` are the image's objects as indexes into `sides`;
 * iou[d * gts.length + g] is the IoU of preds[d] and gts[g]. The caller decides which objects
 * take part (boxes or masks, score threshold).
 */
export function greedyMatch(
  sides: MatchSides,
  gts: ArrayLike<number>,
  preds: ArrayLike<number>,
  iou: ArrayLike<number>,
  iouThreshold: number,
  sameLabel = true,
): ImageMatch {
  const G = gts.length;
  const P = preds.length;
  const out: ImageMatch = {
    gtMatch: new Int32Array(G).fill(-1),
    predMatch: new Int32Array(P).fill(-1),
    gtIou: new Float64Array(G).fill(NaN),
    predIou: new Float64Array(P).fill(NaN),
    tp: 0,
  };
  if (G === 0 || P === 0) return out;
  const { gtLabel, predLabel } = sides;
  const may = (d: number, g: number) => !sameLabel || gtLabel[gts[g]!] === predLabel[preds[d]!];
  for (const d of rankByScore(sides.predScore, preds)) {
    let best = -1;
    let bestIou = iouThreshold;
    for (let g = 0; g < G; g++) {
      if (out.gtMatch[g] !== -1 || !may(d, g)) continue;
      const value = iou[d * G + g]!;
      if (value >= bestIou && (best === -1 || value > bestIou)) {
        best = g;
        bestIou = value;
      }
    }
    if (best === -1) continue;
    out.gtMatch[best] = d;
    out.predMatch[d] = best;
    out.gtIou[best] = bestIou;
    out.predIou[d] = bestIou;
    out.tp++;
  }
  // The unmatched: their best overlap with the other side's objects they could match.
  for (let d = 0; d < P; d++) {
    for (let g = 0; g < G; g++) {
      if (!may(d, g)) continue;
      const value = iou[d * G + g]!;
      if (out.predMatch[d] === -1 && !(out.predIou[d]! >= value)) out.predIou[d] = value;
      if (out.gtMatch[g] === -1 && !(out.gtIou[g]! >= value)) out.gtIou[g] = value;
    }
  }
  return out;
}

/**
 * greedyMatch on objects: every ground truth is TP or FN and every prediction TP, FP or below the
 * score threshold, with its partner and IoU (an unmatched FP's: its highest IoU with any ground
 * truth).
 */
export function matchObjects(
  groundTruths: readonly MatchableObject[],
  predictions: readonly MatchableObject[],
  options: ObjectMatchingOptions = {},
): ObjectMatching {
  const iouThreshold = options.iouThreshold ?? 0.5;
  const scoreThreshold = options.scoreThreshold ?? 0;
  const G = groundTruths.length;
  const scores = predictions.map((p) => p.score ?? 0);
  const kept: number[] = [];
  scores.forEach((score, index) => {
    if (score >= scoreThreshold) kept.push(index);
  });
  const keptObjects = kept.map((index) => predictions[index]!);
  let iou: Float64Array;
  if (options.useMasks) {
    const masks = (objects: readonly MatchableObject[], what: string): Rle[] =>
      objects.map((o, i) => {
        if (!o.mask) throw new RangeError(`${what} ${i} has no mask`);
        return o.mask;
      });
    iou = rleIou(masks(keptObjects, 'prediction'), masks(groundTruths, 'ground truth'));
  } else {
    const boxes = (objects: readonly MatchableObject[], what: string): Float64Array => {
      const out = new Float64Array(objects.length * 4);
      objects.forEach((o, i) => {
        if (!o.box || o.box.length < 4) throw new RangeError(`${what} ${i} has no box`);
        for (let c = 0; c < 4; c++) out[i * 4 + c] = o.box[c]!;
      });
      return out;
    };
    iou = bboxIou(boxes(keptObjects, 'prediction'), boxes(groundTruths, 'ground truth'));
  }
  const match = greedyMatch(
    {
      gtLabel: groundTruths.map((g) => g.label),
      predLabel: predictions.map((p) => p.label),
      predScore: scores,
    },
    Array.from({ length: G }, (_, g) => g),
    kept,
    iou,
    iouThreshold,
    options.sameLabel ?? true,
  );
  const gtResult: GroundTruthMatch[] = groundTruths.map((_, g) => {
    const d = match.gtMatch[g]!;
    return d === -1
      ? { status: 'FN', prediction: -1, iou: 0 }
      : { status: 'TP', prediction: kept[d]!, iou: match.gtIou[g]! };
  });
  const predResult: PredictionMatch[] = predictions.map(() => ({
    status: 'below_score',
    groundTruth: -1,
    iou: 0,
  }));
  kept.forEach((index, d) => {
    const g = match.predMatch[d]!;
    if (g !== -1) {
      predResult[index] = { status: 'TP', groundTruth: g, iou: match.predIou[d]! };
      return;
    }
    let highest = 0;
    for (let x = 0; x < G; x++) highest = Math.max(highest, iou[d * G + x]!);
    predResult[index] = { status: 'FP', groundTruth: -1, iou: highest };
  });
  return {
    groundTruths: gtResult,
    predictions: predResult,
    tp: match.tp,
    fp: kept.length - match.tp,
    fn: G - match.tp,
  };
}

// Performance report of object detection and instance segmentation: COCO mAP (pycocotools'
// numbers) overall and per class, TP/FP/FN with precision, recall and F1 at the dataset's IoU
// threshold, and the COCO precision/recall curves at IoU 0.5.
import {
  defaultCocoParams,
  evaluatePreparedCoco,
  prepareCoco,
  type CocoAnnotation,
  type CocoDetection,
  type CocoEvalResult,
  type CocoParams,
  type PreparedCoco,
} from '../coco.js';
import { greedyMatch, precisionRecallF1 } from '../object-matching.js';
import { bboxIou, bboxToRle, rleArea, rleIou, type Rle } from '../rle.js';
import type {
  ObjectEvalData,
  PredictionCoverage,
  RawFinegrained,
  RawSeries,
  SplitMetrics,
  SplitRequest,
  SplitRows,
} from './index.js';

export const OBJECT_METRICS: readonly string[] = [
  'mAP_COCO',
  'precision',
  'recall',
  'f1_score',
  'tp',
  'fp',
  'fn',
  'ground_truth_objects',
  'predicted_objects',
];

/**
 * Codes of ObjectMatches' gt and pred: a ground truth is tp or fn, a prediction tp or fp (fn and
 * fp share a code, each in its own array); leftOut for objects without a usable box or mask.
 */
export const OBJECT_STATUS = { leftOut: 0, tp: 1, fn: 2, fp: 2 } as const;

/** An object's partner in ObjectMatches when it has none (FN, FP), and when it is left out. */
export const OBJECT_PARTNER = { unmatched: -1, leftOut: -2 } as const;

/**
 * COCOeval's defaults reduced to what the report reads (area 'all', 100 detections): mAP over
 * IoU .50:.95 and the curves at .50 are the same numbers, for a third of the work.
 */
const COCO_PARAMS: CocoParams = (() => {
  const p = defaultCocoParams();
  return { ...p, areaRng: [p.areaRng[0]!], areaRngLbl: ['all'], maxDets: [100] };
})();

/**
 * Everything derived once per evaluation data and reused by every split, slice and comparison.
 */
export interface ObjectIndex {
  N: number;
  K: number;
  /** Objects of image i: gtOrder[gtStart[i] .. gtStart[i + 1]). */
  gtStart: Int32Array;
  gtOrder: Int32Array;
  predStart: Int32Array;
  predOrder: Int32Array;
  /** Masks (segm): uploaded, or made from the box where the image size is known. */
  gtMask: (Rle | null)[] | null;
  predMask: (Rle | null)[] | null;
  /** 0 for objects that cannot be evaluated (segm without mask, box not finite). */
  gtUsable: Uint8Array;
  predUsable: Uint8Array;
  /** Every image's COCO IoUs, computed once; each split then only accumulates its images. */
  coco: PreparedCoco | null;
  matches: Map<number, ObjectMatches>;
  cocoBySplit: WeakMap<Uint32Array, CocoEvalResult>;
}

const indexes = new WeakMap<ObjectEvalData, ObjectIndex>();

function byImage(image: Int32Array, N: number): { start: Int32Array; order: Int32Array } {
  const start = new Int32Array(N + 1);
  for (let j = 0; j < image.length; j++) start[image[j]! + 1]!++;
  for (let i = 0; i < N; i++) start[i + 1]! += start[i]!;
  const next = start.slice(0, N);
  const order = new Int32Array(image.length);
  for (let j = 0; j < image.length; j++) order[next[image[j]!]!++] = j;
  return { start, order };
}

function checkObjects(
  what: 'gt' | 'pred',
  objects: { image: Int32Array; label: Int32Array; box: Float64Array; rle: (Rle | null)[] },
  N: number,
  K: number,
): number {
  const n = objects.image.length;
  if (objects.label.length !== n) throw new RangeError(`${what}.label must have ${n} entries`);
  if (objects.box.length !== 4 * n) throw new RangeError(`${what}.box must have 4×${n} values`);
  if (objects.rle.length !== n && objects.rle.length !== 0) {
    throw new RangeError(`${what}.rle must have ${n} entries (or none for boxes)`);
  }
  for (let j = 0; j < n; j++) {
    const i = objects.image[j]!;
    const k = objects.label[j]!;
    if (!(i >= 0 && i < N)) throw new RangeError(`${what}.image[${j}] = ${i} is not a sample`);
    if (!(k >= 0 && k < K)) throw new RangeError(`${what}.label[${j}] = ${k} is not a class`);
  }
  return n;
}

/**
 * The data's objects grouped by image, which can be evaluated and their masks (segm: their own,
 * else their box's where the image size is known), computed once per data.
 */
export function objectIndex(data: ObjectEvalData): ObjectIndex {
  const cached = indexes.get(data);
  if (cached) return cached;
  const N = data.hasPrediction.length;
  const K = data.classes.length;
  if (data.imageSize.length !== 2 * N) throw new RangeError(`imageSize must have 2×${N} values`);
  const G = checkObjects('gt', data.gt, N, K);
  const P = checkObjects('pred', data.pred, N, K);
  if (data.gt.iscrowd.length !== G) throw new RangeError(`gt.iscrowd must have ${G} entries`);
  if (data.pred.score.length !== P) throw new RangeError(`pred.score must have ${P} entries`);
  const segm = data.iouType === 'segm';
  const maskOf = (objects: ObjectEvalData['gt'] | ObjectEvalData['pred'], j: number) => {
    const rle = objects.rle[j];
    if (rle) return rle;
    const i = objects.image[j]!;
    const h = data.imageSize[2 * i]!;
    const w = data.imageSize[2 * i + 1]!;
    if (!(h > 0 && w > 0) || !boxIsFinite(objects.box, j)) return null;
    return bboxToRle(objects.box.subarray(4 * j, 4 * j + 4), h, w);
  };
  const gtMask = segm ? Array.from({ length: G }, (_, j) => maskOf(data.gt, j)) : null;
  const predMask = segm ? Array.from({ length: P }, (_, j) => maskOf(data.pred, j)) : null;
  const usable = (n: number, masks: (Rle | null)[] | null, box: Float64Array) =>
    Uint8Array.from({ length: n }, (_, j) =>
      (masks ? masks[j] !== null : boxIsFinite(box, j)) ? 1 : 0,
    );
  const gt = byImage(data.gt.image, N);
  const pred = byImage(data.pred.image, N);
  const index: ObjectIndex = {
    N,
    K,
    gtStart: gt.start,
    gtOrder: gt.order,
    predStart: pred.start,
    predOrder: pred.order,
    gtMask,
    predMask,
    gtUsable: usable(G, gtMask, data.gt.box),
    predUsable: usable(P, predMask, data.pred.box),
    coco: null,
    matches: new Map(),
    cocoBySplit: new WeakMap(),
  };
  indexes.set(data, index);
  return index;
}

function boxIsFinite(box: Float64Array, j: number): boolean {
  for (let c = 0; c < 4; c++) if (!Number.isFinite(box[4 * j + c]!)) return false;
  return true;
}

/** A prediction's confidence; a missing one ranks like 0 (and still counts at score threshold 0). */
export function objectScore(data: ObjectEvalData, j: number): number {
  const s = data.pred.score[j]!;
  return Number.isNaN(s) ? 0 : s;
}

export function objectSamples(data: ObjectEvalData): number {
  return objectIndex(data).N;
}

/** Each object's outcome at one IoU threshold (score threshold 0). */
export interface ObjectMatches {
  /** Per ground truth: the index of its prediction, OBJECT_PARTNER unmatched (FN) or leftOut. */
  gtMatch: Int32Array;
  /** Per prediction: the index of its ground truth, OBJECT_PARTNER unmatched (FP) or leftOut. */
  predMatch: Int32Array;
  /**
   * Per ground truth: its match's IoU; missed, its highest IoU with a prediction of its class
   * (0: none, or left out).
   */
  gtIou: Float64Array;
  /** Per ground truth: OBJECT_STATUS tp, fn or leftOut. */
  gt: Uint8Array;
  /** Per prediction: OBJECT_STATUS tp, fp or leftOut. */
  pred: Uint8Array;
}

/** IoU matrix (row-major over `rows`) between two lists of objects, on boxes or masks (segm). */
export function iouMatrix(
  segm: boolean,
  rowBox: Float64Array,
  rowMask: (Rle | null)[] | null,
  rows: readonly number[],
  colBox: Float64Array,
  colMask: (Rle | null)[] | null,
  cols: readonly number[],
): Float64Array {
  if (segm) {
    return rleIou(
      rows.map((j) => rowMask![j]!),
      cols.map((j) => colMask![j]!),
    );
  }
  const boxes = (box: Float64Array, objects: readonly number[]) => {
    const out = new Float64Array(4 * objects.length);
    objects.forEach((j, d) => out.set(box.subarray(4 * j, 4 * j + 4), 4 * d));
    return out;
  };
  return bboxIou(boxes(rowBox, rows), boxes(colBox, cols));
}

/**
 * Per-object outcome at an IoU threshold (score threshold 0), greedyMatch image by image,
 * computed once per threshold: ground truths TP or FN, predictions TP or FP, with their
 * partners; objects without a usable box or mask (and predictions scoring below 0) left out.
 */
export function objectMatches(data: ObjectEvalData, iouThreshold: number): ObjectMatches {
  const index = objectIndex(data);
  const cached = index.matches.get(iouThreshold);
  if (cached) return cached;
  const G = data.gt.image.length;
  const P = data.pred.image.length;
  const result: ObjectMatches = {
    gtMatch: new Int32Array(G).fill(OBJECT_PARTNER.leftOut),
    predMatch: new Int32Array(P).fill(OBJECT_PARTNER.leftOut),
    gtIou: new Float64Array(G),
    gt: new Uint8Array(G),
    pred: new Uint8Array(P),
  };
  const sides = { gtLabel: data.gt.label, predLabel: data.pred.label, predScore: data.pred.score };
  const segm = data.iouType === 'segm';
  const gts: number[] = [];
  const preds: number[] = [];
  for (let i = 0; i < index.N; i++) {
    gts.length = 0;
    preds.length = 0;
    for (let a = index.gtStart[i]!; a < index.gtStart[i + 1]!; a++) {
      const j = index.gtOrder[a]!;
      if (index.gtUsable[j]) gts.push(j);
    }
    for (let b = index.predStart[i]!; b < index.predStart[i + 1]!; b++) {
      const j = index.predOrder[b]!;
      if (index.predUsable[j] && objectScore(data, j) >= 0) preds.push(j);
    }
    const iou =
      gts.length > 0 && preds.length > 0
        ? iouMatrix(segm, data.pred.box, index.predMask, preds, data.gt.box, index.gtMask, gts)
        : [];
    const match = greedyMatch(sides, gts, preds, iou, iouThreshold);
    gts.forEach((j, g) => {
      const d = match.gtMatch[g]!;
      result.gtMatch[j] = d === -1 ? OBJECT_PARTNER.unmatched : preds[d]!;
      result.gt[j] = d === -1 ? OBJECT_STATUS.fn : OBJECT_STATUS.tp;
      result.gtIou[j] = match.gtIou[g]! || 0;
    });
    preds.forEach((j, d) => {
      const g = match.predMatch[d]!;
      result.predMatch[j] = g === -1 ? OBJECT_PARTNER.unmatched : gts[g]!;
      result.pred[j] = g === -1 ? OBJECT_STATUS.fp : OBJECT_STATUS.tp;
    });
  }
  index.matches.set(iouThreshold, result);
  return result;
}

/** COCO's view of every image and object, prepared (IoUs computed) once per data. */
function preparedCoco(data: ObjectEvalData, index: ObjectIndex): PreparedCoco {
  if (index.coco) return index.coco;
  const segm = data.iouType === 'segm';
  const box = (b: Float64Array, j: number) => Array.from(b.subarray(4 * j, 4 * j + 4));
  const segmentation = (rle: Rle) => ({
    size: [rle.h, rle.w] as [number, number],
    counts: Array.from(rle.counts),
  });
  const annotations: CocoAnnotation[] = [];
  for (let j = 0; j < data.gt.image.length; j++) {
    if (!index.gtUsable[j]) continue;
    const base = {
      // COCOeval reads an annotation id of 0 as "no match": ids start at 1.
      id: j + 1,
      image_id: data.gt.image[j]!,
      category_id: data.gt.label[j]!,
      iscrowd: data.gt.iscrowd[j]!,
    };
    if (segm) {
      const rle = index.gtMask![j]!;
      annotations.push({ ...base, segmentation: segmentation(rle), area: rleArea(rle) });
    } else {
      const b = box(data.gt.box, j);
      annotations.push({ ...base, bbox: b, area: b[2]! * b[3]! });
    }
  }
  const detections: CocoDetection[] = [];
  for (let j = 0; j < data.pred.image.length; j++) {
    if (!index.predUsable[j]) continue;
    const base = {
      image_id: data.pred.image[j]!,
      category_id: data.pred.label[j]!,
      score: objectScore(data, j),
    };
    // Segm results carry no box, so their area is the mask's (COCO.loadRes).
    detections.push(
      segm
        ? { ...base, segmentation: segmentation(index.predMask![j]!) }
        : { ...base, bbox: box(data.pred.box, j) },
    );
  }
  const images = Array.from({ length: index.N }, (_, i) => ({
    id: i,
    height: data.imageSize[2 * i]! || 0,
    width: data.imageSize[2 * i + 1]! || 0,
  }));
  const categories = data.classes.map((name, k) => ({ id: k, name }));
  index.coco = prepareCoco(
    { images, annotations, categories },
    detections,
    data.iouType,
    COCO_PARAMS,
  );
  return index.coco;
}

function membership(rows: Uint32Array, N: number): Uint8Array {
  const inSplit = new Uint8Array(N);
  for (let j = 0; j < rows.length; j++) inSplit[rows[j]!] = 1;
  return inSplit;
}

/** COCO's evaluation of the images of the rows (every image counts, with or without objects). */
function cocoOf(data: ObjectEvalData, rows: Uint32Array): CocoEvalResult {
  const index = objectIndex(data);
  const cached = index.cocoBySplit.get(rows);
  if (cached) return cached;
  const result = evaluatePreparedCoco(preparedCoco(data, index), new Set(rows));
  index.cocoBySplit.set(rows, result);
  return result;
}

/** -1 (COCO's "undefined") becomes NaN. */
const coco = (v: number): number => (v < 0 ? NaN : v);

/** Precision, recall, F1 of counts; undefined (NaN) when there is nothing to count. */
function ratios(
  tp: number,
  fp: number,
  fn: number,
): { precision: number; recall: number; f1: number } {
  if (tp + fp + fn === 0) return { precision: NaN, recall: NaN, f1: NaN };
  return precisionRecallF1({ tp, fp, fn });
}

export function objectSplit(
  data: ObjectEvalData,
  rows: Uint32Array,
  request: SplitRequest,
  iouThreshold: number,
): SplitMetrics {
  const index = objectIndex(data);
  const K = index.K;
  const status = objectMatches(data, iouThreshold);
  const inSplit = membership(rows, index.N);
  const gtCount = new Float64Array(K);
  const tp = new Float64Array(K);
  const fn = new Float64Array(K);
  const predCount = new Float64Array(K);
  const fp = new Float64Array(K);
  for (let j = 0; j < status.gt.length; j++) {
    const s = status.gt[j]!;
    if (s === 0 || !inSplit[data.gt.image[j]!]) continue;
    const k = data.gt.label[j]!;
    gtCount[k]!++;
    if (s === OBJECT_STATUS.tp) tp[k]!++;
    else fn[k]!++;
  }
  for (let j = 0; j < status.pred.length; j++) {
    const s = status.pred[j]!;
    if (s === 0 || !inSplit[data.pred.image[j]!]) continue;
    const k = data.pred.label[j]!;
    predCount[k]!++;
    if (s === OBJECT_STATUS.fp) fp[k]!++;
  }
  const sum = (a: Float64Array) => a.reduce((x, y) => x + y, 0);
  const total = { tp: sum(tp), fp: sum(fp), fn: sum(fn) };
  const overall = ratios(total.tp, total.fp, total.fn);
  const empty = rows.length === 0;
  const needCoco = !empty && (request.entities || request.metrics.has('mAP_COCO'));
  const result = needCoco ? cocoOf(data, rows) : null;
  const metrics: Record<string, number> = {
    mAP_COCO: result ? coco(result.stats[0]!) : NaN,
    precision: empty ? NaN : overall.precision,
    recall: empty ? NaN : overall.recall,
    f1_score: empty ? NaN : overall.f1,
    tp: total.tp,
    fp: total.fp,
    fn: total.fn,
    ground_truth_objects: sum(gtCount),
    predicted_objects: sum(predCount),
  };
  const entities = request.entities
    ? data.classes.map((key, k) => {
        const r = ratios(tp[k]!, fp[k]!, fn[k]!);
        return {
          key,
          values: {
            mAP_COCO: result ? coco(result.perCategory[k]!.ap) : NaN,
            precision: r.precision,
            recall: r.recall,
            f1_score: r.f1,
            tp: tp[k]!,
            fp: fp[k]!,
            fn: fn[k]!,
            ground_truth_objects: gtCount[k]!,
            predicted_objects: predCount[k]!,
          },
        };
      })
    : [];
  return { metrics, entities };
}

/** Every image has ground truth (possibly no object); those the model did not predict are missing. */
export function objectCoverage(data: ObjectEvalData, rows: Uint32Array | null): PredictionCoverage {
  const n = rows ? rows.length : data.hasPrediction.length;
  let missing = 0;
  for (let j = 0; j < n; j++) if (!data.hasPrediction[rows ? rows[j]! : j]) missing++;
  return { num_items: n, num_missing: missing };
}

/**
 * Per class, COCO's interpolated precision at the 101 recall points for IoU 0.5 (area all, 100
 * detections) with its AP at 0.5; the average is the mean over the classes with ground truth,
 * whose summary is COCO's AP50.
 */
export function objectFinegrained(
  data: ObjectEvalData,
  splits: readonly SplitRows[],
): RawFinegrained {
  const K = data.classes.length;
  const params = COCO_PARAMS;
  const R = params.recThrs.length;
  const t = params.iouThrs.indexOf(0.5);
  return {
    kind: 'precision_recall',
    dimension_names: ['Recall', 'Precision'],
    split_performance: splits.map((split) => {
      const result = split.rows.length > 0 ? cocoOf(data, split.rows) : null;
      const sums = new Float64Array(R);
      let defined = 0;
      const performance = data.classes.map((name, k): RawSeries => {
        const summary = { metric_name: 'average_precision', value: NaN };
        // Precision is -1 at every recall point for a class without ground truth in the split.
        if (!result || result.precision[t * R * K + k]! < 0) return { name, values: [], summary };
        defined++;
        const values = Array.from(params.recThrs, (recall, r): [number, number] => {
          const precision = result.precision[(t * R + r) * K + k]!;
          sums[r]! += precision;
          return [recall, precision];
        });
        return { name, values, summary: { ...summary, value: coco(result.perCategory[k]!.ap50) } };
      });
      return {
        split_name: split.split_name,
        performance,
        average_performance:
          defined === 0
            ? null
            : {
                name: 'average',
                values: Array.from(params.recThrs, (recall, r) => [recall, sums[r]! / defined]),
                summary: { metric_name: 'average_precision', value: coco(result!.stats[1]!) },
              },
      };
    }),
  };
}

// Performance report of classification and audio classification: accuracy, macro averages and
// per-class precision/recall/F1 with scikit-learn's conventions, EER and ROC AUC of two classes,
// and the fine-grained ROC or precision/recall curves.
import {
  classificationReport,
  equalErrorRate,
  rocAuc,
  rocCurve,
  type ClassMetrics,
} from '../classification.js';
import type { TaskType } from '../catalogue.js';
import type {
  ClassEvalData,
  CurvePoint,
  PredictionCoverage,
  RawFinegrained,
  RawSeries,
  SplitMetrics,
  SplitRequest,
  SplitRows,
} from './index.js';

export const CLASSIFICATION_METRICS: readonly string[] = [
  'accuracy',
  'macro_precision',
  'macro_recall',
  'macro_f1_score',
  'count',
  'equal_error_rate',
  'area_under_roc',
];

const validated = new WeakSet<ClassEvalData>();

/** Number of samples, after checking that the arrays agree. */
export function classificationSamples(data: ClassEvalData): number {
  const N = data.truth.length;
  if (validated.has(data)) return N;
  const K = data.classes.length;
  if (K < 1) throw new RangeError('classes must not be empty');
  if (data.pred.length !== N)
    throw new RangeError(`pred has ${data.pred.length} entries, not ${N}`);
  if (data.score.length !== N) {
    throw new RangeError(`score has ${data.score.length} entries, not ${N}`);
  }
  if (data.probabilities && data.probabilities.length !== N * K) {
    throw new RangeError(`probabilities has ${data.probabilities.length} entries, not ${N}×${K}`);
  }
  for (let i = 0; i < N; i++) {
    const t = data.truth[i]!;
    const p = data.pred[i]!;
    if (t < -1 || t >= K) throw new RangeError(`truth[${i}] = ${t} is not a class index or -1`);
    if (p < -1 || p >= K) throw new RangeError(`pred[${i}] = ${p} is not a class index or -1`);
  }
  validated.add(data);
  return N;
}

const scoredCache = new WeakMap<ClassEvalData, boolean>();

/** Whether the model gave any confidence or probability (curves and EER need them). */
export function hasScores(data: ClassEvalData): boolean {
  let scored = scoredCache.get(data);
  if (scored !== undefined) return scored;
  scored = false;
  for (let i = 0; i < data.pred.length && !scored; i++) {
    if (data.pred[i]! >= 0 && !Number.isNaN(data.score[i]!)) scored = true;
  }
  const probabilities = data.probabilities;
  if (probabilities) {
    for (let i = 0; i < probabilities.length && !scored; i++) {
      if (!Number.isNaN(probabilities[i]!)) scored = true;
    }
  }
  scoredCache.set(data, scored);
  return scored;
}

/**
 * p(class k) of a predicted sample: its probability when uploaded; else from the confidence of
 * the predicted label (1 when absent): that confidence for the predicted class, its complement
 * for the other class of two, 0 for the others.
 */
export function classProbability(data: ClassEvalData, i: number, k: number, K: number): number {
  if (data.probabilities) {
    const p = data.probabilities[i * K + k]!;
    if (!Number.isNaN(p)) return p;
  }
  const score = Number.isNaN(data.score[i]!) ? 1 : data.score[i]!;
  if (data.pred[i] === k) return score;
  return K === 2 ? 1 - score : 0;
}

/** Samples of the rows with both ground truth and a prediction: those a score exists for. */
export function predictedSamples(data: ClassEvalData, rows: Uint32Array): Uint32Array {
  const out = new Uint32Array(rows.length);
  let n = 0;
  for (let j = 0; j < rows.length; j++) {
    const i = rows[j]!;
    if (data.truth[i]! >= 0 && data.pred[i]! >= 0) out[n++] = i;
  }
  return out.subarray(0, n);
}

/** One-vs-rest labels and p(class k) over the given samples. */
export function oneVsRest(
  data: ClassEvalData,
  samples: Uint32Array,
  k: number,
): { isPositive: Uint8Array; scores: Float64Array; positives: number } {
  const K = data.classes.length;
  const isPositive = new Uint8Array(samples.length);
  const scores = new Float64Array(samples.length);
  let positives = 0;
  for (let j = 0; j < samples.length; j++) {
    const i = samples[j]!;
    if (data.truth[i] === k) {
      isPositive[j] = 1;
      positives++;
    }
    scores[j] = classProbability(data, i, k, K);
  }
  return { isPositive, scores, positives };
}

export function classificationSplit(
  data: ClassEvalData,
  rows: Uint32Array,
  request: SplitRequest,
): SplitMetrics {
  const K = data.classes.length;
  const { truth, pred } = data;
  // Samples without a prediction become an extra class K: wrong for accuracy and recall, and
  // nobody's false positive. One pass, no allocation per row.
  const yTrue = new Int32Array(rows.length);
  const yPred = new Int32Array(rows.length);
  const present = new Uint8Array(K);
  let n = 0;
  for (let j = 0; j < rows.length; j++) {
    const i = rows[j]!;
    const t = truth[i]!;
    if (t < 0) continue;
    const p = pred[i]!;
    yTrue[n] = t;
    yPred[n] = p < 0 ? K : p;
    present[t] = 1;
    if (p >= 0) present[p] = 1;
    n++;
  }
  const metrics: Record<string, number> = {
    accuracy: NaN,
    macro_precision: NaN,
    macro_recall: NaN,
    macro_f1_score: NaN,
    count: n,
    equal_error_rate: NaN,
    area_under_roc: NaN,
  };
  let perClass: ClassMetrics[] | null = null;
  if (n > 0) {
    // Averages over the classes present in the labels or the predictions (scikit-learn).
    const averageOver: number[] = [];
    for (let k = 0; k < K; k++) if (present[k]) averageOver.push(k);
    const report = classificationReport(
      { numClasses: K + 1, yTrue: yTrue.subarray(0, n), yPred: yPred.subarray(0, n) },
      { averageOver },
    );
    metrics.accuracy = report.accuracy;
    metrics.macro_precision = report.macro.precision;
    metrics.macro_recall = report.macro.recall;
    metrics.macro_f1_score = report.macro.f1;
    perClass = report.perClass;
  }
  const wantEer = request.metrics.has('equal_error_rate');
  const wantAuc = request.metrics.has('area_under_roc');
  if ((wantEer || wantAuc) && K === 2 && hasScores(data)) {
    // Positive = the second class; samples without a prediction have no score and are left out.
    const { isPositive, scores } = oneVsRest(data, predictedSamples(data, rows), 1);
    if (isPositive.length > 0) {
      if (wantEer) metrics.equal_error_rate = equalErrorRate(isPositive, scores).eer;
      if (wantAuc) metrics.area_under_roc = rocAuc(isPositive, scores);
    }
  }
  const entities = request.entities
    ? data.classes.map((key, k) => {
        const c = perClass?.[k];
        // A class neither in the labels nor in the predictions of these rows has no value.
        const absent = !c || (c.support === 0 && c.tp + c.fp === 0);
        return {
          key,
          values: {
            precision: absent ? NaN : c.precision,
            recall: absent ? NaN : c.recall,
            f1_score: absent ? NaN : c.f1,
            count: c?.support ?? 0,
          },
        };
      })
    : [];
  return { metrics, entities };
}

export function classificationCoverage(
  data: ClassEvalData,
  rows: Uint32Array | null,
): PredictionCoverage {
  let items = 0;
  let missing = 0;
  const n = rows ? rows.length : data.truth.length;
  for (let j = 0; j < n; j++) {
    const i = rows ? rows[j]! : j;
    if (data.truth[i]! < 0) continue;
    items++;
    if (data.pred[i]! < 0) missing++;
  }
  return { num_items: items, num_missing: missing };
}

/** Displayed curves keep a point every 0.005 of L1 distance, at most this many. */
const CURVE_STEP = 0.005;
const MAX_CURVE_POINTS = 1000;

/** Thins a curve for display: every point of a million-sample curve is too many to send. */
export function thinCurve(xs: ArrayLike<number>, ys: ArrayLike<number>): CurvePoint[] {
  const n = xs.length;
  let out: CurvePoint[] = [];
  let lastX = 0;
  let lastY = 0;
  for (let i = 0; i < n; i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    if (i === 0 || i === n - 1 || Math.abs(x - lastX) + Math.abs(y - lastY) >= CURVE_STEP) {
      out.push([x, y]);
      lastX = x;
      lastY = y;
    }
  }
  if (out.length > MAX_CURVE_POINTS) {
    const stride = Math.ceil(out.length / MAX_CURVE_POINTS);
    const last = out[out.length - 1]!;
    out = out.filter((_, i) => i % stride === 0);
    if (out[out.length - 1] !== last) out.push(last);
  }
  return out;
}

interface Curve {
  xs: Float64Array;
  ys: Float64Array;
  summary: number;
}

const GRID = Float64Array.from({ length: 101 }, (_, r) => r / 100);

/** ROC of class k one-vs-rest with its area (trapezoids); null without positives or negatives. */
function rocOf(isPositive: Uint8Array, scores: Float64Array, positives: number): Curve | null {
  if (positives === 0 || positives === isPositive.length) return null;
  const { fpr, tpr } = rocCurve(isPositive, scores);
  let area = 0;
  for (let i = 1; i < fpr.length; i++) {
    area += ((fpr[i]! - fpr[i - 1]!) * (tpr[i]! + tpr[i - 1]!)) / 2;
  }
  return { xs: fpr, ys: tpr, summary: area };
}

/**
 * Precision/recall curve one-vs-rest, from the ROC counts at every distinct score, starting at
 * (recall 0, precision 1) like scikit-learn's precision_recall_curve, with its average precision
 * Σ (R_n − R_{n−1}) · P_n. Null without positives.
 */
function precisionRecallOf(
  isPositive: Uint8Array,
  scores: Float64Array,
  positives: number,
): Curve | null {
  if (positives === 0) return null;
  const negatives = isPositive.length - positives;
  const { fpr, tpr } = rocCurve(isPositive, scores);
  const xs = new Float64Array(fpr.length);
  const ys = new Float64Array(fpr.length);
  xs[0] = 0;
  ys[0] = 1;
  let ap = 0;
  for (let i = 1; i < fpr.length; i++) {
    const tp = Math.round(tpr[i]! * positives);
    const fp = negatives === 0 ? 0 : Math.round(fpr[i]! * negatives);
    xs[i] = tp / positives;
    ys[i] = tp / (tp + fp);
    ap += (xs[i]! - xs[i - 1]!) * ys[i]!;
  }
  return { xs, ys, summary: ap };
}

/** y at x on a curve with non-decreasing x, linear between points (the upper end of a jump). */
function interpolate(curve: Curve, x: number, from: { j: number }): number {
  const { xs, ys } = curve;
  while (from.j + 1 < xs.length && xs[from.j + 1]! <= x) from.j++;
  const j = from.j;
  if (xs[j]! >= x || j + 1 >= xs.length) return ys[j]!;
  return ys[j]! + ((ys[j + 1]! - ys[j]!) * (x - xs[j]!)) / (xs[j + 1]! - xs[j]!);
}

/** Macro-average ROC: mean TPR at FPR 0, 0.01, …, 1. */
function averageRoc(curves: Curve[]): CurvePoint[] {
  const sums = new Float64Array(GRID.length);
  for (const curve of curves) {
    const from = { j: 0 };
    GRID.forEach((x, r) => (sums[r]! += interpolate(curve, x, from)));
  }
  return Array.from(GRID, (x, r) => [x, sums[r]! / curves.length]);
}

/** Macro-average precision/recall: mean interpolated precision (best at recall ≥ r). */
function averagePrecisionRecall(curves: Curve[]): CurvePoint[] {
  const sums = new Float64Array(GRID.length);
  for (const curve of curves) {
    // Envelope from the right: best precision at this recall or beyond.
    const best = new Float64Array(GRID.length);
    for (let i = curve.xs.length - 1; i >= 0; i--) {
      const r = Math.min(100, Math.floor(curve.xs[i]! * 100 + 1e-9));
      if (curve.ys[i]! > best[r]!) best[r] = curve.ys[i]!;
    }
    let running = 0;
    for (let r = GRID.length - 1; r >= 0; r--) {
      running = Math.max(running, best[r]!);
      sums[r]! += running;
    }
  }
  return Array.from(GRID, (x, r) => [x, sums[r]! / curves.length]);
}

function mean(values: number[]): number {
  return values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * Fine-grained curves: classification with two classes and scores, one ROC of the positive
 * (second) class with its EER; audio classification with scores, one ROC per class one-vs-rest
 * with its AUC; otherwise one precision/recall curve per class with its average precision.
 * Samples without a prediction have no score and are left out.
 */
export function classificationFinegrained(
  task: TaskType,
  data: ClassEvalData,
  splits: readonly SplitRows[],
): RawFinegrained {
  const K = data.classes.length;
  const scored = hasScores(data);
  const binaryRoc = task === 'classification' && K === 2 && scored;
  const kind =
    binaryRoc || (task === 'audio_classification' && scored) ? 'roc' : 'precision_recall';
  const summaryName = kind === 'roc' ? 'area_under_roc' : 'average_precision';
  return {
    kind,
    dimension_names:
      kind === 'roc' ? ['False positive rate', 'True positive rate'] : ['Recall', 'Precision'],
    split_performance: splits.map((split) => {
      const samples = predictedSamples(data, split.rows);
      if (binaryRoc) {
        const { isPositive, scores, positives } = oneVsRest(data, samples, 1);
        const curve = rocOf(isPositive, scores, positives);
        const series: RawSeries = {
          name: data.classes[1]!,
          values: curve ? thinCurve(curve.xs, curve.ys) : [],
          summary: {
            metric_name: 'equal_error_rate',
            value: curve ? equalErrorRate(isPositive, scores).eer : NaN,
          },
        };
        return { split_name: split.split_name, performance: [series], average_performance: null };
      }
      const curves: Curve[] = [];
      const performance = data.classes.map((name, k): RawSeries => {
        const { isPositive, scores, positives } = oneVsRest(data, samples, k);
        const curve =
          kind === 'roc'
            ? rocOf(isPositive, scores, positives)
            : precisionRecallOf(isPositive, scores, positives);
        if (curve) curves.push(curve);
        return {
          name,
          values: curve ? thinCurve(curve.xs, curve.ys) : [],
          summary: { metric_name: summaryName, value: curve ? curve.summary : NaN },
        };
      });
      const average_performance: RawSeries | null =
        curves.length === 0
          ? null
          : {
              name: 'average',
              values: kind === 'roc' ? averageRoc(curves) : averagePrecisionRecall(curves),
              summary: { metric_name: summaryName, value: mean(curves.map((c) => c.summary)) },
            };
      return { split_name: split.split_name, performance, average_performance };
    }),
  };
}

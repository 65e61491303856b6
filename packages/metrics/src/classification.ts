// Classification and audio-classification metrics with scikit-learn's conventions: confusion
// matrix, per-class and averaged precision/recall/F1, ROC AUC (binary and one-vs-rest), EER, BCE.

import { sortFloat64InPlace } from './sort.js';

/**
 * Zero-division convention (scikit-learn's default `zero_division="warn"`, which yields 0): every
 * ratio whose denominator is 0 (precision without predictions, recall without support,
 * specificity without negatives, …) is 0. ROC AUC and EER are NaN when the ground truth has only
 * one class, where scikit-learn raises.
 */
function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

function checkLabels(values: ArrayLike<number>, numClasses: number, what: string): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isInteger(v) || v < 0 || v >= numClasses) {
      throw new RangeError(`${what}[${i}] = ${v} is not a class index in [0, ${numClasses})`);
    }
  }
}

/** Confusion matrix, row = true class, column = predicted class: `cm[t * K + p]`. */
export function confusionMatrix(
  yTrue: ArrayLike<number>,
  yPred: ArrayLike<number>,
  numClasses: number,
): Float64Array {
  if (yTrue.length !== yPred.length) {
    throw new RangeError(`yTrue has ${yTrue.length} items but yPred has ${yPred.length}`);
  }
  checkLabels(yTrue, numClasses, 'yTrue');
  checkLabels(yPred, numClasses, 'yPred');
  const cm = new Float64Array(numClasses * numClasses);
  for (let i = 0; i < yTrue.length; i++) cm[yTrue[i]! * numClasses + yPred[i]!]!++;
  return cm;
}

export interface ClassMetrics {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  /** Number of items whose true class is this one. */
  support: number;
  precision: number;
  /** Recall, also called sensitivity or true positive rate. */
  recall: number;
  f1: number;
  specificity: number;
  sensitivity: number;
  falseDiscoveryRate: number;
  falseNegativeRate: number;
  /** One-vs-rest ROC AUC from this class's score column; NaN without scores or without both outcomes. */
  rocAucOvr: number;
}

export interface AveragedMetrics {
  precision: number;
  recall: number;
  f1: number;
}

export interface ClassificationReport {
  numItems: number;
  accuracy: number;
  /** K×K, row = true class, column = predicted class. */
  confusionMatrix: Float64Array;
  perClass: ClassMetrics[];
  macro: AveragedMetrics;
  micro: AveragedMetrics;
  weighted: AveragedMetrics;
  /** Mean of the per-class one-vs-rest AUCs that are defined; NaN without scores. */
  rocAucOvrMacro: number;
}

export interface ClassificationInput {
  numClasses: number;
  /** True class index per item. */
  yTrue: ArrayLike<number>;
  /** Predicted class index per item. */
  yPred: ArrayLike<number>;
  /** Optional N×K row-major class scores (probabilities), for ROC AUC. */
  scores?: ArrayLike<number>;
}

export interface ClassificationOptions {
  /**
   * Classes that enter the macro/micro/weighted averages. Default as scikit-learn without
   * `labels=`: the classes present in yTrue or yPred.
   */
  averageOver?: readonly number[];
}

/** Everything the classification model pages and `loupe eval classification` show. */
export function classificationReport(
  input: ClassificationInput,
  options: ClassificationOptions = {},
): ClassificationReport {
  const K = input.numClasses;
  const N = input.yTrue.length;
  const cm = confusionMatrix(input.yTrue, input.yPred, K);
  if (input.scores && input.scores.length !== N * K) {
    throw new RangeError(`scores has ${input.scores.length} values, expected ${N}×${K}`);
  }
  const rowSum = new Float64Array(K);
  const colSum = new Float64Array(K);
  let correct = 0;
  for (let t = 0; t < K; t++) {
    for (let p = 0; p < K; p++) {
      const c = cm[t * K + p]!;
      rowSum[t]! += c;
      colSum[p]! += c;
    }
    correct += cm[t * K + t]!;
  }
  const perClass: ClassMetrics[] = [];
  for (let k = 0; k < K; k++) {
    const tp = cm[k * K + k]!;
    const fp = colSum[k]! - tp;
    const fn = rowSum[k]! - tp;
    const tn = N - tp - fp - fn;
    const recall = ratio(tp, tp + fn);
    perClass.push({
      tp,
      fp,
      fn,
      tn,
      support: rowSum[k]!,
      precision: ratio(tp, tp + fp),
      recall,
      // From counts as scikit-learn ≥ 1.3 (equal to 2PR/(P+R) up to rounding).
      f1: ratio(2 * tp, 2 * tp + fp + fn),
      specificity: ratio(tn, tn + fp),
      sensitivity: recall,
      falseDiscoveryRate: ratio(fp, tp + fp),
      falseNegativeRate: ratio(fn, tp + fn),
      rocAucOvr: input.scores ? oneVsRestAuc(input.yTrue, input.scores, K, k) : NaN,
    });
  }
  const labels =
    options.averageOver ?? perClass.flatMap((c, k) => (c.support > 0 || colSum[k]! > 0 ? [k] : []));
  const macro = { precision: 0, recall: 0, f1: 0 };
  const weighted = { precision: 0, recall: 0, f1: 0 };
  let tpSum = 0;
  let fpSum = 0;
  let fnSum = 0;
  let supportSum = 0;
  for (const k of labels) {
    const c = perClass[k];
    if (!c) throw new RangeError(`class ${k} is not in [0, ${K})`);
    macro.precision += c.precision;
    macro.recall += c.recall;
    macro.f1 += c.f1;
    weighted.precision += c.precision * c.support;
    weighted.recall += c.recall * c.support;
    weighted.f1 += c.f1 * c.support;
    tpSum += c.tp;
    fpSum += c.fp;
    fnSum += c.fn;
    supportSum += c.support;
  }
  const L = labels.length;
  let aucSum = 0;
  let aucCount = 0;
  for (const c of perClass) {
    if (!Number.isNaN(c.rocAucOvr)) {
      aucSum += c.rocAucOvr;
      aucCount++;
    }
  }
  return {
    numItems: N,
    accuracy: ratio(correct, N),
    confusionMatrix: cm,
    perClass,
    macro: {
      precision: ratio(macro.precision, L),
      recall: ratio(macro.recall, L),
      f1: ratio(macro.f1, L),
    },
    micro: {
      precision: ratio(tpSum, tpSum + fpSum),
      recall: ratio(tpSum, tpSum + fnSum),
      f1: ratio(2 * tpSum, 2 * tpSum + fpSum + fnSum),
    },
    weighted: {
      precision: ratio(weighted.precision, supportSum),
      recall: ratio(weighted.recall, supportSum),
      f1: ratio(weighted.f1, supportSum),
    },
    rocAucOvrMacro: aucCount === 0 ? NaN : aucSum / aucCount,
  };
}

/** Splits scores into those of positives and of negatives, each sorted ascending. */
function splitSorted(
  positive: Uint8Array,
  scores: ArrayLike<number>,
  offset: number,
  stride: number,
): { pos: Float64Array; neg: Float64Array } {
  const n = positive.length;
  let numPos = 0;
  for (let i = 0; i < n; i++) numPos += positive[i]!;
  const pos = new Float64Array(numPos);
  const neg = new Float64Array(n - numPos);
  let p = 0;
  let q = 0;
  for (let i = 0; i < n; i++) {
    const s = scores[offset + i * stride]!;
    if (Number.isNaN(s)) throw new RangeError(`score of item ${i} is NaN`);
    if (positive[i]) pos[p++] = s;
    else neg[q++] = s;
  }
  return { pos: sortFloat64InPlace(pos), neg: sortFloat64InPlace(neg) };
}

function toFlags(isPositive: ArrayLike<number | boolean>): Uint8Array {
  // A plain loop: Uint8Array.from with a callback is several times slower on a million items.
  const flags = new Uint8Array(isPositive.length);
  for (let i = 0; i < flags.length; i++) flags[i] = isPositive[i] ? 1 : 0;
  return flags;
}

/**
 * Area under the ROC curve from sorted positive and negative scores: the probability that a
 * positive outscores a negative, ties counting one half. This equals the trapezoidal area under
 * scikit-learn's roc_curve exactly (ties are one diagonal segment there).
 */
function aucFromSorted(pos: Float64Array, neg: Float64Array): number {
  if (pos.length === 0 || neg.length === 0) return NaN;
  let below = 0;
  let belowOrEqual = 0;
  let u = 0;
  for (let i = 0; i < pos.length; i++) {
    const s = pos[i]!;
    while (below < neg.length && neg[below]! < s) below++;
    if (belowOrEqual < below) belowOrEqual = below;
    while (belowOrEqual < neg.length && neg[belowOrEqual]! <= s) belowOrEqual++;
    u += below + (belowOrEqual - below) / 2;
  }
  return u / (pos.length * neg.length);
}

function oneVsRestAuc(
  yTrue: ArrayLike<number>,
  scores: ArrayLike<number>,
  K: number,
  k: number,
): number {
  const n = yTrue.length;
  const positive = new Uint8Array(n);
  for (let i = 0; i < n; i++) positive[i] = yTrue[i] === k ? 1 : 0;
  const { pos, neg } = splitSorted(positive, scores, k, K);
  return aucFromSorted(pos, neg);
}

/** Binary ROC AUC (scikit-learn's roc_auc_score); NaN when only one class is present. */
export function rocAuc(isPositive: ArrayLike<number | boolean>, scores: ArrayLike<number>): number {
  if (isPositive.length !== scores.length) {
    throw new RangeError(`${isPositive.length} labels but ${scores.length} scores`);
  }
  const { pos, neg } = splitSorted(toFlags(isPositive), scores, 0, 1);
  return aucFromSorted(pos, neg);
}

export interface RocCurve {
  /** One point per distinct score, from the highest threshold (+Infinity: nothing predicted). */
  fpr: Float64Array;
  tpr: Float64Array;
  thresholds: Float64Array;
}

/** ROC curve at every distinct score (scikit-learn's roc_curve with drop_intermediate=False). */
export function rocCurve(
  isPositive: ArrayLike<number | boolean>,
  scores: ArrayLike<number>,
): RocCurve {
  if (isPositive.length !== scores.length) {
    throw new RangeError(`${isPositive.length} labels but ${scores.length} scores`);
  }
  const { pos, neg } = splitSorted(toFlags(isPositive), scores, 0, 1);
  const P = pos.length;
  const N = neg.length;
  // At most one point per item plus the origin; typed arrays, trimmed at the end.
  const fpr = new Float64Array(P + N + 1);
  const tpr = new Float64Array(P + N + 1);
  const thresholds = new Float64Array(P + N + 1);
  thresholds[0] = Infinity;
  let m = 1;
  let i = P - 1;
  let j = N - 1;
  let tp = 0;
  let fp = 0;
  while (i >= 0 || j >= 0) {
    const s = Math.max(i >= 0 ? pos[i]! : -Infinity, j >= 0 ? neg[j]! : -Infinity);
    while (i >= 0 && pos[i] === s) {
      tp++;
      i--;
    }
    while (j >= 0 && neg[j] === s) {
      fp++;
      j--;
    }
    fpr[m] = N === 0 ? NaN : fp / N;
    tpr[m] = P === 0 ? NaN : tp / P;
    thresholds[m++] = s;
  }
  return { fpr: fpr.slice(0, m), tpr: tpr.slice(0, m), thresholds: thresholds.slice(0, m) };
}

export interface EqualErrorRate {
  /** The rate where the false positive rate equals the false negative rate. */
  eer: number;
  /** Score threshold at that point, interpolated like the rate. */
  threshold: number;
}

/**
 * Equal error rate: walking the ROC curve from the highest threshold, FNR − FPR goes from 1 to
 * −1; EER is where it crosses 0, by linear interpolation between the two ROC points around the
 * crossing. NaN when only one class is present.
 */
export function equalErrorRate(
  isPositive: ArrayLike<number | boolean>,
  scores: ArrayLike<number>,
): EqualErrorRate {
  const { fpr, tpr, thresholds } = rocCurve(isPositive, scores);
  if (fpr.length < 2 || Number.isNaN(fpr[1]!) || Number.isNaN(tpr[1]!)) {
    return { eer: NaN, threshold: NaN };
  }
  for (let i = 1; i < fpr.length; i++) {
    const d = 1 - tpr[i]! - fpr[i]!;
    if (d > 0) continue;
    const dPrev = 1 - tpr[i - 1]! - fpr[i - 1]!;
    if (d === 0) return { eer: fpr[i]!, threshold: thresholds[i]! };
    const t = dPrev / (dPrev - d);
    const eer = fpr[i - 1]! + t * (fpr[i]! - fpr[i - 1]!);
    const previousThreshold = Number.isFinite(thresholds[i - 1]!)
      ? thresholds[i - 1]!
      : thresholds[i]!;
    return { eer, threshold: previousThreshold + t * (thresholds[i]! - previousThreshold) };
  }
  // Unreachable: at the lowest threshold FNR = 0 and FPR = 1.
  return { eer: NaN, threshold: NaN };
}

/**
 * Binary cross-entropy (scikit-learn's log_loss for two classes): mean of −log p(true class),
 * natural log, probabilities clipped to [ε, 1 − ε] with ε = float64 machine epsilon.
 */
export function binaryCrossEntropy(
  isPositive: ArrayLike<number | boolean>,
  probabilityOfPositive: ArrayLike<number>,
): number {
  const n = isPositive.length;
  if (n !== probabilityOfPositive.length) {
    throw new RangeError(`${n} labels but ${probabilityOfPositive.length} probabilities`);
  }
  if (n === 0) return NaN;
  const eps = 2.220446049250313e-16;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    let p = probabilityOfPositive[i]!;
    if (!(p >= 0 && p <= 1))
      throw new RangeError(`probability of item ${i} is ${p}, not in [0, 1]`);
    p = Math.min(Math.max(p, eps), 1 - eps);
    sum -= isPositive[i] ? Math.log(p) : Math.log(1 - p);
  }
  return sum / n;
}

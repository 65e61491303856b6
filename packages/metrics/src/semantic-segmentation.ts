// Semantic segmentation metrics from label maps: a pixel confusion matrix accumulated over
// images, then per-class IoU, precision, recall, F1, mean IoU and pixel accuracy.

export interface SegmentationClassMetrics {
  /** Class index. */
  class: number;
  tp: number;
  fp: number;
  fn: number;
  /** NaN when the class occurs neither in the ground truth nor in the predictions. */
  iou: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface SegmentationReport {
  perClass: SegmentationClassMetrics[];
  /** Mean IoU over the classes where it is defined (NaN when none is). */
  meanIou: number;
  /** Correct pixels over counted pixels (NaN when none is counted). */
  pixelAccuracy: number;
  /** Pixels counted: ground truth not equal to the ignore value. */
  numPixels: number;
}

/**
 * Accumulates pixel counts over label maps. A pixel whose ground truth is the ignore value (or
 * outside [0, numClasses)) is skipped; a prediction outside [0, numClasses) counts as a miss of
 * the true class and as nobody's false positive.
 */
export class SegmentationAccumulator {
  /** (numClasses+1)² counts, row = true class, column = predicted class; last column = invalid. */
  readonly confusion: Float64Array;

  constructor(
    readonly numClasses: number,
    readonly ignoreValue: number | null = 255,
  ) {
    if (!Number.isInteger(numClasses) || numClasses < 1) {
      throw new RangeError(`numClasses must be a positive integer, got ${numClasses}`);
    }
    this.confusion = new Float64Array(numClasses * (numClasses + 1));
  }

  /** Adds one image (gt and prediction in the same pixel order). */
  add(gt: ArrayLike<number>, pred: ArrayLike<number>): void {
    if (gt.length !== pred.length) {
      throw new RangeError(`label maps differ in size: ${gt.length} and ${pred.length} pixels`);
    }
    const K = this.numClasses;
    const W = K + 1;
    const cm = this.confusion;
    const ignore = this.ignoreValue;
    for (let i = 0; i < gt.length; i++) {
      const t = gt[i]!;
      if (t === ignore || !(t >= 0 && t < K)) continue;
      const p = pred[i]!;
      cm[t * W + (p >= 0 && p < K ? p : K)]!++;
    }
  }

  report(): SegmentationReport {
    const K = this.numClasses;
    const W = K + 1;
    const cm = this.confusion;
    const perClass: SegmentationClassMetrics[] = [];
    let correct = 0;
    let total = 0;
    let iouSum = 0;
    let iouCount = 0;
    for (let k = 0; k < K; k++) {
      let row = 0;
      let col = 0;
      for (let j = 0; j < W; j++) row += cm[k * W + j]!;
      for (let j = 0; j < K; j++) col += cm[j * W + k]!;
      const tp = cm[k * W + k]!;
      const fp = col - tp;
      const fn = row - tp;
      correct += tp;
      total += row;
      const present = tp + fp + fn > 0;
      // Zero division gives 0 as in scikit-learn, except for a class absent from both sides,
      // which has no defined value and stays out of the means.
      const div = (a: number, b: number): number => (!present ? NaN : b === 0 ? 0 : a / b);
      const iou = div(tp, tp + fp + fn);
      if (present) {
        iouSum += iou;
        iouCount++;
      }
      perClass.push({
        class: k,
        tp,
        fp,
        fn,
        iou,
        precision: div(tp, tp + fp),
        recall: div(tp, tp + fn),
        f1: div(2 * tp, 2 * tp + fp + fn),
      });
    }
    return {
      perClass,
      meanIou: iouCount === 0 ? NaN : iouSum / iouCount,
      pixelAccuracy: total === 0 ? NaN : correct / total,
      numPixels: total,
    };
  }
}

/** Metrics of a set of (ground truth, prediction) label-map pairs. */
export function semanticSegmentationReport(
  pairs: Iterable<[ArrayLike<number>, ArrayLike<number>]>,
  numClasses: number,
  ignoreValue: number | null = 255,
): SegmentationReport {
  const accumulator = new SegmentationAccumulator(numClasses, ignoreValue);
  for (const [gt, pred] of pairs) accumulator.add(gt, pred);
  return accumulator.report();
}

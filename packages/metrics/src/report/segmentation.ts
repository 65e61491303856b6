// Performance report of semantic segmentation: per-class IoU, precision, recall and F1 from the
// pixel confusion summed over a split's images, their means over the classes, and the histogram
// of per-image mean IoU.
import { SegmentationAccumulator } from '../semantic-segmentation.js';
import { histogram, histogramPoints } from './histogram.js';
import type {
  MaskEvalData,
  PredictionCoverage,
  RawFinegrained,
  SplitMetrics,
  SplitRequest,
  SplitRows,
} from './index.js';

export const SEGMENTATION_METRICS: readonly string[] = [
  'IoU',
  'precision',
  'recall',
  'f1_score',
  'mean_IoU',
];

const validated = new WeakSet<MaskEvalData>();

export function segmentationSamples(data: MaskEvalData): number {
  if (validated.has(data)) return data.confusion.length;
  const K = data.classes.length;
  if (K < 1) throw new RangeError('classes must not be empty');
  data.confusion.forEach((c, i) => {
    if (c && c.length !== K * K) {
      throw new RangeError(`confusion[${i}] has ${c.length} entries, not ${K}×${K}`);
    }
  });
  validated.add(data);
  return data.confusion.length;
}

/** Mean of the values that are defined (classes absent from both sides are NaN). */
function definedMean(values: number[]): number {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    sum += v;
    n++;
  }
  return n === 0 ? NaN : sum / n;
}

/**
 * IoU of class k in one image's K×K confusion (row = truth, column = prediction); NaN for a
 * class in neither.
 */
export function classIou(c: Float64Array, K: number, k: number): number {
  let row = 0;
  let col = 0;
  for (let j = 0; j < K; j++) {
    row += c[k * K + j]!;
    col += c[j * K + k]!;
  }
  const tp = c[k * K + k]!;
  return tp / (row + col - tp);
}

/** Mean IoU of one image over the classes present in its ground truth or prediction. */
function imageMeanIou(c: Float64Array, K: number): number {
  let sum = 0;
  let n = 0;
  for (let k = 0; k < K; k++) {
    const iou = classIou(c, K, k);
    if (!Number.isNaN(iou)) {
      sum += iou;
      n++;
    }
  }
  return n === 0 ? NaN : sum / n;
}

const perImageCache = new WeakMap<MaskEvalData, Float64Array>();

/** Per-image mean IoU (NaN without prediction), computed once per data. */
function perImageMeanIou(data: MaskEvalData): Float64Array {
  let out = perImageCache.get(data);
  if (out) return out;
  const K = data.classes.length;
  out = Float64Array.from(data.confusion, (c) => (c ? imageMeanIou(c, K) : NaN));
  perImageCache.set(data, out);
  return out;
}

function meanOver(values: Float64Array, rows: Uint32Array): number {
  let sum = 0;
  let n = 0;
  for (let j = 0; j < rows.length; j++) {
    const v = values[rows[j]!]!;
    if (Number.isNaN(v)) continue;
    sum += v;
    n++;
  }
  return n === 0 ? NaN : sum / n;
}

/** Images without a prediction are left out. */
export function segmentationSplit(
  data: MaskEvalData,
  rows: Uint32Array,
  request: SplitRequest,
): SplitMetrics {
  const K = data.classes.length;
  const W = K + 1;
  // The accumulator's K×(K+1) matrix takes the sum of the images' K×K ones.
  const accumulator = new SegmentationAccumulator(K, null);
  const cm = accumulator.confusion;
  let images = 0;
  for (let j = 0; j < rows.length; j++) {
    const c = data.confusion[rows[j]!];
    if (!c) continue;
    images++;
    for (let t = 0; t < K; t++) {
      for (let p = 0; p < K; p++) cm[t * W + p]! += c[t * K + p]!;
    }
  }
  const report = accumulator.report();
  const empty = images === 0;
  const metrics: Record<string, number> = {
    IoU: empty ? NaN : report.meanIou,
    precision: empty ? NaN : definedMean(report.perClass.map((c) => c.precision)),
    recall: empty ? NaN : definedMean(report.perClass.map((c) => c.recall)),
    f1_score: empty ? NaN : definedMean(report.perClass.map((c) => c.f1)),
    mean_IoU: request.metrics.has('mean_IoU') ? meanOver(perImageMeanIou(data), rows) : NaN,
  };
  return {
    metrics,
    entities: request.entities
      ? report.perClass.map((c, k) => ({
          key: data.classes[k]!,
          values: { precision: c.precision, recall: c.recall, f1_score: c.f1, IoU: c.iou },
        }))
      : [],
  };
}

/** Every image has ground truth; those without a predicted mask are missing. */
export function segmentationCoverage(
  data: MaskEvalData,
  rows: Uint32Array | null,
): PredictionCoverage {
  const n = rows ? rows.length : data.confusion.length;
  let missing = 0;
  for (let j = 0; j < n; j++) if (!data.confusion[rows ? rows[j]! : j]) missing++;
  return { num_items: n, num_missing: missing };
}

/** Histogram of per-image mean IoU in 20 bins over [0, 1], summary its mean. */
export function segmentationFinegrained(
  data: MaskEvalData,
  splits: readonly SplitRows[],
): RawFinegrained {
  const perImage = perImageMeanIou(data);
  return {
    kind: 'iou_distribution',
    dimension_names: ['Mean IoU', 'Images'],
    split_performance: splits.map((split) => {
      const values = Float64Array.from(split.rows, (i) => perImage[i]!);
      return {
        split_name: split.split_name,
        performance: [
          {
            name: 'mean_IoU',
            values: histogramPoints(histogram(values, { min: 0, max: 1, bins: 20 })),
            summary: { metric_name: 'mean_IoU', value: meanOver(perImage, split.rows) },
          },
        ],
        average_performance: null,
      };
    }),
  };
}

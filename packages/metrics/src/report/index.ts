// Performance reports of a prediction set (docs/metrics.md, "Performance reports"): statistics
// per split, the per-class / per-word / per-value table, fine-grained curves and the metrics of
// any slice of items, for the seven task types, from evaluation data aligned by sample index.
import { PERFORMANCE_METRICS, type TaskType } from '../catalogue.js';
import type { Rle } from '../rle.js';
import {
  CLASSIFICATION_METRICS,
  classificationCoverage,
  classificationFinegrained,
  classificationSplit,
  classificationSamples,
} from './classification.js';
import {
  OBJECT_METRICS,
  objectCoverage,
  objectFinegrained,
  objectSamples,
  objectSplit,
} from './objects.js';
import {
  REGRESSION_METRICS,
  regressionCoverage,
  regressionFinegrained,
  regressionSamples,
  regressionSplit,
} from './regression.js';
import {
  SEGMENTATION_METRICS,
  segmentationCoverage,
  segmentationFinegrained,
  segmentationSamples,
  segmentationSplit,
} from './segmentation.js';
import {
  TRANSCRIPT_METRICS,
  transcriptCoverage,
  transcriptFinegrained,
  transcriptSamples,
  transcriptSplit,
} from './transcripts.js';

/** Classification and audio classification: one label (and optionally scores) per sample. */
export interface ClassEvalData {
  kind: 'class';
  classes: string[];
  /** Ground-truth class index per sample; -1 = no ground truth (the sample is left out). */
  truth: Int32Array;
  /** Predicted class index per sample; -1 = no prediction (counts as wrong). */
  pred: Int32Array;
  /** Confidence of the predicted label; NaN = none. */
  score: Float64Array;
  /** N×K class probabilities, row-major; a row of NaN = none for that sample. */
  probabilities: Float32Array | null;
}

/** Regression: V values per sample, NaN where missing. */
export interface ValueEvalData {
  kind: 'value';
  valueNames: string[];
  /** N×V, row-major. */
  truth: Float64Array;
  /** N×V, row-major. */
  pred: Float64Array;
}

/** Speech recognition: null = no reference (left out) / no hypothesis (left out, missing). */
export interface TranscriptEvalData {
  kind: 'transcript';
  reference: (string | null)[];
  hypothesis: (string | null)[];
}

/** Object detection and instance segmentation: objects refer to their sample by index. */
export interface ObjectEvalData {
  kind: 'objects';
  classes: string[];
  iouType: 'bbox' | 'segm';
  /** Per sample: 1 when the model predicted it (an image without objects may be a prediction). */
  hasPrediction: Uint8Array;
  /** N×2 (height, width) in pixels; NaN when unknown. */
  imageSize: Float64Array;
  gt: {
    image: Int32Array;
    label: Int32Array;
    /** 4 per object: x, y, width, height. */
    box: Float64Array;
    /** Masks (segm; may be empty for bbox); null = make it from the box and image size. */
    rle: (Rle | null)[];
    iscrowd: Uint8Array;
  };
  pred: {
    image: Int32Array;
    label: Int32Array;
    score: Float64Array;
    box: Float64Array;
    rle: (Rle | null)[];
  };
}

/** Semantic segmentation: per sample a K×K pixel confusion (row = truth, column = prediction). */
export interface MaskEvalData {
  kind: 'mask';
  classes: string[];
  /** null = no prediction for that sample (left out). */
  confusion: (Float64Array | null)[];
}

export type EvalData =
  ClassEvalData | ValueEvalData | TranscriptEvalData | ObjectEvalData | MaskEvalData;

/**
 * The samples of one split, by index (distinct). Evaluation data and rows are read, never
 * changed, and treated as immutable: per-data results (alignments, matches, COCO IoUs) and
 * per-rows COCO evaluations are cached by object identity.
 */
export interface SplitRows {
  split_name: string;
  rows: Uint32Array;
}

export interface ReportOptions {
  /** IoU at which predicted objects match ground truths (object tasks; ignored otherwise). */
  iouThreshold: number;
}

/** A metric's value; null when undefined (no items, no positives, …). */
export type MetricValue = number | null;

export interface Statistic {
  metric_name: string;
  values: { split_name: string; value: MetricValue }[];
}

export type PrimaryKey = 'class' | 'word' | 'value_name';

export interface OverallRow {
  key: string;
  values: Record<string, MetricValue>;
}

export interface PerformanceReport {
  statistics: Statistic[];
  overall: {
    primary_key: PrimaryKey;
    metrics: string[];
    splits: { split_name: string; rows: OverallRow[] }[];
  };
}

export type FinegrainedKind =
  'precision_recall' | 'roc' | 'error_distribution' | 'wer_distribution' | 'iou_distribution';

export type CurvePoint = [number, number];

export interface FinegrainedSeries {
  name: string;
  values: CurvePoint[];
  summary: { metric_name: string; value: MetricValue } | null;
}

export interface FinegrainedReport {
  kind: FinegrainedKind;
  dimension_names: [string, string];
  split_performance: {
    split_name: string;
    performance: FinegrainedSeries[];
    average_performance: FinegrainedSeries | null;
  }[];
}

/** Samples with ground truth among the given rows, and of those the ones without a prediction. */
export interface PredictionCoverage {
  num_items: number;
  num_missing: number;
}

/** What a task family computes over one set of rows: NaN where undefined. */
export interface SplitMetrics {
  metrics: Record<string, number>;
  /** One row per class, word or value name (empty unless asked for). */
  entities: { key: string; values: Record<string, number> }[];
}

/** What to compute over a set of rows. */
export interface SplitRequest {
  metrics: ReadonlySet<string>;
  entities: boolean;
}

/** A series before NaN summaries become null. */
export interface RawSeries {
  name: string;
  values: CurvePoint[];
  summary: { metric_name: string; value: number } | null;
}

export interface RawFinegrained {
  kind: FinegrainedKind;
  dimension_names: [string, string];
  split_performance: {
    split_name: string;
    performance: RawSeries[];
    average_performance: RawSeries | null;
  }[];
}

interface Family {
  /** Slice metric ids this task can compute. */
  supported: readonly string[];
  samples: number;
  split(rows: Uint32Array, request: SplitRequest): SplitMetrics;
  finegrained(splits: readonly SplitRows[]): RawFinegrained;
  coverage(rows: Uint32Array | null): PredictionCoverage;
}

function expectKind<K extends EvalData['kind']>(
  task: TaskType,
  data: EvalData,
  kind: K,
): Extract<EvalData, { kind: K }> {
  if (data.kind !== kind) {
    throw new TypeError(`${task} needs evaluation data of kind "${kind}", got "${data.kind}"`);
  }
  return data as Extract<EvalData, { kind: K }>;
}

function familyOf(task: TaskType, data: EvalData, options: ReportOptions): Family {
  switch (task) {
    case 'classification':
    case 'audio_classification': {
      const d = expectKind(task, data, 'class');
      return {
        supported: CLASSIFICATION_METRICS,
        samples: classificationSamples(d),
        split: (rows, request) => classificationSplit(d, rows, request),
        finegrained: (splits) => classificationFinegrained(task, d, splits),
        coverage: (rows) => classificationCoverage(d, rows),
      };
    }
    case 'regression': {
      const d = expectKind(task, data, 'value');
      return {
        supported: REGRESSION_METRICS,
        samples: regressionSamples(d),
        split: (rows, request) => regressionSplit(d, rows, request),
        finegrained: (splits) => regressionFinegrained(d, splits),
        coverage: (rows) => regressionCoverage(d, rows),
      };
    }
    case 'object_detection':
    case 'instance_segmentation': {
      const d = expectKind(task, data, 'objects');
      return {
        supported: OBJECT_METRICS,
        samples: objectSamples(d),
        split: (rows, request) => objectSplit(d, rows, request, options.iouThreshold),
        finegrained: (splits) => objectFinegrained(d, splits),
        coverage: (rows) => objectCoverage(d, rows),
      };
    }
    case 'semantic_segmentation': {
      const d = expectKind(task, data, 'mask');
      return {
        supported: SEGMENTATION_METRICS,
        samples: segmentationSamples(d),
        split: (rows, request) => segmentationSplit(d, rows, request),
        finegrained: (splits) => segmentationFinegrained(d, splits),
        coverage: (rows) => segmentationCoverage(d, rows),
      };
    }
    case 'automatic_speech_recognition': {
      const d = expectKind(task, data, 'transcript');
      return {
        supported: TRANSCRIPT_METRICS,
        samples: transcriptSamples(d),
        split: (rows, request) => transcriptSplit(d, rows, request),
        finegrained: (splits) => transcriptFinegrained(d, splits),
        coverage: (rows) => transcriptCoverage(d, rows),
      };
    }
    default:
      throw new RangeError(`unknown task type "${String(task)}"`);
  }
}

/** NaN, ±Infinity and undefined become null: JSON has no NaN. */
export function metricValue(value: number | undefined): MetricValue {
  return value === undefined || !Number.isFinite(value) ? null : value;
}

function checkRows(rows: Uint32Array, samples: number, what: string): void {
  let max = -1;
  for (let i = 0; i < rows.length; i++) if (rows[i]! > max) max = rows[i]!;
  if (max >= samples) {
    throw new RangeError(`${what} has sample index ${max}, but there are ${samples} samples`);
  }
}

function checkOptions(options: ReportOptions): void {
  const iou = options.iouThreshold;
  if (!(iou >= 0 && iou <= 1)) throw new RangeError(`iouThreshold must be in [0, 1], got ${iou}`);
}

function definedFor(task: TaskType, result: SplitMetrics, id: string): number {
  const value = result.metrics[id];
  if (value === undefined) throw new Error(`${task} computed no "${id}"`);
  return value;
}

/**
 * Statistics ('all' and each split, as given) and the overall table of a prediction set. The
 * metric ids and their order are the catalogue's (PERFORMANCE_METRICS[task]): statistics carry
 * statistics.visible + hidden, table rows overall.visible + hidden.
 */
export function performanceReport(
  task: TaskType,
  data: EvalData,
  splits: readonly SplitRows[],
  options: ReportOptions,
): PerformanceReport {
  checkOptions(options);
  const family = familyOf(task, data, options);
  const spec = PERFORMANCE_METRICS[task];
  const statisticIds = [...spec.statistics.visible, ...spec.statistics.hidden];
  const overallIds = [...spec.overall.visible, ...spec.overall.hidden];
  const request: SplitRequest = { metrics: new Set(statisticIds), entities: true };
  const results = splits.map((split) => {
    checkRows(split.rows, family.samples, `split "${split.split_name}"`);
    return family.split(split.rows, request);
  });
  return {
    statistics: statisticIds.map((id) => ({
      metric_name: id,
      values: splits.map((split, s) => ({
        split_name: split.split_name,
        value: metricValue(definedFor(task, results[s]!, id)),
      })),
    })),
    overall: {
      primary_key: spec.primaryKey,
      metrics: overallIds,
      splits: splits.map((split, s) => ({
        split_name: split.split_name,
        rows: results[s]!.entities.map((entity) => ({
          key: entity.key,
          values: Object.fromEntries(overallIds.map((id) => [id, metricValue(entity.values[id])])),
        })),
      })),
    },
  };
}

/** The fine-grained curves or distributions of each split (docs/metrics.md). */
export function finegrainedReport(
  task: TaskType,
  data: EvalData,
  splits: readonly SplitRows[],
  options: ReportOptions,
): FinegrainedReport {
  checkOptions(options);
  const family = familyOf(task, data, options);
  for (const split of splits) {
    checkRows(split.rows, family.samples, `split "${split.split_name}"`);
  }
  const raw = family.finegrained(splits);
  const series = (s: RawSeries): FinegrainedSeries => ({
    name: s.name,
    values: s.values,
    summary: s.summary && {
      metric_name: s.summary.metric_name,
      value: metricValue(s.summary.value),
    },
  });
  return {
    kind: raw.kind,
    dimension_names: raw.dimension_names,
    split_performance: raw.split_performance.map((split) => ({
      split_name: split.split_name,
      performance: split.performance.map(series),
      average_performance: split.average_performance && series(split.average_performance),
    })),
  };
}

/** Metric ids sliceMetrics can compute for a task. */
export function sliceMetricIds(task: TaskType): readonly string[] {
  switch (task) {
    case 'classification':
    case 'audio_classification':
      return CLASSIFICATION_METRICS;
    case 'regression':
      return REGRESSION_METRICS;
    case 'object_detection':
    case 'instance_segmentation':
      return OBJECT_METRICS;
    case 'semantic_segmentation':
      return SEGMENTATION_METRICS;
    case 'automatic_speech_recognition':
      return TRANSCRIPT_METRICS;
    default:
      throw new RangeError(`unknown task type "${String(task)}"`);
  }
}

/**
 * The given metrics over one slice of samples (a metadata bin, a subset, a selection): exactly
 * the ids asked, null where undefined. An id the task cannot compute is a RangeError naming it.
 */
export function sliceMetrics(
  task: TaskType,
  data: EvalData,
  rows: Uint32Array,
  metricIds: readonly string[],
  options: ReportOptions,
): Record<string, MetricValue> {
  checkOptions(options);
  const family = familyOf(task, data, options);
  for (const id of metricIds) {
    if (!family.supported.includes(id)) {
      throw new RangeError(
        `metric "${id}" is not available for ${task} (available: ${family.supported.join(', ')})`,
      );
    }
  }
  checkRows(rows, family.samples, 'rows');
  const result = family.split(rows, { metrics: new Set(metricIds), entities: false });
  return Object.fromEntries(metricIds.map((id) => [id, metricValue(definedFor(task, result, id))]));
}

/**
 * How many of the rows (all samples when null) have ground truth, and how many of those have no
 * prediction: the statistics banner's num_items and num_missing.
 */
export function predictionCoverage(
  task: TaskType,
  data: EvalData,
  rows: Uint32Array | null = null,
): PredictionCoverage {
  const family = familyOf(task, data, { iouThreshold: 0.5 });
  if (rows) checkRows(rows, family.samples, 'rows');
  return family.coverage(rows);
}

export { histogram, type Histogram, type HistogramOptions } from './histogram.js';
export { OBJECT_PARTNER, OBJECT_STATUS, objectMatches, type ObjectMatches } from './objects.js';

// Comparison of two models on the same samples (docs/metrics.md, "Comparing two models"): every
// comparison metric of both with its delta, the per-class or per-word breakdown, and the
// per-sample, per-mask and per-object sections with their categories and distributions.
import {
  COMPARISON_METRICS,
  betterModel,
  getMetric,
  relativeDelta,
  type TaskType,
} from '../catalogue.js';
import { equalErrorRate } from '../classification.js';
import { hasScores, oneVsRest, predictedSamples } from '../report/classification.js';
import {
  metricValue,
  performanceReport,
  type ClassEvalData,
  type EvalData,
  type MaskEvalData,
  type ObjectEvalData,
  type PerformanceReport,
  type TranscriptEvalData,
  type ValueEvalData,
} from '../report/index.js';
import { GROUND_TRUTH_SUBCATEGORIES, PREDICTION_SUBCATEGORIES } from './categories.js';
import { entityBreakdown, type EntityRule, type EntityValues } from './entities.js';
import { objectItems } from './objects.js';
import { classificationItems, maskItems, regressionItems, transcriptItems } from './samples.js';
import { sectionResult } from './sections.js';
import type {
  CompareOptions,
  ComparisonItems,
  ComparisonResult,
  EntityBreakdown,
  MetricDelta,
  ModelComparison,
} from './types.js';

export * from './types.js';
export {
  COMPARISON_CATEGORIES,
  GROUND_TRUTH_SUBCATEGORIES,
  OBJECT_SUBCATEGORIES,
  PREDICTION_SUBCATEGORIES,
  SUBCATEGORY_CATEGORY,
  mirrorCategory,
  mirrorSubcategory,
} from './categories.js';
export { alignClasses } from './align.js';
export { DISTRIBUTION_BINS, NO_BIN, selectSectionItems, type ItemSelection } from './sections.js';

/** The two sides of one comparison metric; deltas are B − A, null where undefined. */
export function metricDelta(metric: string, a: number | null, b: number | null): MetricDelta {
  const defined = a !== null && b !== null && Number.isFinite(a) && Number.isFinite(b);
  const direction = getMetric(metric)?.desiredDirection ?? 'higher';
  return {
    model_a: metricValue(a ?? NaN),
    model_b: metricValue(b ?? NaN),
    raw_delta: defined ? b - a : null,
    relative_delta: defined ? metricValue(relativeDelta(a, b)) : null,
    better: defined ? betterModel(direction === 'lower' ? 'lower' : 'higher', a, b) : null,
  };
}

function sameArrays(x: ArrayLike<number>, y: ArrayLike<number>): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i] && !(Number.isNaN(x[i]!) && Number.isNaN(y[i]!))) return false;
  }
  return true;
}

const sameStrings = (x: readonly unknown[], y: readonly unknown[]) =>
  x.length === y.length && x.every((v, i) => v === y[i]);

/** Both models must be evaluated on the same samples and ground truth. */
function checkSameGroundTruth(a: EvalData, b: EvalData): void {
  const fail = (what: string) => {
    throw new RangeError(`the two models' evaluation data differ in ${what}`);
  };
  if (a.kind !== b.kind) fail('kind');
  switch (a.kind) {
    case 'class': {
      const y = b as ClassEvalData;
      if (!sameStrings(a.classes, y.classes)) fail('classes');
      if (!sameArrays(a.truth, y.truth)) fail('ground truth');
      return;
    }
    case 'value': {
      const y = b as ValueEvalData;
      if (!sameStrings(a.valueNames, y.valueNames)) fail('value names');
      if (!sameArrays(a.truth, y.truth)) fail('ground truth');
      return;
    }
    case 'transcript': {
      if (!sameStrings(a.reference, (b as TranscriptEvalData).reference)) fail('references');
      return;
    }
    case 'objects': {
      const y = b as ObjectEvalData;
      if (!sameStrings(a.classes, y.classes)) fail('classes');
      if (a.iouType !== y.iouType) fail('IoU type');
      if (a.hasPrediction.length !== y.hasPrediction.length) fail('samples');
      if (
        !sameArrays(a.gt.image, y.gt.image) ||
        !sameArrays(a.gt.label, y.gt.label) ||
        !sameArrays(a.gt.box, y.gt.box)
      ) {
        fail('ground-truth objects');
      }
      return;
    }
    case 'mask': {
      const y = b as MaskEvalData;
      if (!sameStrings(a.classes, y.classes)) fail('classes');
      if (a.confusion.length !== y.confusion.length) fail('samples');
      const K = a.classes.length;
      // The ground truth is in the rows of each image's confusion.
      for (let i = 0; i < a.confusion.length; i++) {
        const ca = a.confusion[i];
        const cb = y.confusion[i];
        if (!ca || !cb) continue;
        for (let t = 0; t < K; t++) {
          let ra = 0;
          let rb = 0;
          for (let p = 0; p < K; p++) {
            ra += ca[t * K + p]!;
            rb += cb[t * K + p]!;
          }
          if (ra !== rb) fail(`the ground truth of sample ${i}`);
        }
      }
      return;
    }
  }
}

/** The per-class metric a classification comparison metric stands for. */
const PER_CLASS_METRIC: Readonly<Record<string, string>> = {
  macro_precision: 'precision',
  macro_recall: 'recall',
  macro_f1_score: 'f1_score',
  equal_error_rate: 'equal_error_rate',
};

function statistic(report: PerformanceReport, id: string): number | null {
  const s = report.statistics.find((x) => x.metric_name === id);
  return s ? s.values[0]!.value : null;
}

function tableValues(report: PerformanceReport, id: string): EntityValues[] {
  return report.overall.splits[0]!.rows.map((row) => ({
    key: row.key,
    value: row.values[id] ?? NaN,
  }));
}

/**
 * Per class EER one-vs-rest over the samples with ground truth and a prediction (as the
 * report's EER of two classes); NaN for a class without positives or negatives, or without
 * any score.
 */
function perClassEer(data: ClassEvalData, rows: Uint32Array): EntityValues[] {
  const samples = predictedSamples(data, rows);
  const scored = hasScores(data);
  return data.classes.map((key, k) => {
    const { isPositive, scores, positives } = oneVsRest(data, samples, k);
    const defined = scored && positives > 0 && positives < samples.length;
    return { key, value: defined ? equalErrorRate(isPositive, scores).eer : NaN };
  });
}

/** Per word: (substitutions + deletions) / occurrences, the words of the references. */
function wordErrorRates(report: PerformanceReport): EntityValues[] {
  return report.overall.splits[0]!.rows.filter((row) => (row.values.count ?? 0) > 0).map((row) => ({
    key: row.key,
    value:
      ((row.values.word_substitution ?? 0) + (row.values.word_deletion ?? 0)) / row.values.count!,
  }));
}

function ruleOf(task: TaskType, metric: string): EntityRule {
  const direction = getMetric(metric)?.desiredDirection === 'lower' ? 'lower' : 'higher';
  const threeSegments = task === 'regression' || task === 'automatic_speech_recognition';
  return { direction, worst: threeSegments ? null : direction === 'higher' ? 0 : 1 };
}

function valueIndex(data: ValueEvalData, valueName: string | null | undefined): number {
  if (valueName === null || valueName === undefined) return -1;
  const v = data.valueNames.indexOf(valueName);
  if (v < 0) {
    throw new RangeError(
      `regression value name "${valueName}" is not one of ${data.valueNames.join(', ')}`,
    );
  }
  return v;
}

/**
 * Compares model A with model B on the samples `rows` (one split). Both evaluation data must
 * hold the same samples and ground truth; `options.metric` is one of COMPARISON_METRICS[task].
 */
export function compareModels(
  task: TaskType,
  dataA: EvalData,
  dataB: EvalData,
  rows: Uint32Array,
  options: CompareOptions,
): ModelComparison {
  const metrics = COMPARISON_METRICS[task];
  if (!metrics) throw new RangeError(`unknown task type "${String(task)}"`);
  const metric = options.metric;
  if (!metrics.includes(metric)) {
    throw new RangeError(
      `metric "${metric}" is not a comparison metric of ${task} (${metrics.join(', ')})`,
    );
  }
  checkSameGroundTruth(dataA, dataB);
  const split = [{ split_name: 'compared', rows }];
  const reportOptions = { iouThreshold: options.iouThreshold };
  const reportA = performanceReport(task, dataA, split, reportOptions);
  const reportB = performanceReport(task, dataB, split, reportOptions);

  let v = -1;
  let overallOf = (report: PerformanceReport, id: string) => statistic(report, id);
  if (task === 'regression') {
    v = valueIndex(dataA as ValueEvalData, options.valueName);
    const name = (dataA as ValueEvalData).valueNames[v];
    if (name !== undefined) {
      overallOf = (report, id) =>
        report.overall.splits[0]!.rows.find((row) => row.key === name)!.values[id] ?? null;
    }
  }
  const overall: Record<string, MetricDelta> = {};
  for (const id of metrics) {
    overall[id] = metricDelta(id, overallOf(reportA, id), overallOf(reportB, id));
  }
  const others = metrics.filter((id) => id !== metric);

  const rule = ruleOf(task, metric);
  let perClass: EntityBreakdown | null = null;
  let perClassUnavailable = false;
  let perWord: EntityBreakdown | null = null;
  const items: ComparisonItems = { per_sample: null, per_object_gt: null, per_object_pred: null };
  switch (task) {
    case 'classification':
    case 'audio_classification': {
      const a = dataA as ClassEvalData;
      const b = dataB as ClassEvalData;
      if (metric === 'accuracy') perClassUnavailable = true;
      else if (metric === 'equal_error_rate') {
        perClass = entityBreakdown(
          'class',
          metric,
          rule,
          perClassEer(a, rows),
          perClassEer(b, rows),
        );
      } else {
        const id = PER_CLASS_METRIC[metric]!;
        perClass = entityBreakdown(
          'class',
          id,
          rule,
          tableValues(reportA, id),
          tableValues(reportB, id),
        );
      }
      items.per_sample = classificationItems(a, b, rows);
      break;
    }
    case 'regression':
      items.per_sample = regressionItems(dataA as ValueEvalData, dataB as ValueEvalData, rows, v);
      break;
    case 'object_detection':
    case 'instance_segmentation': {
      perClass = entityBreakdown(
        'class',
        metric,
        rule,
        tableValues(reportA, metric),
        tableValues(reportB, metric),
      );
      const objects = objectItems(
        dataA as ObjectEvalData,
        dataB as ObjectEvalData,
        rows,
        options.iouThreshold,
      );
      items.per_object_gt = objects.gt;
      items.per_object_pred = objects.pred;
      break;
    }
    case 'semantic_segmentation':
      perClass = entityBreakdown(
        'class',
        metric,
        rule,
        tableValues(reportA, metric),
        tableValues(reportB, metric),
      );
      items.per_sample = maskItems(dataA as MaskEvalData, dataB as MaskEvalData, rows);
      break;
    case 'automatic_speech_recognition':
      perWord = entityBreakdown(
        'word',
        'word_error_rate',
        rule,
        wordErrorRates(reportA),
        wordErrorRates(reportB),
      );
      items.per_sample = transcriptItems(
        dataA as TranscriptEvalData,
        dataB as TranscriptEvalData,
        rows,
        metric === 'match_error_rate' ? 'mer' : 'wer',
      );
      break;
  }

  const perSample = items.per_sample
    ? sectionResult(items.per_sample, sampleDistribution(task, metric))
    : null;
  const result: ComparisonResult = {
    task,
    metric,
    regression_value_name:
      task === 'regression' && v >= 0 ? (dataA as ValueEvalData).valueNames[v]! : null,
    iou_threshold: items.per_object_gt ? options.iouThreshold : null,
    overall,
    other_metrics:
      others.length === 0 ? null : Object.fromEntries(others.map((id) => [id, overall[id]!])),
    per_class: perClass,
    per_class_unavailable: perClassUnavailable,
    per_word: perWord,
    per_sample: perSample,
    per_object_gt: items.per_object_gt
      ? sectionResult(
          items.per_object_gt,
          { type: 'iou', y_label: 'Ground-truth objects' },
          GROUND_TRUTH_SUBCATEGORIES,
        )
      : null,
    per_object_pred: items.per_object_pred
      ? sectionResult(
          items.per_object_pred,
          { type: 'confidence', y_label: 'Predicted objects' },
          PREDICTION_SUBCATEGORIES,
        )
      : null,
  };
  return { result, items };
}

function sampleDistribution(task: TaskType, metric: string) {
  switch (task) {
    case 'regression':
      return { type: 'error', y_label: 'Samples' } as const;
    case 'semantic_segmentation':
      return { type: 'iou', y_label: 'Ground-truth masks' } as const;
    case 'automatic_speech_recognition':
      return {
        type: metric === 'match_error_rate' ? 'match_error_rate' : 'word_error_rate',
        y_label: 'Utterances',
      } as const;
    default:
      return {
        type: 'confidence',
        y_label: 'Samples',
        x_label: 'Confidence in the ground-truth class, Model B − Model A',
      } as const;
  }
}

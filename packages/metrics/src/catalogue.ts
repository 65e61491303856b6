// The metrics catalogue (docs/product.md, Datasets §3) shared by the server and the web app, the metrics
// each task compares (docs/product.md, Models §9), and the formatting rules of docs/product.md, Datasets §9 and docs/product.md, Models §9.

export type MetricType = 'percentage' | 'float' | 'int';
export type DesiredDirection = 'higher' | 'lower' | 'neutral';

export interface MetricDefinition {
  id: string;
  title: string;
  type: MetricType;
  desiredDirection: DesiredDirection;
}

export type TaskType =
  | 'classification'
  | 'audio_classification'
  | 'regression'
  | 'object_detection'
  | 'instance_segmentation'
  | 'semantic_segmentation'
  | 'automatic_speech_recognition';

const m = (
  id: string,
  title: string,
  type: MetricType,
  desiredDirection: DesiredDirection,
): MetricDefinition => ({ id, title, type, desiredDirection });

/**
 * Every metric the product shows. Ids docs/product.md, Models names (accuracy, precision, recall,
 * f1_score, tp, tn, fp, fn, mAP_COCO, IoU, equal_error_rate, area_under_roc) are kept verbatim;
 * the others follow the same snake_case style.
 */
export const METRICS: readonly MetricDefinition[] = [
  m('equal_error_rate', 'EER', 'percentage', 'lower'),
  m('word_error_rate', 'WER', 'percentage', 'lower'),
  m('items', 'Items', 'int', 'neutral'),
  m('ground_truth_objects', 'Ground-truth objects', 'int', 'neutral'),
  m('predicted_objects', 'Predicted objects', 'int', 'neutral'),
  m('accuracy', 'Accuracy', 'percentage', 'higher'),
  m('precision', 'Precision', 'percentage', 'higher'),
  m('recall', 'Recall', 'percentage', 'higher'),
  m('f1_score', 'F1', 'percentage', 'higher'),
  m('macro_precision', 'Macro precision', 'percentage', 'higher'),
  m('macro_recall', 'Macro recall', 'percentage', 'higher'),
  m('macro_f1_score', 'Macro F1', 'percentage', 'higher'),
  m('tp', 'TP', 'int', 'higher'),
  m('fp', 'FP', 'int', 'lower'),
  m('fn', 'FN', 'int', 'lower'),
  m('tn', 'TN', 'int', 'higher'),
  m('mAP_COCO', 'mAP', 'percentage', 'higher'),
  m('binary_cross_entropy', 'Binary cross-entropy', 'float', 'lower'),
  m('area_under_roc', 'Area under ROC', 'percentage', 'higher'),
  m('average_precision', 'Average precision', 'percentage', 'higher'),
  m('specificity', 'Specificity', 'percentage', 'higher'),
  m('sensitivity', 'Sensitivity', 'percentage', 'higher'),
  m('false_discovery_rate', 'False discovery rate', 'percentage', 'lower'),
  m('false_negative_rate', 'False negative rate', 'percentage', 'lower'),
  m('IoU', 'IoU', 'percentage', 'higher'),
  m('mean_IoU', 'Mean IoU', 'percentage', 'higher'),
  m('IoU_50', 'IoU at 0.5', 'percentage', 'higher'),
  m('mean_squared_error', 'Mean squared error', 'float', 'lower'),
  m('mean_absolute_error', 'Mean absolute error', 'float', 'lower'),
  m('word_information_lost', 'Word information lost', 'percentage', 'lower'),
  m('match_error_rate', 'Match error rate', 'percentage', 'lower'),
  m('word_insertion', 'Word insertion', 'int', 'lower'),
  m('word_deletion', 'Word deletion', 'int', 'lower'),
  m('word_substitution', 'Word substitution', 'int', 'lower'),
  m('frequency', 'Frequency', 'percentage', 'neutral'),
  m('count', 'Count', 'int', 'neutral'),
];

const BY_ID = new Map(METRICS.map((metric) => [metric.id, metric]));

/** The catalogue entry of a metric id, or undefined. */
export function getMetric(id: string): MetricDefinition | undefined {
  return BY_ID.get(id);
}

/**
 * Titles a task gives a metric in place of the catalogue's, where the generic one says too little:
 * classification's `count` is the number of ground-truth annotations, speech recognition's the
 * number of times a word occurs in the references. The Python SDK mirrors this table and a test
 * there reads it from this file, so keep one `task: { metric_id: 'Title' },` per line.
 */
export const METRIC_TITLE_OVERRIDES: Readonly<
  Partial<Record<TaskType, Readonly<Record<string, string>>>>
> = {
  classification: { count: 'Ground-truth annotations' },
  audio_classification: { count: 'Ground-truth annotations' },
  automatic_speech_recognition: { count: 'Word count' },
};

/** A metric's title in a task: the task's override, else the catalogue's, else the id itself. */
export function metricTitle(task: TaskType, metricId: string): string {
  return METRIC_TITLE_OVERRIDES[task]?.[metricId] ?? getMetric(metricId)?.title ?? metricId;
}

/** Comparison metrics per task (docs/product.md, Models §9), in display order. */
export const COMPARISON_METRICS: Readonly<Record<TaskType, readonly string[]>> = {
  classification: ['accuracy', 'macro_precision', 'macro_recall', 'macro_f1_score'],
  audio_classification: [
    'accuracy',
    'macro_precision',
    'macro_recall',
    'macro_f1_score',
    'equal_error_rate',
  ],
  regression: ['mean_absolute_error', 'mean_squared_error'],
  object_detection: ['mAP_COCO', 'precision', 'recall', 'f1_score'],
  instance_segmentation: ['mAP_COCO', 'precision', 'recall', 'f1_score'],
  semantic_segmentation: ['IoU'],
  automatic_speech_recognition: ['word_error_rate', 'match_error_rate'],
};

/** Metric ids shown by default, and those a user can add, in a table of the performance page. */
export interface VisibleMetrics {
  visible: readonly string[];
  hidden: readonly string[];
}

/**
 * The performance page's metrics per task (docs/model-performance.md): the Statistics section, the
 * Overall Performance table (one row per class, word or value name) and the metrics a metadata
 * bin, a subset or a selection can show. The ground-truth count is `count` (annotations) for
 * classification and `ground_truth_objects` for object tasks.
 */
export interface TaskPerformanceMetrics {
  primaryKey: 'class' | 'word' | 'value_name';
  statistics: VisibleMetrics;
  overall: VisibleMetrics;
  /** Metrics of a slice (metadata bin, subset, selection); the first is the default. */
  slice: readonly string[];
}

const CLASSIFICATION_OVERALL: VisibleMetrics = {
  visible: ['f1_score', 'count'],
  hidden: ['precision', 'recall'],
};
const CLASSIFICATION_SLICE = ['accuracy', 'macro_precision', 'macro_recall', 'macro_f1_score'];
const DETECTION_SLICE = ['precision', 'recall', 'f1_score', 'tp', 'fp', 'fn'];
const REGRESSION: VisibleMetrics = {
  visible: ['mean_squared_error', 'mean_absolute_error'],
  hidden: [],
};
const SEGMENTATION: VisibleMetrics = {
  visible: ['precision', 'recall', 'f1_score', 'IoU'],
  hidden: [],
};

export const PERFORMANCE_METRICS: Readonly<Record<TaskType, TaskPerformanceMetrics>> = {
  classification: {
    primaryKey: 'class',
    statistics: {
      visible: ['accuracy', 'macro_f1_score', 'count'],
      hidden: ['macro_precision', 'macro_recall', 'equal_error_rate'],
    },
    overall: CLASSIFICATION_OVERALL,
    slice: CLASSIFICATION_SLICE,
  },
  audio_classification: {
    primaryKey: 'class',
    statistics: {
      visible: ['accuracy', 'macro_f1_score', 'count', 'equal_error_rate'],
      hidden: ['macro_precision', 'macro_recall'],
    },
    overall: CLASSIFICATION_OVERALL,
    slice: CLASSIFICATION_SLICE,
  },
  regression: {
    primaryKey: 'value_name',
    statistics: REGRESSION,
    overall: REGRESSION,
    slice: ['mean_absolute_error', 'mean_squared_error'],
  },
  object_detection: {
    primaryKey: 'class',
    statistics: {
      visible: ['mAP_COCO', 'precision', 'recall', 'ground_truth_objects'],
      hidden: ['f1_score', 'tp', 'fp', 'fn'],
    },
    overall: {
      visible: ['mAP_COCO', 'precision', 'recall', 'ground_truth_objects'],
      hidden: ['f1_score', 'tp', 'fp', 'fn'],
    },
    slice: DETECTION_SLICE,
  },
  instance_segmentation: {
    primaryKey: 'class',
    statistics: {
      visible: ['mAP_COCO', 'precision', 'recall'],
      hidden: ['ground_truth_objects', 'f1_score', 'tp', 'fp', 'fn'],
    },
    overall: {
      visible: ['mAP_COCO', 'precision', 'recall'],
      hidden: ['ground_truth_objects', 'f1_score', 'tp', 'fp', 'fn'],
    },
    slice: DETECTION_SLICE,
  },
  semantic_segmentation: {
    primaryKey: 'class',
    statistics: SEGMENTATION,
    overall: SEGMENTATION,
    slice: ['IoU', 'precision', 'recall', 'f1_score'],
  },
  automatic_speech_recognition: {
    primaryKey: 'word',
    statistics: {
      visible: ['word_error_rate', 'match_error_rate', 'word_information_lost'],
      hidden: [],
    },
    overall: {
      visible: ['count', 'word_insertion', 'word_deletion', 'word_substitution'],
      hidden: [],
    },
    slice: ['word_error_rate', 'match_error_rate', 'word_information_lost'],
  },
};

/** Local-storage key of a table's chosen metrics: dataset-{task}-model-{kind}. */
export function visibleMetricsKey(task: TaskType, kind: 'statistics' | 'overall'): string {
  return `dataset-${task}-model-${kind}`;
}

/** IoU threshold the metadata performance metrics use (docs/product.md, Models §9). */
export const METADATA_PERFORMANCE_IOU = 0.5;

/** IoU threshold slider bounds (docs/product.md, Datasets §9). */
export const IOU_THRESHOLD = { min: 0, max: 1, step: 0.1 } as const;

/**
 * Which model is better (docs/product.md, Models §4): with 'higher', B wins if its score is greater; with
 * 'lower', B wins if its score is smaller; otherwise A wins.
 */
export function betterModel(
  direction: DesiredDirection,
  modelA: number,
  modelB: number,
): 'model_a_is_better' | 'model_b_is_better' {
  if (direction === 'higher' && modelB > modelA) return 'model_b_is_better';
  if (direction === 'lower' && modelB < modelA) return 'model_b_is_better';
  return 'model_a_is_better';
}

/** Relative delta of B against A, as a percentage (NaN when A is 0). */
export function relativeDelta(modelA: number, modelB: number): number {
  return modelA === 0 ? NaN : ((modelB - modelA) / Math.abs(modelA)) * 100;
}

/** Score scaling (docs/product.md, Models §9): 100, except accuracy and equal_error_rate. */
export function scoreScale(metricId: string): number {
  return metricId === 'accuracy' || metricId === 'equal_error_rate' ? 1 : 100;
}

/** Up to `decimals` decimals, trailing zeros dropped. */
function upTo(value: number, decimals: number): string {
  const fixed = value.toFixed(decimals);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/**
 * Absolute metric value (docs/product.md, Datasets §9): magnitudes below 0.001 show '<0.001' (0 shows '0'),
 * otherwise up to 3 decimals, and 1 decimal above 1000.
 */
export function formatMetricValue(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (value === 0) return '0';
  if (Math.abs(value) < 0.001) return value < 0 ? '>-0.001' : '<0.001';
  if (Math.abs(value) > 1000) return value.toFixed(1);
  return upTo(value, 3);
}

/** Relative value in percent (docs/product.md, Datasets §9): below 0.1 shows '<0.1%', else 1 decimal. */
export function formatRelativeValue(percent: number): string {
  if (!Number.isFinite(percent)) return '–';
  if (Math.abs(percent) < 0.1) return '<0.1%';
  return `${percent.toFixed(1)}%`;
}

/** Arrow of a change (docs/product.md, Datasets §9): ↓ a drop, ↑ an increase, nothing when unchanged. */
export function deltaArrow(delta: number): '↓' | '↑' | '' {
  return delta < 0 ? '↓' : delta > 0 ? '↑' : '';
}

/** A fraction as a percentage with 2 decimals (docs/product.md, Models §9). */
export function formatPercentage(fraction: number): string {
  if (!Number.isFinite(fraction)) return '–';
  return `${(fraction * 100).toFixed(2)}%`;
}

/**
 * Number formatter of the model pages (docs/product.md, Models §9): scientific notation for magnitudes
 * strictly between 0 and 0.0001, and text longer than 6 characters truncated to 6 plus '...'.
 */
export function formatModelNumber(value: number): string {
  if (!Number.isFinite(value)) return '–';
  const magnitude = Math.abs(value);
  const text = magnitude > 0 && magnitude < 0.0001 ? value.toExponential() : String(value);
  return text.length > 6 ? `${text.slice(0, 6)}...` : text;
}

/** A metric value formatted by its catalogue type: percentages with 2 decimals, ints whole. */
export function formatByType(metricId: string, value: number): string {
  const metric = getMetric(metricId);
  if (!metric) return formatMetricValue(value);
  if (metric.type === 'percentage') return formatPercentage(value);
  if (metric.type === 'int') return Number.isFinite(value) ? String(Math.round(value)) : '–';
  return formatMetricValue(value);
}

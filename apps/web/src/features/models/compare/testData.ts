// Fixtures of the comparison page's tests: a dataset with three models behind the fake API, and
// comparison responses of a classification, a detection and a regression comparison, built as
// the server answers them (explore configs with the comparison context).
import {
  GROUND_TRUTH_SUBCATEGORIES,
  OBJECT_SUBCATEGORY_CATEGORY,
  PREDICTION_SUBCATEGORIES,
  type CategoryCount,
  type ComparisonContext,
  type ComparisonDistribution,
  type ComparisonExploreConfig,
  type ComparisonResponse,
  type ComparisonSection,
  type ComparisonUnit,
  type Dataset,
  type EntityDelta,
  type Filter,
  type ObjectSubcategory,
  type PredictionSet,
  type SubcategoryResult,
  type Subset,
  type SubsetComparisonEntry,
  type SubsetsComparisonResponse,
  type TaskType,
} from '@loupe/contracts';
import { adminUser, appState, fakeServer, type Handler } from '../../../test/fakeServer';
import { datasetFixture } from '../../../test/fixtures';

export const DATASET_ID = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
export const MODEL_A = '8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d1e';
export const MODEL_B = '9c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f';
export const MODEL_C = '0d1e2f3a-4b5c-4d6e-9f7a-8b9c0d1e2f3a';
export const base = `/api/datasets/${DATASET_ID}`;
export const comparePage = (b?: string) =>
  `/models/datasets/${DATASET_ID}/predictions/${MODEL_A}/compare${b ? `/${b}` : ''}`;

export function dataset(task: TaskType = 'classification', change: Partial<Dataset> = {}): Dataset {
  return datasetFixture({
    id: DATASET_ID,
    task_type: task,
    predictions_count: 3,
    ...(task === 'regression' ? { regression_value_names: ['age', 'height'] } : {}),
    ...change,
  });
}

function model(id: string, name: string, task: TaskType): PredictionSet {
  return {
    id,
    name,
    num_present: 100,
    num_missing: 0,
    added_at: Date.UTC(2026, 0, 5),
    dataset: { id: DATASET_ID, name: 'pets', task_type: task },
  };
}

export const models = (task: TaskType = 'classification') => [
  model(MODEL_A, 'resnet-50', task),
  model(MODEL_B, 'ViT-Base', task),
  model(MODEL_C, 'efficientnet', task),
];

export const context = (change: Partial<ComparisonContext> = {}): ComparisonContext => ({
  predictions_id_a: MODEL_A,
  predictions_id_b: MODEL_B,
  split: 'all',
  metric: 'macro_f1_score',
  regression_value_name: null,
  ...change,
});

export function exploreConfig(
  filter: Filter | null,
  change: Partial<ComparisonExploreConfig> = {},
): ComparisonExploreConfig {
  return {
    data_level: 'image',
    filter,
    sort_by: 'comparison.delta',
    visible_metadata_ids: ['comparison.category', 'comparison.delta'],
    bin_metadata_id: null,
    context: context(),
    ...change,
  };
}

const categoryFilter = (field: string, value: string): Filter => ({
  type: 'string',
  metadata_id: field,
  op: 'in',
  value: [value],
});

/** 21 bins over [−1, 1]; `values` fills them from the left. */
export function distribution(
  type: ComparisonDistribution['type'],
  values: number[],
  config: ComparisonExploreConfig | null,
): ComparisonDistribution {
  const width = 2 / 21;
  return {
    type,
    bins: Array.from({ length: 21 }, (_, index) => ({
      start: -1 + index * width,
      end: -1 + (index + 1) * width,
      value: values[index] ?? 0,
    })),
    x_label: 'Difference of confidence (B − A)',
    y_label: 'Items',
    mean: 0.125,
    std: 0.25,
    explore_config: config && { ...config, filter: null, bin_metadata_id: 'comparison.bin' },
  };
}

function count(num: number, total: number, config: ComparisonExploreConfig): CategoryCount {
  return {
    num_items: num,
    fraction_of_total_items: total > 0 ? num / total : 0,
    explore_config: num > 0 ? config : null,
  };
}

/** A section with the given counts per category (and subcategories for object sections). */
export function section(
  unit: ComparisonUnit,
  counts: { a: number; problematic: number; neutral: number; b: number },
  {
    level = 'image',
    subcategories = {},
    objectType,
  }: {
    level?: ComparisonExploreConfig['data_level'];
    subcategories?: Partial<Record<ObjectSubcategory, number>>;
    objectType?: 'gt' | 'pred';
  } = {},
): ComparisonSection {
  const total = counts.a + counts.problematic + counts.neutral + counts.b;
  const field =
    unit === 'sample' || unit === 'mask' ? 'comparison.category' : 'comparison.category';
  const scoped = (filter: Filter): Filter =>
    objectType
      ? {
          type: 'and',
          children: [
            { type: 'string', metadata_id: 'object.type', op: 'in', value: [objectType] },
            filter,
          ],
        }
      : filter;
  const config = (category: string) =>
    exploreConfig(scoped(categoryFilter(field, category)), { data_level: level });
  const subcategoryConfig = (subcategory: string) =>
    exploreConfig(scoped(categoryFilter('comparison.subcategory', subcategory)), {
      data_level: level,
      visible_metadata_ids: ['comparison.subcategory', 'comparison.delta'],
    });
  const results: Partial<Record<ObjectSubcategory, SubcategoryResult>> = {};
  for (const [id, num] of Object.entries(subcategories) as [ObjectSubcategory, number][]) {
    results[id] = {
      ...count(num, total, subcategoryConfig(id)),
      category: OBJECT_SUBCATEGORY_CATEGORY[id],
      distribution: distribution('confidence', [num], subcategoryConfig(id)),
    };
  }
  return {
    unit,
    num_items: total,
    model_a_is_better: count(counts.a, total, config('model_a_is_better')),
    both_are_problematic: count(counts.problematic, total, config('both_are_problematic')),
    both_are_neutral: count(counts.neutral, total, config('both_are_neutral')),
    model_b_is_better: count(counts.b, total, config('model_b_is_better')),
    subcategories: results,
    distribution: distribution(
      unit === 'sample' ? 'confidence' : 'iou',
      [0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 5, 0, 0, 4, 0],
      exploreConfig(null, { data_level: level }),
    ),
  };
}

/** A class entity, its explore link filtering on the label or either prediction. */
export function entity(name: string, a: number, b: number): EntityDelta {
  return {
    entity: name,
    model_a: a,
    model_b: b,
    raw_delta: b - a,
    explore_config: exploreConfig({
      type: 'or',
      children: [categoryFilter('label', name), categoryFilter('prediction.label', name)],
    }),
  };
}

const metricDelta = (a: number, b: number, direction: 'higher' | 'lower' = 'higher') => ({
  model_a: a,
  model_b: b,
  raw_delta: b - a,
  relative_delta: ((b - a) / Math.abs(a)) * 100,
  better: (direction === 'higher' ? b > a : b < a)
    ? ('model_b_is_better' as const)
    : ('model_a_is_better' as const),
});

const ready = {
  status: 'ready' as const,
  progress: 1,
  data_version: 1,
  predictions_id_a: MODEL_A,
  predictions_id_b: MODEL_B,
  split: 'all',
};

/**
 * Classification on macro F1: B is better overall (0.80 → 0.84, +5%); per class, A is better on
 * 2 classes, both incorrect on 1, both correct on 1 and B better on 7 (listed unsorted, so the
 * page's order is checked); per sample 10 / 5 / 60 / 25.
 */
export function classificationComparison(
  change: Partial<ComparisonResponse> = {},
): ComparisonResponse {
  return {
    ...ready,
    task: 'classification',
    metric: 'macro_f1_score',
    regression_value_name: null,
    iou_threshold: null,
    overall: {
      accuracy: metricDelta(0.9, 0.85),
      macro_precision: metricDelta(0.7, 0.77),
      macro_recall: metricDelta(0.75, 0.75),
      macro_f1_score: metricDelta(0.8, 0.84),
    },
    other_metrics: {
      accuracy: metricDelta(0.9, 0.85),
      macro_precision: metricDelta(0.7, 0.77),
      macro_recall: metricDelta(0.75, 0.75),
    },
    per_class: {
      entity: 'class',
      metric: 'f1_score',
      num_entities: 11,
      model_a_is_better: [entity('cat', 0.9, 0.5), entity('dog', 0.8, 0.7)],
      both_are_problematic: [entity('ferret', 0, 0)],
      both_are_neutral: [entity('hamster', 1, 1)],
      model_b_is_better: [
        entity('bird', 0.5, 0.55),
        entity('fish', 0.2, 0.8),
        entity('horse', 0.4, 0.6),
        entity('lizard', 0.1, 0.2),
        entity('mouse', 0.3, 0.65),
        entity('rabbit', 0.6, 0.61),
        entity('snake', 0.5, 0.75),
      ],
    },
    per_class_unavailable: false,
    per_word: null,
    per_sample: section('sample', { a: 10, problematic: 5, neutral: 60, b: 25 }),
    per_object_gt: null,
    per_object_pred: null,
    ...change,
  };
}

/** The same comparison on Accuracy: no per-class breakdown. */
export function accuracyComparison(): ComparisonResponse {
  const response = classificationComparison({
    metric: 'accuracy',
    per_class: null,
    per_class_unavailable: true,
  });
  return { ...response, other_metrics: { macro_f1_score: metricDelta(0.8, 0.84) } };
}

/** Detection on mAP: A is better overall; ground-truth and predicted objects with subcategories. */
export function detectionComparison(): ComparisonResponse {
  const objects = (ids: readonly ObjectSubcategory[], counts: number[]) =>
    Object.fromEntries(ids.map((id, index) => [id, counts[index] ?? 0]));
  const gt = objects(GROUND_TRUTH_SUBCATEGORIES, [12, 8, 5, 75]);
  // tp_a_tp_b, tp_a_fp_b, fp_a_tp_b, fp_a_fp_b, tp_a_unmatched_b, unmatched_a_tp_b,
  // unmatched_a_fp_b, fp_a_unmatched_b
  const pred = objects(PREDICTION_SUBCATEGORIES, [70, 4, 3, 6, 9, 5, 7, 2]);
  const sum = (ids: ObjectSubcategory[], counts: Record<string, number>) =>
    ids.reduce((total, id) => total + (counts[id] ?? 0), 0);
  return {
    ...ready,
    task: 'object_detection',
    metric: 'mAP_COCO',
    regression_value_name: null,
    iou_threshold: 0.5,
    overall: {
      mAP_COCO: metricDelta(0.5, 0.45),
      precision: metricDelta(0.6, 0.62),
      recall: metricDelta(0.7, 0.66),
      f1_score: metricDelta(0.65, 0.64),
    },
    other_metrics: {
      precision: metricDelta(0.6, 0.62),
      recall: metricDelta(0.7, 0.66),
      f1_score: metricDelta(0.65, 0.64),
    },
    per_class: {
      entity: 'class',
      metric: 'mAP_COCO',
      num_entities: 2,
      model_a_is_better: [
        {
          ...entity('car', 0.6, 0.5),
          explore_config: exploreConfig(categoryFilter('object.label', 'car'), {
            data_level: 'image_object',
          }),
        },
      ],
      both_are_problematic: [],
      both_are_neutral: [],
      model_b_is_better: [
        {
          ...entity('person', 0.4, 0.45),
          explore_config: exploreConfig(categoryFilter('object.label', 'person'), {
            data_level: 'image_object',
          }),
        },
      ],
    },
    per_class_unavailable: false,
    per_word: null,
    per_sample: null,
    per_object_gt: section(
      'ground_truth_object',
      { a: 12, problematic: 5, neutral: 75, b: 8 },
      { level: 'image_object', subcategories: gt, objectType: 'gt' },
    ),
    per_object_pred: section(
      'predicted_object',
      {
        a: sum(['tp_a_fp_b', 'tp_a_unmatched_b', 'unmatched_a_fp_b'], pred),
        problematic: sum(['fp_a_fp_b'], pred),
        neutral: sum(['tp_a_tp_b'], pred),
        b: sum(['fp_a_tp_b', 'unmatched_a_tp_b', 'fp_a_unmatched_b'], pred),
      },
      { level: 'image_object', subcategories: pred, objectType: 'pred' },
    ),
  };
}

/** Regression on MAE: B has the lower error (0.5 → 0.4); per sample only, three segments. */
export function regressionComparison(change: Partial<ComparisonResponse> = {}): ComparisonResponse {
  return {
    ...ready,
    task: 'regression',
    metric: 'mean_absolute_error',
    regression_value_name: null,
    iou_threshold: null,
    overall: {
      mean_absolute_error: metricDelta(0.5, 0.4, 'lower'),
      mean_squared_error: metricDelta(0.3, 0.2, 'lower'),
    },
    other_metrics: { mean_squared_error: metricDelta(0.3, 0.2, 'lower') },
    per_class: null,
    per_class_unavailable: false,
    per_word: null,
    per_sample: section('sample', { a: 30, problematic: 0, neutral: 10, b: 60 }),
    per_object_gt: null,
    per_object_pred: null,
    ...change,
  };
}

/** What the server answers while the job runs: nothing but the progress. */
export function computingComparison(progress: number): ComparisonResponse {
  return {
    ...classificationComparison(),
    status: 'computing',
    progress,
    overall: {},
    other_metrics: null,
    per_class: null,
    per_sample: null,
  };
}

const DAY = 86_400_000;

export function subset(n: number, change: Partial<Subset> = {}): Subset {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    dataset_id: DATASET_ID,
    name: `subset ${n}`,
    description: '',
    data_level: 'image',
    num_items: 10 + n,
    enabled_for_performance: true,
    created: Date.UTC(2026, 0, 1) + n * DAY,
    updated: Date.UTC(2026, 0, 1) + n * DAY,
    ...change,
  };
}

/** Macro F1 of A and B on a subset: B better when b > a. */
export function subsetComparisonEntry(item: Subset, a = 0.5, b = 0.6): SubsetComparisonEntry {
  const delta = metricDelta(a, b);
  return {
    comparison_per_metric: {
      accuracy: {
        ...delta,
        category: a === b ? 'both_are_neutral' : delta.better,
      },
    },
    num_items_used: item.num_items,
    num_items_total: item.num_items,
    metric_name: 'accuracy',
    subset: item,
  };
}

export function subsetsComparison(
  entries: SubsetComparisonEntry[],
  pending: string[] = [],
): SubsetsComparisonResponse {
  return {
    comparison_per_subset: Object.fromEntries(entries.map((entry) => [entry.subset.id, entry])),
    pending_subsets: pending,
  };
}

export interface ComparisonServerOptions {
  task?: TaskType;
  licensed?: boolean;
  subsets?: Subset[];
  compare?: Handler;
  routes?: Record<string, Handler>;
}

/**
 * The fake API of a signed-in admin on the comparison page of model A: the dataset with three
 * models, the comparison (`compare` answers it; classification by default) and the subsets
 * comparison of the enabled subsets.
 */
export function comparisonServer({
  task = 'classification',
  licensed = true,
  subsets = [],
  compare = () => ({ body: classificationComparison() }),
  routes = {},
}: ComparisonServerOptions = {}) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: licensed
        ? { state: 'LICENSED', key: 'k', expiration_ts: 2e9 }
        : { state: 'EXPIRED', key: 'k', expiration_ts: 1 },
    }),
    'GET /api/datasets': () => ({ body: [dataset(task)] }),
    [`GET ${base}`]: () => ({ body: dataset(task) }),
    'GET /api/dataset/models': () => ({ body: models(task) }),
    [`GET ${base}/history`]: () => ({ body: [] }),
    [`POST ${base}/comparison`]: compare,
    [`GET ${base}/comparison/subsets`]: () => ({
      body: subsetsComparison(
        subsets
          .filter((item) => item.enabled_for_performance)
          .map((item) => subsetComparisonEntry(item)),
      ),
    }),
    [`GET ${base}/subsets`]: () => ({ body: subsets }),
    ...routes,
  });
}

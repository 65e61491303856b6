// A model with its performance behind the fake API, for this folder's tests: the dataset, the
// model, the statistics, overall and fine-grained reports, subsets with their performance, the
// metadata fields and metadata performance, each replaceable per test.
import type {
  Dataset,
  ExploreConfig,
  FinegrainedPerformanceResponse,
  MetadataFieldInfo,
  MetadataPerformanceResponse,
  OverallPerformanceResponse,
  PredictionSet,
  StatisticsResponse,
  Subset,
  SubsetPerformanceEntry,
  SubsetsPerformanceResponse,
  TaskType,
} from '@loupe/contracts';
import { adminUser, appState, fakeServer, type Handler } from '../../../test/fakeServer';
import { datasetFixture } from '../../../test/fixtures';

export const DATASET_ID = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
export const MODEL_ID = '6f7a8b9c-0d1e-4f2a-9b3c-4d5e6f7a8b9c';
export const base = `/api/datasets/${DATASET_ID}`;
export const perf = `${base}/predictions/${MODEL_ID}/performance`;
export const page = `/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/performance`;

export function dataset(change: Partial<Dataset> = {}): Dataset {
  return datasetFixture({ id: DATASET_ID, predictions_count: 3, ...change });
}

export function model(task: TaskType = 'classification'): PredictionSet {
  return {
    id: MODEL_ID,
    name: 'resnet-50',
    num_present: 100,
    num_missing: 0,
    added_at: Date.UTC(2026, 0, 5),
    dataset: { id: DATASET_ID, name: 'pets', task_type: task },
  };
}

const ready = { status: 'ready' as const, progress: 1, data_version: 1 };

/** Classification statistics in all, train and test. */
export function statistics(change: Partial<StatisticsResponse> = {}): StatisticsResponse {
  const values = (all: number, train: number, test: number) => [
    { split_name: 'all', value: all },
    { split_name: 'train', value: train },
    { split_name: 'test', value: test },
  ];
  return {
    ...ready,
    splits: ['all', 'train', 'test'],
    num_items: 100,
    num_missing: 0,
    statistics: [
      { metric_name: 'accuracy', values: values(0.9, 0.95, 0.8) },
      { metric_name: 'macro_f1_score', values: values(0.8765, 0.9, 0.7) },
      { metric_name: 'count', values: values(100, 70, 30) },
      { metric_name: 'macro_precision', values: values(0.81, 0.85, 0.72) },
      { metric_name: 'macro_recall', values: values(0.82, 0.86, 0.73) },
      { metric_name: 'equal_error_rate', values: values(0.1, 0.05, 0.2) },
    ],
    ...change,
  };
}

export const computingStatistics = (progress = 0.25): StatisticsResponse => ({
  status: 'computing',
  progress,
  data_version: 1,
  splits: [],
  num_items: 100,
  num_missing: 0,
  statistics: [],
});

/** Per class rows: 'all' has cat and dog, 'test' only cat. */
export function overall(
  change: Partial<OverallPerformanceResponse> = {},
): OverallPerformanceResponse {
  const row = (key: string, f1: number, count: number) => ({
    key,
    values: { f1_score: f1, count, precision: f1 + 0.01, recall: f1 - 0.01 },
  });
  return {
    ...ready,
    primary_key: 'class',
    metrics: ['f1_score', 'count', 'precision', 'recall'],
    splits: [
      { split_name: 'all', rows: [row('cat', 0.9, 60), row('dog', 0.7, 40)] },
      { split_name: 'train', rows: [row('cat', 0.95, 40), row('dog', 0.8, 30)] },
      { split_name: 'test', rows: [row('cat', 0.5, 20)] },
    ],
    ...change,
  };
}

export function finegrained(
  change: Partial<FinegrainedPerformanceResponse> = {},
): FinegrainedPerformanceResponse {
  const curve = (name: string, ap: number) => ({
    name,
    values: [
      [0, 1],
      [0.5, 0.8],
      [1, 0.4],
    ] as [number, number][],
    summary: { metric_name: 'precision', value: ap },
  });
  return {
    ...ready,
    kind: 'precision_recall',
    dimension_names: ['Recall', 'Precision'],
    split_performance: ['all', 'train', 'test'].map((split_name) => ({
      split_name,
      performance: [curve('cat', 0.9), curve('dog', 0.7)],
      average_performance: null,
    })),
    ...change,
  };
}

const DAY = 24 * 3600 * 1000;

export function subset(n: number, change: Partial<Subset> = {}): Subset {
  return {
    id: `2b000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name: `subset-${String(n).padStart(2, '0')}`,
    description: null,
    dataset_id: DATASET_ID,
    data_level: 'image',
    num_items: 10 + n,
    enabled_for_performance: true,
    created: Date.UTC(2026, 0, 1) + n * DAY,
    updated: Date.UTC(2026, 0, 1) + n * DAY,
    ...change,
  };
}

export function subsetEntry(item: Subset, accuracy = 0.5): SubsetPerformanceEntry {
  return {
    performance_per_metric: {
      accuracy,
      macro_precision: 0.4,
      macro_recall: 0.3,
      macro_f1_score: 0.35,
    },
    num_items_used: item.num_items,
    num_items_total: item.num_items,
    metric_name: 'accuracy',
    subset: item,
  };
}

export function subsetsPerformance(
  entries: SubsetPerformanceEntry[],
  pending: string[] = [],
): SubsetsPerformanceResponse {
  return {
    performance_per_subset: Object.fromEntries(entries.map((entry) => [entry.subset.id, entry])),
    pending_subsets: pending,
  };
}

export function field(id: string, change: Partial<MetadataFieldInfo> = {}): MetadataFieldInfo {
  return {
    id,
    name: id,
    label: id,
    description: '',
    group: 'Uploaded',
    source: 'uploaded',
    state: 'available',
    type: 'string',
    ...change,
  };
}

export function exploreConfig(category: string): ExploreConfig {
  return {
    data_level: 'image',
    filter: { type: 'string', metadata_id: 'weather', op: 'in', value: [category] },
    sort_by: null,
    visible_metadata_ids: ['weather'],
  };
}

/** Weather bins 'sunny' and 'rain' with accuracy and macro F1 in every split. */
export function metadataPerformance(): MetadataPerformanceResponse {
  const values = (category: string, value: number) =>
    ['all', 'train', 'test'].map((split_name) => ({
      split_name,
      value,
      count: split_name === 'all' ? 10 : 5,
      explore_config: exploreConfig(category),
    }));
  const bin = (category: string, accuracy: number) => ({
    bin: category,
    counts: [
      { split_name: 'all', count: 10 },
      { split_name: 'train', count: 5 },
      { split_name: 'test', count: 5 },
    ],
    metrics: [
      { metric_name: 'accuracy', values: values(category, accuracy) },
      { metric_name: 'macro_f1_score', values: values(category, accuracy - 0.1) },
    ],
  });
  return {
    metadata_type: 'categorical',
    metadata_id: 'weather',
    iou_threshold: null,
    splits: ['all', 'train', 'test'],
    performance_per_bin: [bin('sunny', 0.9), bin('rain', 0.6)],
  };
}

export interface PerformanceServerOptions {
  task?: TaskType;
  datasetChange?: Partial<Dataset>;
  licensed?: boolean;
  subsets?: Subset[];
  routes?: Record<string, Handler>;
}

/**
 * The fake API of a signed-in admin on this model's performance page; every performance route
 * answers a ready report unless `routes` replaces it. Subsets: the list, their performance (the
 * enabled ones) and the toggle, which changes the list.
 */
export function performanceServer({
  task = 'classification',
  datasetChange = {},
  licensed = true,
  subsets = [],
  routes = {},
}: PerformanceServerOptions = {}) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  const store = new Map(subsets.map((item) => [item.id, item]));
  const server = fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: licensed
        ? { state: 'LICENSED', key: 'k', expiration_ts: 2e9 }
        : { state: 'EXPIRED', key: 'k', expiration_ts: 1 },
    }),
    'GET /api/datasets': () => ({ body: [dataset({ task_type: task, ...datasetChange })] }),
    [`GET ${base}`]: () => ({ body: dataset({ task_type: task, ...datasetChange }) }),
    [`GET ${base}/iou_threshold`]: () => ({ body: { iou_threshold: 0.5 } }),
    'GET /api/dataset/models': () => ({ body: [model(task)] }),
    [`GET ${base}/history`]: () => ({ body: [] }),
    [`GET ${base}/color_map`]: () => ({ body: {} }),
    [`GET ${perf}/statistics`]: () => ({ body: statistics() }),
    [`GET ${perf}/overall`]: () => ({ body: overall() }),
    [`GET ${perf}/finegrained`]: () => ({ body: finegrained() }),
    [`GET ${perf}/subsets`]: () => ({
      body: subsetsPerformance(
        [...store.values()]
          .filter((item) => item.enabled_for_performance)
          .map((item) => subsetEntry(item)),
      ),
    }),
    [`GET ${base}/subsets`]: () => ({ body: [...store.values()] }),
    ...Object.fromEntries(
      subsets.map((item): [string, Handler] => [
        `PUT ${base}/subsets/${item.id}/performance`,
        (call) => {
          const found = store.get(item.id)!;
          const body = call.body as { request_type?: 'enable' | 'disable' };
          const next = body.request_type
            ? { ...found, enabled_for_performance: body.request_type === 'enable' }
            : found;
          store.set(item.id, next);
          return { body: next };
        },
      ]),
    ),
    [`GET ${base}/metadata_info`]: () => ({ body: { metadata_config: [field('weather')] } }),
    [`POST ${perf}/metadata`]: () => ({ body: metadataPerformance() }),
    ...routes,
  });
  return { ...server, store };
}

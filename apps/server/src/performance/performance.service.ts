// Model performance (docs/model-performance.md): a prediction set's statistics, per-entity table
// and curves, served from the results the performance jobs stored while they are current, else
// answered 'computing' while a job computes them; the performance of the subsets enabled for it;
// and the synchronous metadata performance (per bin of a field) and selection performance,
// measured on the explorer's item table and the set's evaluation data (on the performance
// thread, performance-pool.ts). Reading is open to every signed-in user; choosing a subset's
// performance display is a license-gated toggle.
import {
  ALL_SPLITS,
  MAX_SELECTION_PERFORMANCE_ITEMS,
  PERFORMANCE_MESSAGES,
  SUBSET_MESSAGES,
  TASK_TRAITS,
  type DataLevel,
  type ExploreComparison,
  type FinegrainedKind,
  type FinegrainedPerformanceResponse,
  type Filter,
  type ItemsSummaryResponse,
  type MetadataPerformanceBin,
  type MetadataPerformanceResponse,
  type OverallPerformanceResponse,
  type StatisticsResponse,
  type Subset,
  type SubsetPerformanceEntry,
  type SubsetsPerformanceResponse,
  type TaskType,
} from '@loupe/contracts';
import { bitsetToRows, hasRow, rowIndex } from '@loupe/analysis';
import { METADATA_PERFORMANCE_IOU, PERFORMANCE_METRICS } from '@loupe/metrics';
import { requireDataset } from '../datasets/datasets.service.js';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import type { ExploreService } from '../explore/explore.service.js';
import type { JobName } from '../jobs/job-types.js';
import { jobDedupeKey, type JobsService } from '../jobs/jobs.service.js';
import type { LicenseService } from '../license/license.service.js';
import { AppError, BadRequest, NotFound, PayloadTooLarge } from '../platform/errors.js';
import { WorkerTaskError } from '../platform/worker-thread.js';
import type { PredictionSetsRepository } from '../prediction-sets/prediction-sets.repository.js';
import { requirePredictionSet } from '../prediction-sets/prediction-sets.service.js';
import { toSubset } from '../subsets/subsets.service.js';
import type { SubsetRecord, SubsetsRepository } from '../subsets/subsets.repository.js';
import type { Actor } from '../users/actor.js';
import type { ComputeOutput, ComputeTask } from './compute.js';
import type { EvaluationCache } from './evaluation-cache.js';
import type { Evaluation } from './evaluation-loader.js';
import type { PerformancePool } from './performance-pool.js';
import {
  isCurrent,
  splitNames,
  subsetKind,
  type StoredFinegrained,
  type StoredReport,
  type StoredSubsetEntry,
} from './performance-results.js';
import type { PerformanceRepository } from './performance.repository.js';
import { rowMap, sliceOfRows } from './slices.js';

export interface PerformanceRepos {
  datasets: Pick<DatasetsRepository, 'find' | 'splits'>;
  predictionSets: Pick<PredictionSetsRepository, 'findSet'>;
  subsets: Pick<SubsetsRepository, 'list' | 'find' | 'liveCounts'>;
  performance: Pick<
    PerformanceRepository,
    'result' | 'subsetResults' | 'subsetMetrics' | 'setSubsetPerformance'
  >;
}

export interface MetadataPerformanceInput {
  data_level: DataLevel;
  metadata_id: string;
  metrics?: string[] | undefined;
  max_num_bins: number;
}

export interface ItemsSummaryInput {
  data_level: DataLevel;
  item_ids?: string[] | undefined;
  filter?: Filter | null | undefined;
  subset_id?: string | undefined;
  /** The explorer's comparison, whose per-item fields the filter may name. */
  comparison?: ExploreComparison | undefined;
}

/** Where a job-computed result stands. */
type Computed<T> =
  | { status: 'ready'; result: T; data_version: number }
  | { status: 'computing' | 'failed'; progress: number; error?: string; data_version: number };

const REPORT_JOBS = {
  report: 'PerformanceReportComputation',
  finegrained: 'FinegrainedPerformanceComputation',
} as const satisfies Record<string, JobName>;

/** The kind of curve a task's fine-grained section shows (its answer names it while computing). */
function finegrainedKind(task: TaskType, numClasses: number): FinegrainedKind {
  switch (task) {
    case 'classification':
      return numClasses === 2 ? 'roc' : 'precision_recall';
    case 'audio_classification':
      return 'roc';
    case 'regression':
      return 'error_distribution';
    case 'semantic_segmentation':
      return 'iou_distribution';
    case 'automatic_speech_recognition':
      return 'wer_distribution';
    default:
      return 'precision_recall';
  }
}

export class PerformanceService {
  constructor(
    private readonly repos: PerformanceRepos,
    private readonly evaluations: Pick<EvaluationCache, 'get'>,
    private readonly compute: Pick<PerformancePool, 'run'>,
    private readonly explore: Pick<ExploreService, 'view'>,
    private readonly jobs: Pick<JobsService, 'enqueue' | 'latest'>,
    private readonly license: Pick<LicenseService, 'requireLicense'>,
  ) {}

  /** The dataset and its prediction set, or 404. */
  private async target(datasetId: string, predictionSetId: string): Promise<DatasetRecord> {
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    await requirePredictionSet(this.repos.predictionSets, datasetId, predictionSetId);
    return dataset;
  }

  /**
   * A stored result when current; else where its job stands, enqueueing one when none is
   * waiting or running for the current data. A job that failed for this data stays failed until
   * the data changes (then a new job starts).
   */
  private async computed<T>(
    actor: Actor,
    dataset: DatasetRecord,
    predictionSetId: string,
    kind: keyof typeof REPORT_JOBS,
  ): Promise<Computed<T>> {
    const data_version = dataset.data_version;
    const stored = await this.repos.performance.result(predictionSetId, kind);
    if (isCurrent(stored, dataset)) {
      if (stored.status === 'ready')
        return { status: 'ready', result: stored.result as T, data_version };
      if (stored.status === 'failed')
        return { status: 'failed', progress: 0, error: stored.error ?? '', data_version };
    }
    const state = await this.jobState(actor, dataset, predictionSetId, REPORT_JOBS[kind]);
    return { ...state, data_version };
  }

  private async jobState(
    actor: Actor,
    dataset: DatasetRecord,
    predictionSetId: string,
    name: (typeof REPORT_JOBS)[keyof typeof REPORT_JOBS],
  ): Promise<{ status: 'computing' | 'failed'; progress: number; error?: string }> {
    const payload = {
      dataset_id: dataset.id,
      prediction_set_id: predictionSetId,
      data_version: dataset.data_version,
    };
    const job = await this.jobs.latest(jobDedupeKey(name, payload));
    if (job?.status === 'queued' || job?.status === 'running')
      return { status: 'computing', progress: job.progress ?? 0 };
    if (job?.status === 'failed')
      return { status: 'failed', progress: 0, error: job.error ?? PERFORMANCE_MESSAGES.failed };
    await this.jobs.enqueue(name, payload, actor);
    return { status: 'computing', progress: 0 };
  }

  async statistics(
    actor: Actor,
    datasetId: string,
    predictionSetId: string,
  ): Promise<StatisticsResponse> {
    const dataset = await this.target(datasetId, predictionSetId);
    const state = await this.computed<StoredReport>(actor, dataset, predictionSetId, 'report');
    if (state.status !== 'ready')
      return { ...state, splits: [], num_items: 0, num_missing: 0, statistics: [] };
    const { splits, num_items, num_missing, statistics } = state.result;
    return {
      status: 'ready',
      progress: 1,
      data_version: state.data_version,
      splits,
      num_items,
      num_missing,
      statistics,
    };
  }

  async overall(
    actor: Actor,
    datasetId: string,
    predictionSetId: string,
  ): Promise<OverallPerformanceResponse> {
    const dataset = await this.target(datasetId, predictionSetId);
    const state = await this.computed<StoredReport>(actor, dataset, predictionSetId, 'report');
    if (state.status !== 'ready')
      return {
        ...state,
        primary_key: PERFORMANCE_METRICS[dataset.task_type].primaryKey,
        metrics: [],
        splits: [],
      };
    return {
      status: 'ready',
      progress: 1,
      data_version: state.data_version,
      ...state.result.overall,
    };
  }

  async finegrained(
    actor: Actor,
    datasetId: string,
    predictionSetId: string,
  ): Promise<FinegrainedPerformanceResponse> {
    const dataset = await this.target(datasetId, predictionSetId);
    const state = await this.computed<StoredFinegrained>(
      actor,
      dataset,
      predictionSetId,
      'finegrained',
    );
    if (state.status !== 'ready')
      return {
        ...state,
        kind: finegrainedKind(dataset.task_type, dataset.class_names.length),
        dimension_names: ['', ''],
        split_performance: [],
      };
    return { status: 'ready', progress: 1, data_version: state.data_version, ...state.result };
  }

  /**
   * The entries of the enabled subsets that are current, in one split; the others are pending
   * while the report job computes them (enqueued here when none is waiting or running).
   */
  async subsets(
    actor: Actor,
    datasetId: string,
    predictionSetId: string,
    split: string,
  ): Promise<SubsetsPerformanceResponse> {
    const dataset = await this.target(datasetId, predictionSetId);
    if (split !== ALL_SPLITS && !(await this.repos.datasets.splits(datasetId)).includes(split))
      throw new BadRequest(`query.split: this dataset has no split '${split}'.`);
    const enabled = (await this.repos.subsets.list(datasetId)).filter(
      (s) => s.enabled_for_performance,
    );
    const [entries, metrics, counts] = await Promise.all([
      this.repos.performance.subsetResults(predictionSetId),
      this.repos.performance.subsetMetrics(datasetId),
      this.repos.subsets.liveCounts(
        datasetId,
        enabled.map((s) => ({ id: s.id, level: s.data_level })),
      ),
    ]);
    const byKind = new Map(entries.map((e) => [e.kind, e]));
    const performance_per_subset: Record<string, SubsetPerformanceEntry> = {};
    const pending: string[] = [];
    for (const subset of enabled) {
      const entry = byKind.get(subsetKind(subset.id));
      if (!isCurrent(entry, dataset, subset.updated_at) || entry.status !== 'ready') {
        pending.push(subset.id);
        continue;
      }
      const part = (entry.result as StoredSubsetEntry).splits.find((s) => s.split_name === split);
      if (!part) continue;
      performance_per_subset[subset.id] = {
        ...part,
        metric_name: metrics.get(subset.id) ?? defaultMetric(dataset.task_type),
        subset: toSubset(subset, counts.get(subset.id) ?? 0),
      };
    }
    if (pending.length > 0) {
      const state = await this.jobState(actor, dataset, predictionSetId, REPORT_JOBS.report);
      // A job that failed for this data leaves its subsets without an entry, not pending.
      if (state.status === 'failed') pending.length = 0;
    }
    return { performance_per_subset, pending_subsets: pending };
  }

  /** Shows or hides a subset's performance and chooses its metric (a performance toggle). */
  async toggleSubset(
    actor: Actor,
    datasetId: string,
    subsetId: string,
    input: { request_type?: 'enable' | 'disable' | undefined; metric_name?: string | undefined },
  ): Promise<Subset> {
    await this.license.requireLicense('change which subsets show performance', { actor });
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const subset = await this.repos.subsets.find(datasetId, subsetId);
    if (!subset) throw new NotFound(SUBSET_MESSAGES.notFound);
    const choices = PERFORMANCE_METRICS[dataset.task_type].slice;
    if (input.metric_name !== undefined && !choices.includes(input.metric_name))
      throw new BadRequest(
        `body.metric_name: '${input.metric_name}' is not a subset metric of a ${dataset.task_type} dataset (choose from ${choices.join(', ')}).`,
      );
    const enabled = input.request_type === undefined ? undefined : input.request_type === 'enable';
    await this.repos.performance.setSubsetPerformance(subset.id, {
      ...(enabled !== undefined ? { enabled } : {}),
      ...(input.metric_name !== undefined ? { metric: input.metric_name } : {}),
    });
    const counts = await this.repos.subsets.liveCounts(datasetId, [
      { id: subset.id, level: subset.data_level },
    ]);
    const changed: SubsetRecord = {
      ...subset,
      ...(enabled !== undefined ? { enabled_for_performance: enabled } : {}),
    };
    return toSubset(changed, counts.get(subset.id) ?? 0);
  }

  /** The metrics per bin of a metadata field and per split (object tasks at IoU 0.5). */
  async metadata(
    datasetId: string,
    predictionSetId: string,
    input: MetadataPerformanceInput,
  ): Promise<MetadataPerformanceResponse> {
    await this.target(datasetId, predictionSetId);
    // An unknown field, or one being recomputed, is refused as the explorer refuses it.
    const { dataset, explore } = await this.explore.view(
      datasetId,
      input.data_level,
      predictionSetId,
      null,
      undefined,
      [{ id: input.metadata_id, where: 'body.metadata_id' }],
    );
    const task = dataset.task_type;
    const metricIds = checkMetrics(task, input.metrics);
    const column = explore.table.columns.get(input.metadata_id)!;
    const evaluation = await this.evaluations.get(dataset, predictionSetId);
    const objects = TASK_TRAITS[task].hasObjects;
    const iou = objects ? METADATA_PERFORMANCE_IOU : dataset.iou_threshold;
    const splits = splitNames(evaluation);
    const binned = await this.measure(evaluation, {
      kind: 'metadata',
      level: input.data_level,
      map: await rowMap(evaluation, input.data_level, explore.table),
      column,
      metadataId: input.metadata_id,
      maxBins: input.max_num_bins,
      metrics: metricIds,
      iouThreshold: iou,
      splits,
    });
    const performance_per_bin = binned.bins.map((bin): MetadataPerformanceBin => {
      const filterOf = (split: string): Filter =>
        split === ALL_SPLITS
          ? bin.filter
          : {
              type: 'and',
              children: [
                bin.filter,
                { type: 'string', metadata_id: 'split', op: 'in', value: [split] },
              ],
            };
      return {
        bin: bin.bin,
        ...(bin.bin_start !== undefined ? { bin_start: bin.bin_start, bin_end: bin.bin_end } : {}),
        counts: bin.splits.map((v) => ({ split_name: v.split_name, count: v.count })),
        metrics: metricIds.map((metric_name) => ({
          metric_name,
          values: bin.splits.map((v) => ({
            split_name: v.split_name,
            value: v.metrics[metric_name] ?? null,
            count: v.count,
            explore_config: {
              data_level: input.data_level,
              filter: filterOf(v.split_name),
              sort_by: null,
              visible_metadata_ids: [input.metadata_id],
            },
          })),
        })),
      };
    });
    return {
      metadata_type: binned.type,
      metadata_id: input.metadata_id,
      iou_threshold: objects ? iou : null,
      splits,
      performance_per_bin,
    };
  }

  /**
   * The metrics of a selection (item ids), of a filter's items or of a subset's, at the
   * dataset's IoU threshold. A selection or filter of more than MAX_SELECTION_PERFORMANCE_ITEMS
   * items is refused (a subset of any size is not: saving one is what the refusal suggests).
   */
  async itemsSummary(
    datasetId: string,
    predictionSetId: string,
    input: ItemsSummaryInput,
    actor?: Actor,
  ): Promise<ItemsSummaryResponse> {
    if (input.item_ids && input.item_ids.length > MAX_SELECTION_PERFORMANCE_ITEMS)
      throw new PayloadTooLarge(PERFORMANCE_MESSAGES.tooManyItems);
    await this.target(datasetId, predictionSetId);
    const { dataset, explore, rows } = await this.explore.view(
      datasetId,
      input.data_level,
      predictionSetId,
      input.filter,
      input.subset_id,
      [],
      input.comparison,
      actor,
    );
    const { table } = explore;
    let selected: Uint32Array;
    if (input.item_ids) {
      const index = rowIndex(table);
      const found = new Set<number>();
      for (const id of input.item_ids) {
        const row = index.get(id);
        if (row !== undefined && (rows === null || hasRow(rows, row))) found.add(row);
      }
      selected = Uint32Array.from(found);
    } else if (rows) selected = bitsetToRows(rows);
    else selected = Uint32Array.from({ length: table.length }, (_, i) => i);
    const limited = input.item_ids !== undefined || input.subset_id === undefined;
    if (limited && selected.length > MAX_SELECTION_PERFORMANCE_ITEMS)
      throw new PayloadTooLarge(PERFORMANCE_MESSAGES.tooManyItems);
    const evaluation = await this.evaluations.get(dataset, predictionSetId);
    const map = await rowMap(evaluation, input.data_level, table);
    const metricIds = PERFORMANCE_METRICS[dataset.task_type].slice;
    const [measured] = await this.measure(evaluation, {
      kind: 'slice',
      slice: sliceOfRows(input.data_level, map, selected),
      metrics: metricIds,
      iouThreshold: dataset.iou_threshold,
      splits: [ALL_SPLITS],
    });
    return {
      num_items: selected.length,
      num_items_used: measured!.used,
      iou_threshold: TASK_TRAITS[dataset.task_type].hasObjects ? dataset.iou_threshold : null,
      metrics: metricIds.map((metric_name) => ({
        metric_name,
        value: measured!.metrics[metric_name] ?? null,
      })),
    };
  }

  /** A request's computation on the performance thread; its failures are 503s. */
  private async measure<K extends 'metadata' | 'slice'>(
    evaluation: Evaluation,
    task: ComputeTask<K>,
  ): Promise<ComputeOutput<K>> {
    try {
      return await this.compute.run(evaluation, task, 'request');
    } catch (error) {
      if (error instanceof WorkerTaskError) throw new AppError(503, error.message, !error.refused);
      throw error;
    }
  }
}

function defaultMetric(task: TaskType): string {
  return PERFORMANCE_METRICS[task].slice[0]!;
}

/** The metrics asked for, each one of the task's slice metrics; all of them when none are named. */
function checkMetrics(task: TaskType, metrics: string[] | undefined): readonly string[] {
  const choices = PERFORMANCE_METRICS[task].slice;
  if (metrics === undefined) return choices;
  if (metrics.length === 0) throw new BadRequest(PERFORMANCE_MESSAGES.atLeastOneMetric);
  metrics.forEach((metric, i) => {
    if (!choices.includes(metric))
      throw new BadRequest(
        `body.metrics[${i}]: '${metric}' is not a metric of a ${task} slice (choose from ${choices.join(', ')}).`,
      );
  });
  return [...new Set(metrics)];
}

// Comparing two models (docs/model-comparison.md, "The server"): the comparison of two prediction
// sets of a dataset on one split, metric and regression value name, served from the result a
// job stored while it is current (the dataset's data version and IoU threshold), else answered
// 'computing' while a ModelComparisonComputation job computes it; both models on the subsets
// enabled for performance, from the entries their report jobs store; and the compared items the
// explorer shows while a comparison is its context (computed on the performance thread, the last
// few kept in memory). Every entry point needs a license: a comparison is a computation.
import {
  ALL_SPLITS,
  COMPARISON_MESSAGES,
  TASK_TRAITS,
  type ComparisonCategory,
  type ComparisonContext,
  type ComparisonResponse,
  type ComparisonResult,
  type ExploreComparison,
  type SubsetComparisonEntry,
  type SubsetsComparisonResponse,
  type TaskType,
} from '@loupe/contracts';
import { COMPARISON_METRICS, PERFORMANCE_METRICS, metricDelta } from '@loupe/metrics';
import { requireDataset } from '../datasets/datasets.service.js';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import type { JobPayloads } from '../jobs/job-types.js';
import { jobDedupeKey, type JobsService } from '../jobs/jobs.service.js';
import type { LicenseService } from '../license/license.service.js';
import { AppError, BadRequest, NotFound } from '../platform/errors.js';
import { WorkerTaskError } from '../platform/worker-thread.js';
import type { PredictionSetsRepository } from '../prediction-sets/prediction-sets.repository.js';
import type { EvaluationCache } from '../performance/evaluation-cache.js';
import type { PerformancePool } from '../performance/performance-pool.js';
import {
  isCurrent as isCurrentEntry,
  subsetKind,
  type StoredSubsetEntry,
} from '../performance/performance-results.js';
import type { PerformanceRepository } from '../performance/performance.repository.js';
import { toSubset } from '../subsets/subsets.service.js';
import type { SubsetsRepository } from '../subsets/subsets.repository.js';
import type { Actor } from '../users/actor.js';
import { comparedItems } from './compared-columns.js';
import type { ComparedItems, ComparedItemsSource } from './compared-items.js';
import {
  comparisonPayload,
  comparisonKey,
  isCurrent,
  type ComparisonJob,
} from './comparison-jobs.service.js';
import type { ComparisonRepository } from './comparison.repository.js';

export interface ComparisonRepos {
  datasets: Pick<DatasetsRepository, 'find' | 'splits'>;
  predictionSets: Pick<PredictionSetsRepository, 'findSet'>;
  subsets: Pick<SubsetsRepository, 'list' | 'liveCounts'>;
  performance: Pick<PerformanceRepository, 'subsetResults' | 'subsetMetrics'>;
  comparison: Pick<ComparisonRepository, 'result'>;
}

/** What names a comparison: the pair, and optionally the split, metric and value name. */
export interface ComparisonInput {
  predictions_id_a: string;
  predictions_id_b: string;
  split?: string | undefined;
  metric?: string | undefined;
  regression_value_name?: string | null | undefined;
}

/** Where a request carries the comparison: its errors name the field there. */
type Where = 'body' | 'query' | 'comparison';

/** Compared items kept in memory (an explorer session asks for the same ones again and again). */
const KEPT_ITEMS = 4;

const LICENSED_ACTION = 'compare models';

export class ComparisonService implements ComparedItemsSource {
  /** Computed or being computed, by comparedKey; the least recently used goes first. */
  private readonly kept = new Map<string, Promise<ComparedItems>>();

  constructor(
    private readonly repos: ComparisonRepos,
    private readonly evaluations: Pick<EvaluationCache, 'get'>,
    private readonly compute: Pick<PerformancePool, 'runPair'>,
    private readonly jobs: Pick<JobsService, 'enqueue' | 'latest'>,
    private readonly license: Pick<LicenseService, 'requireLicense'>,
  ) {}

  /** The comparison when a job stored it for the data as it is; else where its job stands. */
  async compare(
    actor: Actor,
    datasetId: string,
    input: ComparisonInput,
  ): Promise<ComparisonResponse> {
    await this.license.requireLicense(LICENSED_ACTION, { actor });
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const context = await this.resolve(dataset, input, 'body');
    const ids = {
      data_version: dataset.data_version,
      predictions_id_a: context.predictions_id_a,
      predictions_id_b: context.predictions_id_b,
      split: context.split,
    };
    const stored = await this.repos.comparison.result(
      context.predictions_id_a,
      context.predictions_id_b,
      comparisonKey(context),
    );
    if (isCurrent(stored, dataset) && stored.status === 'ready')
      return { ...(stored.result as ComparisonResult), status: 'ready', progress: 1, ...ids };
    const pending = {
      ...pendingResult(dataset, context),
      ...ids,
    };
    if (isCurrent(stored, dataset) && stored.status === 'failed')
      return {
        ...pending,
        status: 'failed',
        progress: 0,
        error: stored.error ?? COMPARISON_MESSAGES.failed,
      };
    return { ...pending, ...(await this.jobState(actor, comparisonPayload(dataset, context))) };
  }

  /** Where the comparison job of the data as it is stands; enqueued when none is. */
  private async jobState(
    actor: Actor,
    payload: ComparisonJob,
  ): Promise<{ status: 'computing' | 'failed'; progress: number; error?: string }> {
    const name = 'ModelComparisonComputation';
    const job = await this.jobs.latest(jobDedupeKey(name, payload));
    if (job?.status === 'queued' || job?.status === 'running')
      return { status: 'computing', progress: job.progress ?? 0 };
    if (job?.status === 'failed')
      return { status: 'failed', progress: 0, error: job.error ?? COMPARISON_MESSAGES.failed };
    await this.jobs.enqueue(name, payload, actor);
    return { status: 'computing', progress: 0 };
  }

  /**
   * Both models on each subset enabled for performance whose entries are current for both, in
   * one split; the others are pending while the report jobs of the models lacking them compute
   * them (enqueued here when none is waiting or running). A subset a model's failed job left
   * without an entry is not pending.
   */
  async subsets(
    actor: Actor,
    datasetId: string,
    input: ComparisonInput,
  ): Promise<SubsetsComparisonResponse> {
    await this.license.requireLicense(LICENSED_ACTION, { actor });
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const split = input.split ?? ALL_SPLITS;
    await this.requirePair(dataset, input);
    await this.requireSplit(dataset, split, 'query');
    const a = input.predictions_id_a;
    const b = input.predictions_id_b;
    const enabled = (await this.repos.subsets.list(dataset.id)).filter(
      (s) => s.enabled_for_performance,
    );
    const [entriesA, entriesB, metrics, counts] = await Promise.all([
      this.repos.performance.subsetResults(a),
      this.repos.performance.subsetResults(b),
      this.repos.performance.subsetMetrics(dataset.id),
      this.repos.subsets.liveCounts(
        dataset.id,
        enabled.map((s) => ({ id: s.id, level: s.data_level })),
      ),
    ]);
    const byKind = [entriesA, entriesB].map((list) => new Map(list.map((e) => [e.kind, e])));
    const comparison_per_subset: Record<string, SubsetComparisonEntry> = {};
    /** Per subset not current for both: which of the two lack it. */
    const lacking = new Map<string, boolean[]>();
    for (const subset of enabled) {
      const [entryA, entryB] = byKind.map((entries) => {
        const entry = entries.get(subsetKind(subset.id));
        return isCurrentEntry(entry, dataset, subset.updated_at) && entry.status === 'ready'
          ? (entry.result as StoredSubsetEntry)
          : null;
      });
      if (!entryA || !entryB) {
        lacking.set(subset.id, [!entryA, !entryB]);
        continue;
      }
      const partA = entryA.splits.find((s) => s.split_name === split);
      const partB = entryB.splits.find((s) => s.split_name === split);
      if (!partA || !partB) continue;
      const comparison_per_metric: SubsetComparisonEntry['comparison_per_metric'] = {};
      for (const [metric, valueA] of Object.entries(partA.performance_per_metric)) {
        const delta = metricDelta(metric, valueA, partB.performance_per_metric[metric] ?? null);
        comparison_per_metric[metric] = { ...delta, category: subsetCategory(delta) };
      }
      comparison_per_subset[subset.id] = {
        comparison_per_metric,
        num_items_used: Math.min(partA.num_items_used, partB.num_items_used),
        num_items_total: partA.num_items_total,
        metric_name: metrics.get(subset.id) ?? PERFORMANCE_METRICS[dataset.task_type].slice[0]!,
        subset: toSubset(subset, counts.get(subset.id) ?? 0),
      };
    }
    // A model's report job computes its missing entries; one that failed computes none.
    const failed = [false, false];
    for (const side of [0, 1]) {
      if (![...lacking.values()].some((sides) => sides[side])) continue;
      const state = await this.reportState(actor, dataset, side === 0 ? a : b);
      failed[side] = state === 'failed';
    }
    const pending_subsets = [...lacking]
      .filter(([, sides]) => sides.every((lacks, side) => !lacks || !failed[side]))
      .map(([id]) => id);
    return { comparison_per_subset, pending_subsets };
  }

  /** Where a model's report job stands (as the performance page's reads enqueue it). */
  private async reportState(
    actor: Actor,
    dataset: DatasetRecord,
    predictionSetId: string,
  ): Promise<'computing' | 'failed'> {
    const name = 'PerformanceReportComputation';
    const payload: JobPayloads[typeof name] = {
      dataset_id: dataset.id,
      prediction_set_id: predictionSetId,
      data_version: dataset.data_version,
    };
    const job = await this.jobs.latest(jobDedupeKey(name, payload));
    if (job?.status === 'queued' || job?.status === 'running') return 'computing';
    if (job?.status === 'failed') return 'failed';
    await this.jobs.enqueue(name, payload, actor);
    return 'computing';
  }

  /**
   * The compared items of a comparison the explorer is in (ComparedItemsSource), computed on the
   * performance thread at request priority unless kept from a recent request.
   */
  async items(
    actor: Actor,
    dataset: DatasetRecord,
    input: ExploreComparison,
  ): Promise<ComparedItems> {
    await this.license.requireLicense(LICENSED_ACTION, { actor });
    const context = await this.resolve(dataset, input, 'comparison');
    const key = JSON.stringify([
      context.predictions_id_a,
      context.predictions_id_b,
      comparisonKey(context),
      dataset.data_version,
      dataset.iou_threshold,
    ]);
    let items = this.kept.get(key);
    if (items) this.kept.delete(key);
    else {
      items = this.computeItems(dataset, context, key);
      // A failure is not kept: the next request tries again.
      items.catch(() => {
        if (this.kept.get(key) === items) this.kept.delete(key);
      });
    }
    this.kept.set(key, items);
    while (this.kept.size > KEPT_ITEMS) this.kept.delete(this.kept.keys().next().value!);
    return items;
  }

  private async computeItems(
    dataset: DatasetRecord,
    context: ComparisonContext,
    key: string,
  ): Promise<ComparedItems> {
    const [a, b] = await Promise.all([
      this.evaluations.get(dataset, context.predictions_id_a),
      this.evaluations.get(dataset, context.predictions_id_b),
    ]);
    try {
      const computed = await this.compute.runPair(
        a,
        b,
        {
          kind: 'compare',
          split: context.split,
          metric: context.metric,
          valueName: context.regression_value_name,
          iouThreshold: dataset.iou_threshold,
        },
        'request',
      );
      return comparedItems(key, context, computed, a, b);
    } catch (error) {
      if (error instanceof WorkerTaskError) throw new AppError(503, error.message, !error.refused);
      throw error;
    }
  }

  /** Both prediction sets of the dataset and different, or 404 naming the missing one / 400. */
  private async requirePair(dataset: DatasetRecord, input: ComparisonInput): Promise<void> {
    if (input.predictions_id_a === input.predictions_id_b)
      throw new BadRequest(COMPARISON_MESSAGES.sameModel);
    for (const id of [input.predictions_id_a, input.predictions_id_b]) {
      const set = await this.repos.predictionSets.findSet(id);
      if (!set || set.dataset_id !== dataset.id)
        throw new NotFound(COMPARISON_MESSAGES.modelNotFound(id));
    }
  }

  private async requireSplit(dataset: DatasetRecord, split: string, where: Where): Promise<void> {
    if (split !== ALL_SPLITS && !(await this.repos.datasets.splits(dataset.id)).includes(split))
      throw new BadRequest(`${where}.split: this dataset has no split '${split}'.`);
  }

  /** The comparison's context with its metric and value name resolved, or the refusal. */
  private async resolve(
    dataset: DatasetRecord,
    input: ComparisonInput,
    where: Where,
  ): Promise<ComparisonContext> {
    const task = dataset.task_type;
    await this.requirePair(dataset, input);
    const choices = COMPARISON_METRICS[task];
    const metric = input.metric ?? choices[0]!;
    if (!choices.includes(metric))
      throw new BadRequest(
        `${where}.metric: '${metric}' is not a comparison metric of a ${task} dataset (choose from ${choices.join(', ')}).`,
      );
    const split = input.split ?? ALL_SPLITS;
    await this.requireSplit(dataset, split, where);
    let valueName: string | null = null;
    if (task === 'regression' && input.regression_value_name != null) {
      valueName = input.regression_value_name;
      if (!dataset.value_names.includes(valueName))
        throw new BadRequest(
          `${where}.regression_value_name: '${valueName}' is not a value name of this dataset (choose from ${dataset.value_names.join(', ')}).`,
        );
    }
    return {
      predictions_id_a: input.predictions_id_a,
      predictions_id_b: input.predictions_id_b,
      split,
      metric,
      regression_value_name: valueName,
    };
  }
}

/** The answer while the comparison is computing (or failed): nothing but what it is of. */
function pendingResult(dataset: DatasetRecord, context: ComparisonContext): ComparisonResult {
  const task: TaskType = dataset.task_type;
  return {
    task,
    metric: context.metric,
    regression_value_name: context.regression_value_name,
    iou_threshold: TASK_TRAITS[task].hasObjects ? dataset.iou_threshold : null,
    overall: {},
    other_metrics: null,
    per_class: null,
    per_class_unavailable: false,
    per_word: null,
    per_sample: null,
    per_object_gt: null,
    per_object_pred: null,
  };
}

/** A subset metric's category: the better model, both neutral when equal, null if undefined. */
function subsetCategory(delta: ReturnType<typeof metricDelta>): ComparisonCategory | null {
  if (delta.better === null) return null;
  return delta.model_a === delta.model_b ? 'both_are_neutral' : delta.better;
}

// The performance jobs' work (docs/model-performance.md): a prediction set's report (statistics
// and the per-entity table per split) with the entries of its dataset's enabled subsets, and its
// fine-grained curves, computed from its evaluation data and stored with the data version and IoU
// threshold they belong to. Splits and subsets are computed one at a time on the performance
// thread (performance-pool.ts), so an in-process job runner leaves the API's event loop free.
import { PERFORMANCE_METRICS } from '@loupe/metrics';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import type { PerformancePayload } from '../jobs/job-types.js';
import { JobLeaseLost, PermanentJobError } from '../jobs/job-types.js';
import { MAX_ATTEMPTS } from '../jobs/jobs.service.js';
import type { Clock } from '../platform/clock.js';
import { WorkerTaskError } from '../platform/worker-thread.js';
import type { PredictionSetsRepository } from '../prediction-sets/prediction-sets.repository.js';
import type { SubsetRecord, SubsetsRepository } from '../subsets/subsets.repository.js';
import type { ComputeOutput, ComputeTask } from './compute.js';
import type { EvaluationCache } from './evaluation-cache.js';
import type { Evaluation } from './evaluation-loader.js';
import type { PerformancePool } from './performance-pool.js';
import {
  isCurrent,
  splitNames,
  subsetIdOf,
  subsetKind,
  type StoredFinegrained,
  type StoredReport,
  type StoredSubsetEntry,
} from './performance-results.js';
import type { PerformanceRepository, ResultKind } from './performance.repository.js';
import { sliceOfIds } from './slices.js';

export interface PerformanceJobsRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  predictionSets: Pick<PredictionSetsRepository, 'findSet'>;
  subsets: Pick<SubsetsRepository, 'list' | 'liveItemIds'>;
  performance: Pick<
    PerformanceRepository,
    'result' | 'subsetResults' | 'saveResult' | 'deleteResults'
  >;
}

type Progress = (fraction: number) => Promise<void>;
type Run = Pick<PerformancePool, 'run'>;
type Compute = Pick<PerformancePool, 'run' | 'warm'>;

export class PerformanceJobsService {
  constructor(
    private readonly repos: PerformanceJobsRepos,
    private readonly evaluations: Pick<EvaluationCache, 'get'>,
    private readonly compute: Compute,
    private readonly clock: Clock,
  ) {}

  /**
   * The dataset of a job that still has work: none when the dataset or prediction set is gone,
   * or the data changed since it was enqueued (the next read enqueues a job for the new data).
   */
  private async target(payload: PerformancePayload): Promise<DatasetRecord | null> {
    const dataset = await this.repos.datasets.find(payload.dataset_id);
    const set = await this.repos.predictionSets.findSet(payload.prediction_set_id);
    if (!dataset || !set || set.dataset_id !== dataset.id) return null;
    return dataset.data_version === payload.data_version ? dataset : null;
  }

  /** The report, unless current, and each enabled subset's entry that is not current. */
  async computeReport(
    payload: PerformancePayload,
    attempt: number,
    progress: Progress,
  ): Promise<void> {
    const dataset = await this.target(payload);
    if (!dataset) return;
    const setId = payload.prediction_set_id;
    const stored = await this.repos.performance.result(setId, 'report');
    const reportDue = !(isCurrent(stored, dataset) && stored.status === 'ready');
    const subsets = await this.repos.subsets.list(dataset.id);
    const entries = new Map(
      (await this.repos.performance.subsetResults(setId)).map((r) => [r.kind, r]),
    );
    const due = subsets.filter(
      (s) =>
        s.enabled_for_performance &&
        !isCurrent(entries.get(subsetKind(s.id)), dataset, s.updated_at),
    );
    // Entries of deleted subsets go.
    const known = new Set(subsets.map((s) => s.id));
    const gone = [...entries.keys()].filter((kind) => !known.has(subsetIdOf(kind) ?? ''));
    await this.repos.performance.deleteResults(setId, gone);
    if (!reportDue && due.length === 0) return;
    try {
      this.compute.warm();
      const evaluation = await this.evaluations.get(dataset, setId, (f) => progress(0.5 * f));
      if (reportDue) {
        const report = await buildReport(evaluation, this.compute, (f) => progress(0.5 + 0.3 * f));
        await this.save(setId, 'report', dataset, 0, report);
      }
      for (const [i, subset] of due.entries()) {
        const entry = await this.subsetEntry(evaluation, dataset, subset);
        await this.save(setId, subsetKind(subset.id), dataset, subset.updated_at, entry);
        await progress(0.8 + (0.2 * (i + 1)) / due.length);
      }
    } catch (error) {
      const cause = asJobError(error);
      if (reportDue) await this.failed(setId, 'report', dataset, attempt, cause);
      throw cause;
    }
  }

  async computeFinegrained(
    payload: PerformancePayload,
    attempt: number,
    progress: Progress,
  ): Promise<void> {
    const dataset = await this.target(payload);
    if (!dataset) return;
    const setId = payload.prediction_set_id;
    const stored = await this.repos.performance.result(setId, 'finegrained');
    if (isCurrent(stored, dataset) && stored.status === 'ready') return;
    try {
      this.compute.warm();
      const evaluation = await this.evaluations.get(dataset, setId, (f) => progress(0.5 * f));
      const curves = await buildFinegrained(evaluation, this.compute, (f) =>
        progress(0.5 + 0.5 * f),
      );
      await this.save(setId, 'finegrained', dataset, 0, curves);
    } catch (error) {
      const cause = asJobError(error);
      await this.failed(setId, 'finegrained', dataset, attempt, cause);
      throw cause;
    }
  }

  private async subsetEntry(
    evaluation: Evaluation,
    dataset: DatasetRecord,
    subset: SubsetRecord,
  ): Promise<StoredSubsetEntry> {
    const ids = await this.repos.subsets.liveItemIds(dataset.id, {
      id: subset.id,
      level: subset.data_level,
    });
    const slice = await sliceOfIds(evaluation, subset.data_level, ids);
    const measured = await this.compute.run(
      evaluation,
      {
        kind: 'slice',
        slice,
        metrics: PERFORMANCE_METRICS[evaluation.task].slice,
        iouThreshold: dataset.iou_threshold,
        splits: splitNames(evaluation),
      },
      'job',
    );
    return {
      splits: measured.map((part) => ({
        split_name: part.split_name,
        performance_per_metric: part.metrics,
        num_items_used: part.used,
        num_items_total: part.count,
      })),
    };
  }

  private save(
    setId: string,
    kind: ResultKind,
    dataset: DatasetRecord,
    subsetVersion: number,
    result: unknown,
  ): Promise<void> {
    return this.repos.performance.saveResult({
      prediction_set_id: setId,
      kind,
      data_version: dataset.data_version,
      iou_threshold: dataset.iou_threshold,
      subset_version: subsetVersion,
      status: 'ready',
      progress: 1,
      result,
      error: null,
      updated_at: this.clock(),
    });
  }

  /** After the last attempt, the result is stored as failed for this data version. */
  private async failed(
    setId: string,
    kind: ResultKind,
    dataset: DatasetRecord,
    attempt: number,
    error: unknown,
  ): Promise<void> {
    if (error instanceof JobLeaseLost) return;
    if (attempt < MAX_ATTEMPTS && !(error instanceof PermanentJobError)) return;
    await this.repos.performance.saveResult({
      prediction_set_id: setId,
      kind,
      data_version: dataset.data_version,
      iou_threshold: dataset.iou_threshold,
      subset_version: 0,
      status: 'failed',
      progress: 0,
      result: null,
      error: error instanceof Error ? error.message : String(error),
      updated_at: this.clock(),
    });
  }
}

/**
 * A computation the performance thread refused (its deadline, its heap limit, inputs that cannot
 * work) fails the job at once: another attempt would fail the same way.
 */
function asJobError(error: unknown): unknown {
  return error instanceof WorkerTaskError && error.refused
    ? new PermanentJobError(error.message)
    : error;
}

/** Each split's part ('all' first), computed in turn on the performance thread. */
async function perSplit<K extends 'report' | 'finegrained'>(
  evaluation: Evaluation,
  compute: Run,
  kind: K,
  progress: (fraction: number) => Promise<void>,
): Promise<ComputeOutput<K>[]> {
  const splits = splitNames(evaluation);
  const out: ComputeOutput<K>[] = [];
  for (const [i, split] of splits.entries()) {
    out.push(await compute.run(evaluation, { kind, split } as ComputeTask<K>, 'job'));
    await progress((i + 1) / splits.length);
  }
  return out;
}

export async function buildReport(
  evaluation: Evaluation,
  compute: Run,
  progress: (fraction: number) => Promise<void>,
): Promise<StoredReport> {
  const parts = await perSplit(evaluation, compute, 'report', progress);
  const first = parts[0]!;
  // Samples with ground truth, and of those the ones the set did not predict.
  const coverage = await compute.run(evaluation, { kind: 'coverage' }, 'job');
  const statistics = first.statistics.map((s) => ({
    metric_name: s.metric_name,
    values: parts.flatMap(
      (part) => part.statistics.find((p) => p.metric_name === s.metric_name)?.values ?? [],
    ),
  }));
  return {
    splits: splitNames(evaluation),
    num_items: coverage.num_items,
    num_missing: coverage.num_missing,
    statistics,
    overall: {
      primary_key: first.overall.primary_key,
      metrics: [...first.overall.metrics],
      splits: parts.flatMap((part) => part.overall.splits),
    },
  };
}

export async function buildFinegrained(
  evaluation: Evaluation,
  compute: Run,
  progress: (fraction: number) => Promise<void>,
): Promise<StoredFinegrained> {
  const parts = await perSplit(evaluation, compute, 'finegrained', progress);
  const first = parts[0]!;
  return {
    kind: first.kind,
    dimension_names: first.dimension_names,
    split_performance: parts.flatMap((part) => part.split_performance),
  };
}

// The comparison job's work (docs/model-comparison.md, "The job"): both prediction sets'
// evaluation data loaded (shared with the performance pages through the evaluation cache),
// compared on the performance thread for one split, metric and value name, every explore link
// built, and the result stored with the data version and IoU threshold it belongs to.
import { TASK_TRAITS, type ComparisonContext } from '@loupe/contracts';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import type { JobPayloads } from '../jobs/job-types.js';
import { JobLeaseLost, PermanentJobError } from '../jobs/job-types.js';
import { MAX_ATTEMPTS } from '../jobs/jobs.service.js';
import type { Clock } from '../platform/clock.js';
import { WorkerTaskError } from '../platform/worker-thread.js';
import type { PredictionSetsRepository } from '../prediction-sets/prediction-sets.repository.js';
import type { EvaluationCache } from '../performance/evaluation-cache.js';
import type { Evaluation } from '../performance/evaluation-loader.js';
import type { PerformancePool } from '../performance/performance-pool.js';
import { withExploreLinks } from './comparison-links.js';
import type { ComparisonRepository, ComparisonResultRecord } from './comparison.repository.js';

export type ComparisonJob = JobPayloads['ModelComparisonComputation'];

export interface ComparisonJobsRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  predictionSets: Pick<PredictionSetsRepository, 'findSet'>;
  comparison: Pick<ComparisonRepository, 'result' | 'saveResult' | 'deleteStale'>;
}

type Progress = (fraction: number) => Promise<void>;

/** Names a pair's comparison among its others: the split, metric and value name. */
export function comparisonKey(
  context: Pick<ComparisonContext, 'split' | 'metric' | 'regression_value_name'>,
): string {
  return JSON.stringify([context.split, context.metric, context.regression_value_name]);
}

/** The job computing a comparison for the dataset's data as it is (its fields in one order). */
export function comparisonPayload(
  dataset: DatasetRecord,
  context: ComparisonContext,
): ComparisonJob {
  return {
    dataset_id: dataset.id,
    prediction_set_a: context.predictions_id_a,
    prediction_set_b: context.predictions_id_b,
    data_version: dataset.data_version,
    split: context.split,
    metric: context.metric,
    regression_value_name: context.regression_value_name,
  };
}

/** Whether a stored comparison was computed from the data as it is now. */
export function isCurrent(
  record: ComparisonResultRecord | undefined,
  dataset: Pick<DatasetRecord, 'data_version' | 'iou_threshold'>,
): record is ComparisonResultRecord {
  return (
    record !== undefined &&
    record.data_version === dataset.data_version &&
    record.iou_threshold === dataset.iou_threshold
  );
}

export class ComparisonJobsService {
  constructor(
    private readonly repos: ComparisonJobsRepos,
    private readonly evaluations: Pick<EvaluationCache, 'get' | 'getPair' | 'holds'>,
    private readonly compute: Pick<PerformancePool, 'run' | 'runPair' | 'warm'>,
    private readonly clock: Clock,
  ) {}

  /**
   * The dataset of a job that still has work: none when the dataset or either prediction set is
   * gone, or the data changed since it was enqueued (the next read enqueues a job for the new
   * data).
   */
  private async target(payload: ComparisonJob): Promise<DatasetRecord | null> {
    const dataset = await this.repos.datasets.find(payload.dataset_id);
    if (!dataset || dataset.data_version !== payload.data_version) return null;
    for (const id of [payload.prediction_set_a, payload.prediction_set_b]) {
      const set = await this.repos.predictionSets.findSet(id);
      if (!set || set.dataset_id !== dataset.id) return null;
    }
    return dataset;
  }

  async computeComparison(payload: ComparisonJob, attempt: number, progress: Progress) {
    const dataset = await this.target(payload);
    if (!dataset) return;
    const context: ComparisonContext = {
      predictions_id_a: payload.prediction_set_a,
      predictions_id_b: payload.prediction_set_b,
      split: payload.split,
      metric: payload.metric,
      regression_value_name: payload.regression_value_name,
    };
    const key = comparisonKey(context);
    const a = payload.prediction_set_a;
    const b = payload.prediction_set_b;
    const stored = await this.repos.comparison.result(a, b, key);
    if (isCurrent(stored, dataset) && stored.status === 'ready') return;
    await this.repos.comparison.deleteStale(a, b, dataset.data_version);
    try {
      this.compute.warm();
      const [evaluationA, evaluationB] = await this.load(dataset, payload, progress);
      const computed = await this.compute.runPair(
        evaluationA,
        evaluationB,
        {
          kind: 'compare',
          split: payload.split,
          metric: payload.metric,
          valueName: payload.regression_value_name,
          iouThreshold: dataset.iou_threshold,
        },
        'job',
      );
      await progress(0.95);
      await this.save(a, b, key, dataset, {
        status: 'ready',
        result: withExploreLinks(computed, context),
        error: null,
      });
    } catch (error) {
      const cause = asJobError(error);
      await this.failed(a, b, key, dataset, attempt, cause);
      throw cause;
    }
  }

  /**
   * Both sets' evaluation data. Labels and values are read for both in one pass over the samples
   * (their comparison is quick next to the read). Objects, masks and transcripts are read a set at
   * a time, and while B loads, the thread computes A's report on the split: the comparison then
   * finds what @loupe/metrics keeps of A's data (COCO matching, utterance alignments) computed.
   */
  private async load(
    dataset: DatasetRecord,
    payload: ComparisonJob,
    progress: Progress,
  ): Promise<[Evaluation, Evaluation]> {
    const a = payload.prediction_set_a;
    const b = payload.prediction_set_b;
    const label = TASK_TRAITS[dataset.task_type].label;
    if (label === 'class' || label === 'value')
      return this.evaluations.getPair(dataset, [a, b], (f) => progress(0.8 * f));
    const evaluationA = await this.evaluations.get(dataset, a, (f) => progress(0.4 * f));
    if (!this.evaluations.holds(dataset, b)) {
      // Its failure is the comparison's to report (the same split and data).
      this.compute
        .run(evaluationA, { kind: 'report', split: payload.split }, 'job')
        .catch(() => {});
    }
    const evaluationB = await this.evaluations.get(dataset, b, (f) => progress(0.4 + 0.4 * f));
    return [evaluationA, evaluationB];
  }

  private save(
    a: string,
    b: string,
    key: string,
    dataset: DatasetRecord,
    outcome: Pick<ComparisonResultRecord, 'status' | 'result' | 'error'>,
  ): Promise<void> {
    return this.repos.comparison.saveResult({
      prediction_set_a: a,
      prediction_set_b: b,
      key,
      data_version: dataset.data_version,
      iou_threshold: dataset.iou_threshold,
      progress: outcome.status === 'ready' ? 1 : 0,
      ...outcome,
      updated_at: this.clock(),
    });
  }

  /** After the last attempt, the comparison is stored as failed for this data version. */
  private async failed(
    a: string,
    b: string,
    key: string,
    dataset: DatasetRecord,
    attempt: number,
    error: unknown,
  ): Promise<void> {
    if (error instanceof JobLeaseLost) return;
    if (attempt < MAX_ATTEMPTS && !(error instanceof PermanentJobError)) return;
    await this.save(a, b, key, dataset, {
      status: 'failed',
      result: null,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * A computation the performance thread refused (its deadline, its heap limit, inputs that cannot
 * work: a RangeError of the comparison) fails the job at once: another attempt would fail the
 * same way.
 */
function asJobError(error: unknown): unknown {
  return error instanceof WorkerTaskError && error.refused
    ? new PermanentJobError(error.message)
    : error;
}

// Every job Loupe runs, as one typed union keyed by job name.
import type { DataLevel, DimensionalityReductionSetting, JobType } from '@loupe/contracts';

export interface JobPayloads {
  ThumbnailGeneration: { dataset_id: string };
  /** With a prediction set: only its semantic segmentation masks' statistics. */
  MetadataAndFeaturesComputation: { dataset_id: string; prediction_set_id?: string };
  EmbeddingsComputation: {
    dataset_id: string;
    /** The prediction set whose own feature is laid out; absent for a dataset's feature. */
    prediction_set_id?: string;
    data_level: DataLevel;
    feature_name: string;
    setting: DimensionalityReductionSetting;
    /** The feature's updated_at when enqueued: a new upload makes a new job. */
    feature_version: number;
  };
  /** A prediction set's report and its enabled subsets' entries, at one data version. */
  PerformanceReportComputation: PerformancePayload;
  /** A prediction set's curves and distributions, at one data version. */
  FinegrainedPerformanceComputation: PerformancePayload;
  /** Two prediction sets compared on one split, metric and value name, at one data version. */
  ModelComparisonComputation: {
    dataset_id: string;
    prediction_set_a: string;
    prediction_set_b: string;
    data_version: number;
    split: string;
    metric: string;
    /** Regression: the value name compared; null for every value name (and other tasks). */
    regression_value_name: string | null;
  };
  /** The dataset's health checks whose inputs changed, at one data version. */
  QualityScoresComputation: { dataset_id: string; data_version: number };
}

/** The dataset's data_version when enqueued: a new upload, edit or IoU threshold makes a new job. */
export interface PerformancePayload {
  dataset_id: string;
  prediction_set_id: string;
  data_version: number;
}
export type JobName = keyof JobPayloads & JobType;

export interface JobContext<N extends JobName> {
  id: string;
  name: N;
  payload: JobPayloads[N];
  attempt: number;
  /** Reports progress (0–1); throws JobLeaseLost when another worker has taken the job over. */
  progress(fraction: number): Promise<void>;
}

export type JobHandler<N extends JobName> = (context: JobContext<N>) => Promise<void>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };

export class JobLeaseLost extends Error {
  constructor() {
    super('The job was taken over by another worker');
  }
}

/** A failure that retrying cannot fix (bad input data): the job fails at once, without retries. */
export class PermanentJobError extends Error {}

// Every job Loupe runs, as one typed union keyed by job name.
import type { DataLevel, DimensionalityReductionSetting, JobType } from '@loupe/contracts';

export interface JobPayloads {
  ThumbnailGeneration: { dataset_id: string };
  MetadataAndFeaturesComputation: { dataset_id: string };
  EmbeddingsComputation: {
    dataset_id: string;
    data_level: DataLevel;
    feature_name: string;
    setting: DimensionalityReductionSetting;
    /** The feature's updated_at when enqueued: a new upload makes a new job. */
    feature_version: number;
  };
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

// The evaluation data of the prediction sets in use, kept while their dataset's data version and
// IoU threshold stay the same: the report job, metadata performance and selection performance
// of one process share one load. Concurrent requests share a load in flight.
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import { loadEvaluation, type Evaluation, type EvaluationSource } from './evaluation-loader.js';
import { shareEvaluation } from './evaluation-wire.js';

/** Prediction sets kept at once; the least recently used goes first. */
const KEPT = 2;

interface Entry {
  dataVersion: number;
  iouThreshold: number;
  evaluation: Promise<Evaluation>;
}

export class EvaluationCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly source: EvaluationSource) {}

  /** The evaluation of a prediction set at the dataset's current version (loaded when needed). */
  get(
    dataset: DatasetRecord,
    predictionSetId: string,
    onProgress?: (fraction: number) => Promise<void> | void,
  ): Promise<Evaluation> {
    const found = this.entries.get(predictionSetId);
    if (
      found &&
      found.dataVersion === dataset.data_version &&
      found.iouThreshold === dataset.iou_threshold
    ) {
      this.entries.delete(predictionSetId);
      this.entries.set(predictionSetId, found);
      return found.evaluation;
    }
    // In shared memory, so the performance thread computes on it without a copy.
    const evaluation = loadEvaluation(this.source, dataset, predictionSetId, onProgress).then(
      shareEvaluation,
    );
    const entry: Entry = {
      dataVersion: dataset.data_version,
      iouThreshold: dataset.iou_threshold,
      evaluation,
    };
    this.entries.delete(predictionSetId);
    this.entries.set(predictionSetId, entry);
    while (this.entries.size > KEPT) this.entries.delete(this.entries.keys().next().value!);
    evaluation.catch(() => {
      if (this.entries.get(predictionSetId) === entry) this.entries.delete(predictionSetId);
    });
    return evaluation;
  }
}

// The evaluation data of the prediction sets in use, kept while their dataset's data version and
// IoU threshold stay the same: the report job, metadata performance and selection performance
// of one process share one load. Concurrent requests share a load in flight.
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import {
  loadEvaluation,
  loadEvaluationPair,
  type Evaluation,
  type EvaluationSource,
} from './evaluation-loader.js';
import { shareEvaluation } from './evaluation-wire.js';
import { ClassPredictionsCache } from './prediction-columns.js';

/** Prediction sets kept at once; the least recently used goes first. */
const KEPT = 2;

interface Entry {
  dataVersion: number;
  iouThreshold: number;
  evaluation: Promise<Evaluation>;
}

export class EvaluationCache {
  private readonly entries = new Map<string, Entry>();

  private readonly source: EvaluationSource;

  constructor(source: EvaluationSource) {
    // The sets' class predictions outlive a data version: only the samples are read again.
    this.source = { ...source, classPredictions: new ClassPredictionsCache(source.repo) };
  }

  /** The evaluation of a prediction set at the dataset's current version (loaded when needed). */
  get(
    dataset: DatasetRecord,
    predictionSetId: string,
    onProgress?: (fraction: number) => Promise<void> | void,
  ): Promise<Evaluation> {
    return (
      this.kept(dataset, predictionSetId) ??
      this.keep(
        dataset,
        predictionSetId,
        loadEvaluation(this.source, dataset, predictionSetId, onProgress).then(shareEvaluation),
      )
    );
  }

  /**
   * The evaluations of two prediction sets (A's, then B's) at the dataset's current version. When
   * neither is kept, both are loaded together (the loader reads the samples once for both).
   */
  getPair(
    dataset: DatasetRecord,
    setIds: readonly [string, string],
    onProgress?: (fraction: number) => Promise<void> | void,
  ): Promise<[Evaluation, Evaluation]> {
    const [a, b] = setIds;
    const keptA = this.kept(dataset, a);
    const keptB = this.kept(dataset, b);
    if (keptA || keptB || a === b) {
      // One is there: the other alone is loaded.
      const first = keptA ?? this.get(dataset, a, onProgress);
      const second = keptB ?? this.get(dataset, b, onProgress);
      return Promise.all([first, second]);
    }
    const pair = loadEvaluationPair(this.source, dataset, setIds, onProgress).then(
      ([x, y]) => [shareEvaluation(x), shareEvaluation(y)] as const,
    );
    return Promise.all([
      this.keep(
        dataset,
        a,
        pair.then(([x]) => x),
      ),
      this.keep(
        dataset,
        b,
        pair.then(([, y]) => y),
      ),
    ]);
  }

  /** Whether the set's evaluation at the dataset's current version is kept (or loading). */
  holds(dataset: DatasetRecord, predictionSetId: string): boolean {
    const found = this.entries.get(predictionSetId);
    return (
      found !== undefined &&
      found.dataVersion === dataset.data_version &&
      found.iouThreshold === dataset.iou_threshold
    );
  }

  /** A kept evaluation of the set at the dataset's current version (now the most recently used). */
  private kept(dataset: DatasetRecord, predictionSetId: string): Promise<Evaluation> | undefined {
    if (!this.holds(dataset, predictionSetId)) return undefined;
    const found = this.entries.get(predictionSetId)!;
    this.entries.delete(predictionSetId);
    this.entries.set(predictionSetId, found);
    return found.evaluation;
  }

  private keep(
    dataset: DatasetRecord,
    predictionSetId: string,
    // In shared memory, so the performance thread computes on it without a copy.
    evaluation: Promise<Evaluation>,
  ): Promise<Evaluation> {
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

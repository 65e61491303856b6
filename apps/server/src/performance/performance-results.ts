// What the performance jobs store and the reads serve: the shapes of the stored results, when a
// stored result is current (computed from the dataset's data version and IoU threshold, and for
// a subset entry from the subset as it is), and the rows of each split of an evaluation.
import {
  ALL_SPLITS,
  type FinegrainedPerformanceResponse,
  type MetricValue,
  type OverallPerformanceResponse,
  type Statistic,
} from '@loupe/contracts';
import type { SplitRows } from '@loupe/metrics';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import type { EvaluationData } from './evaluation-wire.js';
import type { PerformanceResultRecord, ResultKind } from './performance.repository.js';

export interface StoredReport {
  splits: string[];
  num_items: number;
  num_missing: number;
  statistics: Statistic[];
  overall: Pick<OverallPerformanceResponse, 'primary_key' | 'metrics' | 'splits'>;
}

export type StoredFinegrained = Pick<
  FinegrainedPerformanceResponse,
  'kind' | 'dimension_names' | 'split_performance'
>;

export interface SubsetSplitEntry {
  split_name: string;
  performance_per_metric: Record<string, MetricValue>;
  num_items_used: number;
  num_items_total: number;
}

export interface StoredSubsetEntry {
  splits: SubsetSplitEntry[];
}

export function subsetKind(subsetId: string): ResultKind {
  return `subset:${subsetId}`;
}

export function subsetIdOf(kind: ResultKind): string | null {
  return kind.startsWith('subset:') ? kind.slice('subset:'.length) : null;
}

/** Whether a stored result was computed from the data as it is now. */
export function isCurrent(
  record: PerformanceResultRecord | undefined,
  dataset: Pick<DatasetRecord, 'data_version' | 'iou_threshold'>,
  subsetVersion = 0,
): record is PerformanceResultRecord {
  return (
    record !== undefined &&
    record.data_version === dataset.data_version &&
    record.iou_threshold === dataset.iou_threshold &&
    record.subset_version === subsetVersion
  );
}

/** 'all' (every sample), then each split's samples. */
export function splitRows(evaluation: EvaluationData): SplitRows[] {
  const n = evaluation.splitOf.length;
  const all = new Uint32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  const counts = new Uint32Array(evaluation.splitNames.length);
  for (let i = 0; i < n; i++) {
    const s = evaluation.splitOf[i]!;
    if (s >= 0) counts[s]!++;
  }
  const rows = evaluation.splitNames.map((_, s) => new Uint32Array(counts[s]!));
  const filled = new Uint32Array(evaluation.splitNames.length);
  for (let i = 0; i < n; i++) {
    const s = evaluation.splitOf[i]!;
    if (s >= 0) rows[s]![filled[s]!++] = i;
  }
  return [
    { split_name: ALL_SPLITS, rows: all },
    ...evaluation.splitNames.map((split_name, s) => ({ split_name, rows: rows[s]! })),
  ];
}

/** The split names a response lists: 'all' first, then the dataset's. */
export function splitNames(evaluation: Pick<EvaluationData, 'splitNames'>): string[] {
  return [ALL_SPLITS, ...evaluation.splitNames];
}

// What the performance thread computes (compute.worker.ts; docs/model-performance.md) on a
// prediction set's evaluation data: one split's report or curves, the prediction coverage, a
// slice's metrics per split, and the metrics per bin of a metadata column. Pure: the thread runs
// it, and tests run it here to compare.
import type { Column } from '@loupe/analysis';
import type { DataLevel } from '@loupe/contracts';
import {
  alignClasses,
  compareModels,
  finegrainedReport,
  performanceReport,
  predictionCoverage,
  type EvalData,
  type FinegrainedReport,
  type MetricValue,
  type ModelComparison,
  type PerformanceReport,
  type PredictionCoverage,
  type SplitRows,
} from '@loupe/metrics';
import type { EvaluationData } from './evaluation-wire.js';
import { metadataBins, type MetadataBin } from './metadata-bins.js';
import { splitRows } from './performance-results.js';
import { inSplit, measureSlice, sliceOfRows, sliceSize, sliceUsed, type Slice } from './slices.js';

/** A slice's part in one split: its items, those with a prediction, and its metrics. */
export interface SplitMeasure {
  split_name: string;
  count: number;
  used: number;
  metrics: Record<string, MetricValue>;
}

/** A metadata bin (without its rows) and its measure in each split. */
export type MeasuredBin = Omit<MetadataBin, 'rows'> & { splits: SplitMeasure[] };

interface SliceInput {
  metrics: readonly string[];
  iouThreshold: number;
  /** The splits to measure in ('all' = the whole slice). */
  splits: readonly string[];
}

export interface ComputeTasks {
  /** The statistics and table of one split. */
  report: { input: { split: string }; output: PerformanceReport };
  /** The curves or distributions of one split. */
  finegrained: { input: { split: string }; output: FinegrainedReport };
  coverage: { input: object; output: PredictionCoverage };
  slice: { input: SliceInput & { slice: Slice }; output: SplitMeasure[] };
  /** Bins a column of an explorer table (its rows → evaluation indexes: `map`) and measures each. */
  metadata: {
    input: SliceInput & {
      level: DataLevel;
      map: Int32Array;
      column: Column;
      metadataId: string;
      maxBins: number;
    };
    output: { type: 'categorical' | 'continuous'; bins: MeasuredBin[] };
  };
}

export type ComputeKind = keyof ComputeTasks;
export type ComputeTask<K extends ComputeKind = ComputeKind> = K extends ComputeKind
  ? { kind: K } & ComputeTasks[K]['input']
  : never;
export type ComputeOutput<K extends ComputeKind> = ComputeTasks[K]['output'];

/** What is computed on two prediction sets' evaluation data of the same dataset version. */
export interface PairTasks {
  /** Model A (the first) compared with model B on one split (docs/model-comparison.md). */
  compare: {
    input: { split: string; metric: string; valueName: string | null; iouThreshold: number };
    output: ModelComparison;
  };
}

export type PairKind = keyof PairTasks;
export type PairTask<K extends PairKind = PairKind> = K extends PairKind
  ? { kind: K } & PairTasks[K]['input']
  : never;
export type PairOutput<K extends PairKind> = PairTasks[K]['output'];

const splitsOf = new WeakMap<EvaluationData, SplitRows[]>();
/**
 * Two models' data on one class list (each load names the labels it met in its own order), kept
 * while both are: the aligned data is what @loupe/metrics caches its per-data results on.
 */
const alignedPairs = new WeakMap<EvalData, WeakMap<EvalData, [EvalData, EvalData]>>();

function rowsOf(evaluation: EvaluationData, split: string): SplitRows {
  let splits = splitsOf.get(evaluation);
  if (!splits) splitsOf.set(evaluation, (splits = splitRows(evaluation)));
  const found = splits.find((s) => s.split_name === split);
  if (!found) throw new RangeError(`no split '${split}'`);
  return found;
}

function measure(evaluation: EvaluationData, slice: Slice, input: SliceInput): SplitMeasure[] {
  return input.splits.map((split_name) => {
    const part = inSplit(evaluation, slice, split_name);
    return {
      split_name,
      count: sliceSize(part),
      used: sliceUsed(evaluation, part),
      metrics: measureSlice(evaluation, part, input.metrics, input.iouThreshold),
    };
  });
}

export function compute<K extends ComputeKind>(
  evaluation: EvaluationData,
  task: ComputeTask<K>,
): ComputeOutput<K>;
export function compute(evaluation: EvaluationData, task: ComputeTask): unknown {
  const { task: type, data } = evaluation;
  const options = { iouThreshold: evaluation.iouThreshold };
  switch (task.kind) {
    case 'report':
      return performanceReport(type, data, [rowsOf(evaluation, task.split)], options);
    case 'finegrained':
      return finegrainedReport(type, data, [rowsOf(evaluation, task.split)], options);
    case 'coverage':
      return predictionCoverage(type, data);
    case 'slice':
      return measure(evaluation, task.slice, task);
    case 'metadata': {
      const binned = metadataBins(
        { length: task.map.length },
        task.metadataId,
        task.column,
        task.maxBins,
      );
      return {
        type: binned.type,
        bins: binned.bins.map(({ rows, ...bin }) => ({
          ...bin,
          splits: measure(evaluation, sliceOfRows(task.level, task.map, rows), task),
        })),
      };
    }
  }
}

function aligned(a: EvalData, b: EvalData): [EvalData, EvalData] {
  let byB = alignedPairs.get(a);
  if (!byB) alignedPairs.set(a, (byB = new WeakMap()));
  const kept = byB.get(b);
  if (kept) return kept;
  const pair = alignClasses(a, b);
  byB.set(b, pair);
  return pair;
}

export function computePair<K extends PairKind>(
  a: EvaluationData,
  b: EvaluationData,
  task: PairTask<K>,
): PairOutput<K>;
export function computePair(a: EvaluationData, b: EvaluationData, task: PairTask): unknown {
  switch (task.kind) {
    case 'compare': {
      if (a.splitOf.length !== b.splitOf.length)
        throw new RangeError("the two models' evaluation data hold different samples");
      const [dataA, dataB] = aligned(a.data, b.data);
      return compareModels(a.task, dataA, dataB, rowsOf(a, task.split).rows, {
        metric: task.metric,
        iouThreshold: task.iouThreshold,
        valueName: task.valueName,
      });
    }
  }
}

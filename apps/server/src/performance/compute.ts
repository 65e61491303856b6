// What the performance thread computes (compute.worker.ts; docs/model-performance.md) on a
// prediction set's evaluation data: one split's report or curves, the prediction coverage, a
// slice's metrics per split, and the metrics per bin of a metadata column. Pure: the thread runs
// it, and tests run it here to compare.
import type { Column } from '@loupe/analysis';
import type { DataLevel } from '@loupe/contracts';
import {
  finegrainedReport,
  performanceReport,
  predictionCoverage,
  type FinegrainedReport,
  type MetricValue,
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

const splitsOf = new WeakMap<EvaluationData, SplitRows[]>();

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

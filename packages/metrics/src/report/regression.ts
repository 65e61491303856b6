// Performance report of regression: MSE and MAE per value name and their uniform average
// (scikit-learn), and the fine-grained histogram of signed errors per value name.
import { meanErrors, regressionReport } from '../regression.js';
import { histogram, histogramPoints } from './histogram.js';
import type {
  PredictionCoverage,
  RawFinegrained,
  SplitMetrics,
  SplitRequest,
  SplitRows,
  ValueEvalData,
} from './index.js';

export const REGRESSION_METRICS: readonly string[] = ['mean_squared_error', 'mean_absolute_error'];

/** Bins of the error histogram of each value name. */
export const ERROR_HISTOGRAM_BINS = 30;

const validated = new WeakSet<ValueEvalData>();

export function regressionSamples(data: ValueEvalData): number {
  const V = data.valueNames.length;
  if (V < 1) throw new RangeError('valueNames must not be empty');
  const N = data.truth.length / V;
  if (validated.has(data)) return N;
  if (!Number.isInteger(N)) {
    throw new RangeError(`truth has ${data.truth.length} values, not a multiple of ${V}`);
  }
  if (data.pred.length !== data.truth.length) {
    throw new RangeError(`pred has ${data.pred.length} values, not ${N}×${V}`);
  }
  if (new Set(data.valueNames).size !== V) throw new RangeError('valueNames must be distinct');
  validated.add(data);
  return N;
}

/** Column v of truth and prediction over the rows. */
function column(
  data: ValueEvalData,
  rows: Uint32Array,
  v: number,
): { truth: Float64Array; pred: Float64Array } {
  const V = data.valueNames.length;
  const truth = new Float64Array(rows.length);
  const pred = new Float64Array(rows.length);
  for (let j = 0; j < rows.length; j++) {
    truth[j] = data.truth[rows[j]! * V + v]!;
    pred[j] = data.pred[rows[j]! * V + v]!;
  }
  return { truth, pred };
}

/** Pairs where either side is NaN are left out, per value name (missing predictions included). */
export function regressionSplit(
  data: ValueEvalData,
  rows: Uint32Array,
  request: SplitRequest,
): SplitMetrics {
  const labels: Record<string, Float64Array> = {};
  const predictions: Record<string, Float64Array> = {};
  data.valueNames.forEach((name, v) => {
    const { truth, pred } = column(data, rows, v);
    labels[name] = truth;
    predictions[name] = pred;
  });
  const report = regressionReport(labels, predictions);
  return {
    metrics: { mean_squared_error: report.overall.mse, mean_absolute_error: report.overall.mae },
    entities: request.entities
      ? data.valueNames.map((key) => ({
          key,
          values: {
            mean_squared_error: report.perValue[key]!.mse,
            mean_absolute_error: report.perValue[key]!.mae,
          },
        }))
      : [],
  };
}

/** A sample counts when it has any ground-truth value; missing when it has no predicted one. */
export function regressionCoverage(
  data: ValueEvalData,
  rows: Uint32Array | null,
): PredictionCoverage {
  const V = data.valueNames.length;
  const n = rows ? rows.length : data.truth.length / V;
  let items = 0;
  let missing = 0;
  for (let j = 0; j < n; j++) {
    const i = rows ? rows[j]! : j;
    let labelled = false;
    let predicted = false;
    for (let v = 0; v < V; v++) {
      if (!Number.isNaN(data.truth[i * V + v]!)) labelled = true;
      if (!Number.isNaN(data.pred[i * V + v]!)) predicted = true;
    }
    if (!labelled) continue;
    items++;
    if (!predicted) missing++;
  }
  return { num_items: items, num_missing: missing };
}

/**
 * Per value name, a histogram of the signed error (prediction − ground truth) in 30 equal bins
 * over the range of that value's errors across all the given splits (so splits share bins),
 * with the split's MAE as summary.
 */
export function regressionFinegrained(
  data: ValueEvalData,
  splits: readonly SplitRows[],
): RawFinegrained {
  const perSplit = splits.map(() => [] as { errors: Float64Array; mae: number }[]);
  const ranges = data.valueNames.map((_, v) => {
    let min = Infinity;
    let max = -Infinity;
    splits.forEach((split, s) => {
      const { truth, pred } = column(data, split.rows, v);
      const errors = new Float64Array(truth.length);
      for (let j = 0; j < truth.length; j++) {
        const e = pred[j]! - truth[j]!;
        errors[j] = e;
        if (e < min) min = e;
        if (e > max) max = e;
      }
      perSplit[s]!.push({ errors, mae: meanErrors(truth, pred).mae });
    });
    // One value everywhere (e.g. perfect predictions): a unit-wide range around it.
    return min === max ? { min: min - 0.5, max: max + 0.5 } : { min, max };
  });
  return {
    kind: 'error_distribution',
    dimension_names: ['Error (prediction − ground truth)', 'Items'],
    split_performance: splits.map((split, s) => ({
      split_name: split.split_name,
      performance: data.valueNames.map((name, v) => {
        const { errors, mae } = perSplit[s]![v]!;
        const range = ranges[v]!;
        const finite = Number.isFinite(range.min);
        return {
          name,
          values: finite
            ? histogramPoints(histogram(errors, { ...range, bins: ERROR_HISTOGRAM_BINS }))
            : [],
          summary: { metric_name: 'mean_absolute_error', value: mae },
        };
      }),
      average_performance: null,
    })),
  };
}

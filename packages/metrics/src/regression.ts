// Regression metrics: mean squared and mean absolute error per value name and overall
// (scikit-learn's mean_squared_error / mean_absolute_error, multioutput='uniform_average').

export interface ErrorPair {
  mse: number;
  mae: number;
}

export interface RegressionReport {
  /** Per value name, over the items that have both a label and a prediction for it. */
  perValue: Record<string, ErrorPair & { count: number }>;
  /** Unweighted mean over the value names of their MSE and MAE (NaN with no value at all). */
  overall: ErrorPair;
}

/** MSE and MAE of two equally long arrays; pairs where either side is NaN are skipped. */
export function meanErrors(
  yTrue: ArrayLike<number>,
  yPred: ArrayLike<number>,
): ErrorPair & { count: number } {
  if (yTrue.length !== yPred.length) {
    throw new RangeError(`yTrue has ${yTrue.length} values but yPred has ${yPred.length}`);
  }
  let squared = 0;
  let absolute = 0;
  let count = 0;
  for (let i = 0; i < yTrue.length; i++) {
    const d = yPred[i]! - yTrue[i]!;
    if (Number.isNaN(d)) continue;
    squared += d * d;
    absolute += Math.abs(d);
    count++;
  }
  return count === 0
    ? { mse: NaN, mae: NaN, count }
    : { mse: squared / count, mae: absolute / count, count };
}

/** MSE and MAE per value name (each a column of labels and predictions) and their mean. */
export function regressionReport(
  labels: Record<string, ArrayLike<number>>,
  predictions: Record<string, ArrayLike<number>>,
): RegressionReport {
  const perValue: RegressionReport['perValue'] = {};
  let mseSum = 0;
  let maeSum = 0;
  let n = 0;
  for (const [name, yTrue] of Object.entries(labels)) {
    const yPred = predictions[name];
    if (!yPred) throw new RangeError(`no predictions for value "${name}"`);
    const errors = meanErrors(yTrue, yPred);
    perValue[name] = errors;
    if (errors.count > 0) {
      mseSum += errors.mse;
      maeSum += errors.mae;
      n++;
    }
  }
  return {
    perValue,
    overall: n === 0 ? { mse: NaN, mae: NaN } : { mse: mseSum / n, mae: maeSum / n },
  };
}

// Regression performance report: a hand-computed case, the error histogram, and a naive second
// implementation on a larger random case.
import { describe, expect, it } from 'vitest';
import {
  finegrainedReport,
  performanceReport,
  predictionCoverage,
  sliceMetrics,
  type ValueEvalData,
} from './index.js';
import { opts, prng, rows } from './test-support.js';

function valueData(valueNames: string[], truth: number[][], pred: number[][]): ValueEvalData {
  return {
    kind: 'value',
    valueNames,
    truth: Float64Array.from(truth.flat()),
    pred: Float64Array.from(pred.flat()),
  };
}

describe('regression report by hand', () => {
  // Samples (truth → prediction) of values x and y; NaN pairs are left out per value:
  // 0: x 1→2 (+1), y 2→2 (0); 1: x 3→1 (−2), y NaN→5 (out); 2: x 0→NaN (out), y 4→1 (−3);
  // 3: x 5→5 (0), y 1→3 (+2).
  const data = valueData(
    ['x', 'y'],
    [
      [1, 2],
      [3, NaN],
      [0, 4],
      [5, 1],
    ],
    [
      [2, 2],
      [1, 5],
      [NaN, 1],
      [5, 3],
    ],
  );
  const splits = [
    { split_name: 'all', rows: rows(0, 1, 2, 3) },
    { split_name: 'empty', rows: rows() },
  ];
  const report = performanceReport('regression', data, splits, opts);

  it('computes MSE and MAE per value name and their uniform average', () => {
    // x: errors +1, −2, 0 → MSE (1 + 4 + 0)/3 = 5/3, MAE (1 + 2 + 0)/3 = 1.
    // y: errors 0, −3, +2 → MSE (0 + 9 + 4)/3 = 13/3, MAE 5/3.
    const [x, y] = report.overall.splits[0]!.rows;
    expect(report.overall.primary_key).toBe('value_name');
    expect(report.overall.metrics).toEqual(['mean_squared_error', 'mean_absolute_error']);
    expect(x!.key).toBe('x');
    expect(x!.values.mean_squared_error).toBeCloseTo(5 / 3, 12);
    expect(x!.values.mean_absolute_error).toBeCloseTo(1, 12);
    expect(y!.values.mean_squared_error).toBeCloseTo(13 / 3, 12);
    expect(y!.values.mean_absolute_error).toBeCloseTo(5 / 3, 12);
    // Overall: MSE (5/3 + 13/3)/2 = 3, MAE (1 + 5/3)/2 = 4/3.
    const [mse, mae] = report.statistics;
    expect(mse!.metric_name).toBe('mean_squared_error');
    expect(mse!.values[0]!.value).toBeCloseTo(3, 12);
    expect(mae!.values[0]!.value).toBeCloseTo(4 / 3, 12);
  });

  it('gives null for an empty split', () => {
    expect(report.statistics.map((s) => s.values[1]!.value)).toEqual([null, null]);
    expect(report.overall.splits[1]!.rows[0]!.values).toEqual({
      mean_squared_error: null,
      mean_absolute_error: null,
    });
  });

  it('answers slices', () => {
    // Sample 0 alone: x error +1, y error 0 → MSE (1 + 0)/2, MAE (1 + 0)/2.
    expect(sliceMetrics('regression', data, rows(0), ['mean_absolute_error'], opts)).toEqual({
      mean_absolute_error: 0.5,
    });
  });

  it('counts samples with a label and without any prediction', () => {
    const partial = valueData(['v'], [[1], [2], [NaN]], [[1], [NaN], [3]]);
    // Sample 2 has no label; sample 1 has no prediction.
    expect(predictionCoverage('regression', partial)).toEqual({ num_items: 2, num_missing: 1 });
  });

  it('draws a 30-bin histogram of signed errors per value name', () => {
    const fine = finegrainedReport('regression', data, splits, opts);
    expect(fine.kind).toBe('error_distribution');
    const [x, y] = fine.split_performance[0]!.performance;
    // x errors −2, 0, +1: range [−2, 1] in bins of 0.1; −2 → bin 0, 0 → bin 20, 1 → bin 29.
    expect(x!.values).toHaveLength(30);
    expect(x!.values[0]![0]).toBeCloseTo(-1.95, 12);
    const counts = x!.values.map(([, count]) => count);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    expect([counts[0], counts[20], counts[29]]).toEqual([1, 1, 1]);
    expect(x!.summary).toEqual({ metric_name: 'mean_absolute_error', value: 1 });
    expect(y!.values.reduce((a, [, count]) => a + count, 0)).toBe(3);
    // The empty split shares the bins, with nothing in them.
    const empty = fine.split_performance[1]!.performance[0]!;
    expect(empty.values.map(([centre]) => centre)).toEqual(x!.values.map(([centre]) => centre));
    expect(empty.values.every(([, count]) => count === 0)).toBe(true);
    expect(empty.summary!.value).toBeNull();
  });
});

describe('regression report against a naive implementation', () => {
  const random = prng(5);
  const N = 2000;
  const names = ['a', 'b', 'c'];
  const value = () => (random() < 0.05 ? NaN : (random() - 0.5) * 100);
  const truth = Array.from({ length: N }, () => names.map(value));
  const pred = truth.map((r) => r.map((v) => (random() < 0.05 ? NaN : v + (random() - 0.5) * 10)));
  const data = valueData(names, truth, pred);
  const all = Uint32Array.from({ length: N }, (_, i) => i);
  const splits = [
    { split_name: 'all', rows: all },
    { split_name: 'odd', rows: all.filter((i) => i % 2 === 1) },
  ];

  it('agrees per value name and overall in every split', () => {
    const report = performanceReport('regression', data, splits, opts);
    splits.forEach(({ rows: r }, s) => {
      let mseSum = 0;
      let maeSum = 0;
      names.forEach((_, v) => {
        let squared = 0;
        let absolute = 0;
        let n = 0;
        for (const i of r) {
          const d = pred[i]![v]! - truth[i]![v]!;
          if (Number.isNaN(d)) continue;
          squared += d * d;
          absolute += Math.abs(d);
          n++;
        }
        const values = report.overall.splits[s]!.rows[v]!.values;
        expect(values.mean_squared_error).toBeCloseTo(squared / n, 9);
        expect(values.mean_absolute_error).toBeCloseTo(absolute / n, 9);
        mseSum += squared / n;
        maeSum += absolute / n;
      });
      expect(report.statistics[0]!.values[s]!.value).toBeCloseTo(mseSum / 3, 9);
      expect(report.statistics[1]!.values[s]!.value).toBeCloseTo(maeSum / 3, 9);
    });
  });

  it('puts every finite error in exactly one histogram bin', () => {
    const fine = finegrainedReport('regression', data, splits, opts);
    names.forEach((_, v) => {
      const finite = truth.filter((t, i) => !Number.isNaN(pred[i]![v]! - t[v]!)).length;
      const counts = fine.split_performance[0]!.performance[v]!.values.map(([, c]) => c);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(finite);
    });
  });
});

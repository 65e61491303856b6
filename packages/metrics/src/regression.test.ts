// Regression metrics against scikit-learn's answers (fixtures) and by hand.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meanErrors, regressionReport } from './regression.js';

interface RegressionCase {
  names: string[];
  y_true: number[][];
  y_pred: number[][];
  mse: number[];
  mae: number[];
  mse_overall: number;
  mae_overall: number;
}

const { regression } = JSON.parse(
  readFileSync(new URL('../test-fixtures/sklearn-cases.json', import.meta.url), 'utf8'),
) as { regression: RegressionCase[] };

describe('regression', () => {
  for (const c of regression) {
    it(`agrees with scikit-learn on ${c.names.join(', ')}`, () => {
      const column = (rows: number[][], j: number) => rows.map((r) => r[j]!);
      const labels = Object.fromEntries(c.names.map((n, j) => [n, column(c.y_true, j)]));
      const predictions = Object.fromEntries(c.names.map((n, j) => [n, column(c.y_pred, j)]));
      const report = regressionReport(labels, predictions);
      c.names.forEach((n, j) => {
        expect(report.perValue[n]!.mse).toBeCloseTo(c.mse[j]!, 12);
        expect(report.perValue[n]!.mae).toBeCloseTo(c.mae[j]!, 12);
      });
      expect(report.overall.mse).toBeCloseTo(c.mse_overall, 12);
      expect(report.overall.mae).toBeCloseTo(c.mae_overall, 12);
    });
  }

  it('computes by hand, skipping missing values', () => {
    expect(meanErrors([1, 2, 3], [2, 2, 5])).toEqual({ mse: 5 / 3, mae: 1, count: 3 });
    expect(meanErrors([1, NaN], [3, 1])).toEqual({ mse: 4, mae: 2, count: 1 });
    expect(meanErrors([], []).mse).toBeNaN();
    expect(() => regressionReport({ a: [1] }, {})).toThrow(/no predictions for value "a"/);
  });

  it('perfect predictions give 0 and MAE² ≤ MSE', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1 }),
        (y) => {
          expect(meanErrors(y, y)).toMatchObject({ mse: 0, mae: 0 });
          const shifted = y.map((v, i) => v + (i % 3) - 1);
          const e = meanErrors(y, shifted);
          expect(e.mae * e.mae).toBeLessThanOrEqual(e.mse * (1 + 1e-12));
        },
      ),
    );
  });
});

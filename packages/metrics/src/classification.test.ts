// Classification metrics against scikit-learn's answers (fixtures), by hand, and against a
// deliberately simple second implementation on random cases.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  binaryCrossEntropy,
  classificationReport,
  confusionMatrix,
  equalErrorRate,
  rocAuc,
  rocCurve,
} from './classification.js';
import { sortFloat64 } from './sort.js';

interface SklearnCase {
  k: number;
  y_true: number[];
  y_pred: number[];
  scores: number[][];
  accuracy: number;
  confusion: number[][];
  macro: { precision: number; recall: number; f1: number };
  micro: { precision: number; recall: number; f1: number };
  weighted: { precision: number; recall: number; f1: number };
  per_class: { precision: number[]; recall: number[]; f1: number[]; support: number[] };
  roc_auc?: number;
  log_loss?: number;
  roc_fpr?: number[];
  roc_tpr?: number[];
  roc_auc_ovr_macro?: number;
  roc_auc_ovr_per_class: number[];
}

const { classification: cases } = JSON.parse(
  readFileSync(new URL('../test-fixtures/sklearn-cases.json', import.meta.url), 'utf8'),
) as { classification: SklearnCase[] };

describe('classificationReport against scikit-learn', () => {
  for (const c of cases) {
    it(`agrees to 1e-12 on ${c.y_true.length} items × ${c.k} classes`, () => {
      const report = classificationReport({
        numClasses: c.k,
        yTrue: c.y_true,
        yPred: c.y_pred,
        scores: c.scores.flat(),
      });
      expect(report.accuracy).toBeCloseTo(c.accuracy, 12);
      expect([...report.confusionMatrix]).toEqual(c.confusion.flat());
      for (const avg of ['macro', 'micro', 'weighted'] as const) {
        expect(report[avg].precision).toBeCloseTo(c[avg].precision, 12);
        expect(report[avg].recall).toBeCloseTo(c[avg].recall, 12);
        expect(report[avg].f1).toBeCloseTo(c[avg].f1, 12);
      }
      report.perClass.forEach((m, k) => {
        expect(m.precision).toBeCloseTo(c.per_class.precision[k]!, 12);
        expect(m.recall).toBeCloseTo(c.per_class.recall[k]!, 12);
        expect(m.f1).toBeCloseTo(c.per_class.f1[k]!, 12);
        expect(m.support).toBe(c.per_class.support[k]);
        expect(m.rocAucOvr).toBeCloseTo(c.roc_auc_ovr_per_class[k]!, 12);
      });
      if (c.k === 2) {
        const positive = c.y_true.map((y) => y === 1);
        const p1 = c.scores.map((row) => row[1]!);
        expect(rocAuc(positive, p1)).toBeCloseTo(c.roc_auc!, 12);
        expect(binaryCrossEntropy(positive, p1)).toBeCloseTo(c.log_loss!, 12);
        const curve = rocCurve(positive, p1);
        expect([...curve.fpr]).toEqual(c.roc_fpr);
        expect([...curve.tpr]).toEqual(c.roc_tpr);
      } else {
        expect(report.rocAucOvrMacro).toBeCloseTo(c.roc_auc_ovr_macro!, 12);
      }
    });
  }
  it('fixtures include a class that is never predicted (zero division)', () => {
    expect(
      cases.some((c) =>
        c.per_class.precision.some((p, k) => p === 0 && c.per_class.support[k]! > 0),
      ),
    ).toBe(true);
  });
});

describe('classification by hand', () => {
  it('counts TP, FP, FN, TN and the derived rates', () => {
    // true: a a a b b c ; pred: a a b b c c
    const report = classificationReport({
      numClasses: 3,
      yTrue: [0, 0, 0, 1, 1, 2],
      yPred: [0, 0, 1, 1, 2, 2],
    });
    expect([...report.confusionMatrix]).toEqual([2, 1, 0, 0, 1, 1, 0, 0, 1]);
    const b = report.perClass[1]!;
    expect([b.tp, b.fp, b.fn, b.tn]).toEqual([1, 1, 1, 3]);
    expect(b.precision).toBe(0.5);
    expect(b.recall).toBe(0.5);
    expect(b.specificity).toBe(0.75);
    expect(b.falseDiscoveryRate).toBe(0.5);
    expect(b.falseNegativeRate).toBe(0.5);
    expect(report.accuracy).toBe(4 / 6);
    expect(report.macro.precision).toBeCloseTo((1 + 0.5 + 0.5) / 3, 15);
    expect(report.weighted.recall).toBeCloseTo((3 * (2 / 3) + 2 * 0.5 + 1 * 1) / 6, 15);
    expect(Number.isNaN(report.rocAucOvrMacro)).toBe(true);
  });

  it('gives 0 on zero division and leaves absent classes out of the averages', () => {
    const report = classificationReport({ numClasses: 4, yTrue: [0, 0, 1], yPred: [0, 0, 0] });
    expect(report.perClass[1]!.precision).toBe(0); // never predicted
    expect(report.perClass[1]!.f1).toBe(0);
    expect(report.perClass[3]!.recall).toBe(0); // no support at all
    // Classes 2 and 3 occur nowhere: macro over {0, 1} as scikit-learn without labels=.
    expect(report.macro.recall).toBe(0.5);
    const all = classificationReport(
      { numClasses: 4, yTrue: [0, 0, 1], yPred: [0, 0, 0] },
      { averageOver: [0, 1, 2, 3] },
    );
    expect(all.macro.recall).toBe(0.25);
  });

  it('handles no items at all', () => {
    const report = classificationReport({ numClasses: 2, yTrue: [], yPred: [] });
    expect(report.accuracy).toBe(0);
    expect(report.macro.f1).toBe(0);
  });

  it('computes binary ROC AUC with ties as one half, and NaN with one class', () => {
    expect(rocAuc([1, 0, 1, 0], [0.9, 0.1, 0.4, 0.4])).toBe(0.875);
    expect(rocAuc([1, 1], [0.2, 0.3])).toBeNaN();
  });

  it('interpolates the equal error rate on the ROC curve', () => {
    // Scores 0.1..0.4 negatives, 0.3..0.6 positives: FPR = FNR between two ROC points.
    const labels = [0, 0, 0, 0, 1, 1, 1, 1];
    const scores = [0.1, 0.2, 0.3, 0.45, 0.35, 0.5, 0.55, 0.6];
    // ROC points (fpr, fnr): after 0.5 → (0, 0.25); after 0.45 → (0.25, 0.25): EER 0.25.
    expect(equalErrorRate(labels, scores).eer).toBeCloseTo(0.25, 15);
    // Perfectly separated: 0. Reversed: 1.
    expect(equalErrorRate([0, 1], [0.1, 0.9]).eer).toBe(0);
    expect(equalErrorRate([0, 1], [0.9, 0.1]).eer).toBe(1);
    // A crossing between two points: (0, 0.5) → (0.5, 0): EER 0.25 by interpolation.
    expect(equalErrorRate([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1]).eer).toBeCloseTo(0.25, 15);
  });

  it('clips probabilities in binary cross-entropy as log_loss', () => {
    expect(binaryCrossEntropy([1, 0], [0.5, 0.5])).toBeCloseTo(Math.log(2), 15);
    expect(binaryCrossEntropy([1], [0])).toBeCloseTo(-Math.log(2.220446049250313e-16), 12);
    expect(() => binaryCrossEntropy([1], [1.5])).toThrow(/not in \[0, 1\]/);
  });

  it('rejects labels outside the classes, naming the item', () => {
    expect(() => confusionMatrix([0, 3], [0, 1], 3)).toThrow(/yTrue\[1\] = 3/);
  });
});

/** Second, deliberately simple implementation: pairs of items for AUC, plain loops elsewhere. */
function naiveAuc(labels: boolean[], scores: number[]): number {
  let u = 0;
  let pairs = 0;
  labels.forEach((li, i) => {
    if (!li) return;
    labels.forEach((lj, j) => {
      if (lj) return;
      pairs++;
      u += scores[i]! > scores[j]! ? 1 : scores[i] === scores[j] ? 0.5 : 0;
    });
  });
  return u / pairs;
}

describe('classification invariants', () => {
  const caseArb = fc
    .integer({ min: 2, max: 5 })
    .chain((k) =>
      fc.tuple(
        fc.constant(k),
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: k - 1 }),
            fc.integer({ min: 0, max: k - 1 }),
            fc.array(fc.integer({ min: 0, max: 20 }), { minLength: k, maxLength: k }),
          ),
          { minLength: 1, maxLength: 120 },
        ),
      ),
    );

  it('matches the simple implementation and stays within [0, 1]', () => {
    fc.assert(
      fc.property(caseArb, ([k, rows]) => {
        const yTrue = rows.map((r) => r[0]);
        const yPred = rows.map((r) => r[1]);
        const scores = rows.flatMap((r) => r[2].map((s) => s / 20));
        const report = classificationReport({ numClasses: k, yTrue, yPred, scores });
        for (let c = 0; c < k; c++) {
          let tp = 0;
          let fp = 0;
          let fn = 0;
          rows.forEach(([t, p]) => {
            if (t === c && p === c) tp++;
            else if (p === c) fp++;
            else if (t === c) fn++;
          });
          const m = report.perClass[c]!;
          expect([m.tp, m.fp, m.fn, m.tn]).toEqual([tp, fp, fn, rows.length - tp - fp - fn]);
          const positives = yTrue.map((t) => t === c);
          if (positives.some(Boolean) && positives.some((p) => !p)) {
            const column = rows.map((_, i) => scores[i * k + c]!);
            expect(m.rocAucOvr).toBeCloseTo(naiveAuc(positives, column), 12);
          } else expect(m.rocAucOvr).toBeNaN();
          for (const v of [m.precision, m.recall, m.f1, m.specificity]) {
            expect(v).toBeGreaterThanOrEqual(0);
            expect(v).toBeLessThanOrEqual(1);
          }
        }
        expect(report.accuracy).toBe(rows.filter((r) => r[0] === r[1]).length / rows.length);
        // All classes are averaged when predictions stay within the true classes: micro = accuracy.
        expect(report.micro.f1).toBeCloseTo(report.accuracy, 12);
      }),
    );
  });

  it('perfect predictions give 1 and do not depend on item order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 50 }),
        (y) => {
          const report = classificationReport({ numClasses: 4, yTrue: y, yPred: y });
          expect(report.accuracy).toBe(1);
          expect(report.macro.f1).toBe(1);
          const reversed = classificationReport({
            numClasses: 4,
            yTrue: [...y].reverse(),
            yPred: [...y].reverse(),
          });
          expect(reversed).toEqual(report);
        },
      ),
    );
  });

  it('radix sort agrees with the built-in sort, negatives and ties included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true }), { minLength: 500, maxLength: 2000 }),
        (values) => {
          expect([...sortFloat64(values)]).toEqual([...Float64Array.from(values).sort()]);
        },
      ),
      { numRuns: 30 },
    );
  });
});

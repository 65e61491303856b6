// Classification performance report: hand-computed small cases, binary ROC/EER, the PR curve of a
// perfect classifier, and a naive second implementation on a larger random case.
import { describe, expect, it } from 'vitest';
import { rocAuc } from '../classification.js';
import {
  finegrainedReport,
  performanceReport,
  predictionCoverage,
  sliceMetrics,
  type ClassEvalData,
  type PerformanceReport,
  type SplitRows,
} from './index.js';
import { opts, prng, rows, statistic } from './test-support.js';

function classData(
  classes: string[],
  truth: number[],
  pred: number[],
  extra: { score?: number[]; probabilities?: number[][] } = {},
): ClassEvalData {
  return {
    kind: 'class',
    classes,
    truth: Int32Array.from(truth),
    pred: Int32Array.from(pred),
    score: Float64Array.from(extra.score ?? pred.map(() => NaN)),
    probabilities: extra.probabilities ? Float32Array.from(extra.probabilities.flat()) : null,
  };
}

function row(report: PerformanceReport, split: string, key: string) {
  return report.overall.splits.find((s) => s.split_name === split)!.rows.find((r) => r.key === key)!
    .values;
}

describe('classification report by hand', () => {
  // Samples (truth → prediction): 0 cat→cat, 1 cat→dog, 2 dog→dog, 3 dog→(none), 4 bird→bird,
  // 5 (no truth)→cat, left out, 6 bird→cat.
  const data = classData(['cat', 'dog', 'bird'], [0, 0, 1, 1, 2, -1, 2], [0, 1, 1, -1, 2, 0, 0]);
  const splits: SplitRows[] = [
    { split_name: 'all', rows: rows(0, 1, 2, 3, 4, 5, 6) },
    { split_name: 'train', rows: rows(0, 1, 2) },
    { split_name: 'test', rows: rows(3, 4, 5, 6) },
    { split_name: 'empty', rows: rows() },
  ];
  const report = performanceReport('classification', data, splits, opts);

  it("computes 'all' with missing predictions counted as wrong", () => {
    // 6 samples with truth, correct: 0, 2, 4 → accuracy 3/6.
    expect(statistic(report, 'accuracy', 'all')).toBeCloseTo(0.5, 12);
    expect(statistic(report, 'count', 'all')).toBe(6);
    // cat: TP 1 (s0), FP 1 (s6), FN 1 (s1) → P 1/2, R 1/2, F1 2/(2+1+1) = 1/2.
    // dog: TP 1 (s2), FP 1 (s1), FN 1 (s3, missing) → P 1/2, R 1/2, F1 1/2.
    // bird: TP 1 (s4), FP 0, FN 1 (s6) → P 1, R 1/2, F1 2/3.
    expect(row(report, 'all', 'cat')).toEqual({
      f1_score: 0.5,
      count: 2,
      precision: 0.5,
      recall: 0.5,
    });
    expect(row(report, 'all', 'dog')).toEqual({
      f1_score: 0.5,
      count: 2,
      precision: 0.5,
      recall: 0.5,
    });
    expect(row(report, 'all', 'bird')!.f1_score).toBeCloseTo(2 / 3, 12);
    expect(row(report, 'all', 'bird')!.precision).toBe(1);
    // Macro: P (1/2 + 1/2 + 1)/3 = 2/3, R 1/2, F1 (1/2 + 1/2 + 2/3)/3 = 5/9.
    expect(statistic(report, 'macro_precision', 'all')).toBeCloseTo(2 / 3, 12);
    expect(statistic(report, 'macro_recall', 'all')).toBeCloseTo(0.5, 12);
    expect(statistic(report, 'macro_f1_score', 'all')).toBeCloseTo(5 / 9, 12);
    // Three classes: no EER.
    expect(statistic(report, 'equal_error_rate', 'all')).toBeNull();
  });

  it('computes each split over its own rows', () => {
    // train: 0 cat→cat, 1 cat→dog, 2 dog→dog: accuracy 2/3; cat P 1 R 1/2 F1 2/3; dog P 1/2 R 1
    // F1 2/3; bird absent (no value); macro over cat and dog: P 3/4, R 3/4, F1 2/3.
    expect(statistic(report, 'accuracy', 'train')).toBeCloseTo(2 / 3, 12);
    expect(statistic(report, 'macro_precision', 'train')).toBeCloseTo(0.75, 12);
    expect(statistic(report, 'macro_recall', 'train')).toBeCloseTo(0.75, 12);
    expect(statistic(report, 'macro_f1_score', 'train')).toBeCloseTo(2 / 3, 12);
    expect(row(report, 'train', 'bird')).toEqual({
      f1_score: null,
      count: 0,
      precision: null,
      recall: null,
    });
    // test: 3 dog→none, 4 bird→bird, 6 bird→cat (5 has no truth): accuracy 1/3.
    // dog P 0 R 0 F1 0; cat (only predicted) P 0 R 0 F1 0; bird P 1 R 1/2 F1 2/3.
    // Macro over all three: P 1/3, R 1/6, F1 2/9.
    expect(statistic(report, 'accuracy', 'test')).toBeCloseTo(1 / 3, 12);
    expect(statistic(report, 'macro_precision', 'test')).toBeCloseTo(1 / 3, 12);
    expect(statistic(report, 'macro_recall', 'test')).toBeCloseTo(1 / 6, 12);
    expect(statistic(report, 'macro_f1_score', 'test')).toBeCloseTo(2 / 9, 12);
    expect(row(report, 'test', 'cat')).toEqual({ f1_score: 0, count: 0, precision: 0, recall: 0 });
  });

  it('gives null values and zero counts for an empty split', () => {
    for (const id of ['accuracy', 'macro_f1_score', 'macro_precision', 'macro_recall']) {
      expect(statistic(report, id, 'empty')).toBeNull();
    }
    expect(statistic(report, 'count', 'empty')).toBe(0);
    expect(row(report, 'empty', 'cat')).toEqual({
      f1_score: null,
      count: 0,
      precision: null,
      recall: null,
    });
  });

  it("adds the splits' counts up to 'all'", () => {
    expect(statistic(report, 'count', 'train')! + statistic(report, 'count', 'test')!).toBe(
      statistic(report, 'count', 'all'),
    );
  });

  it('counts samples with ground truth and those without a prediction', () => {
    expect(predictionCoverage('classification', data)).toEqual({ num_items: 6, num_missing: 1 });
    expect(predictionCoverage('classification', data, rows(0, 1))).toEqual({
      num_items: 2,
      num_missing: 0,
    });
  });

  it('answers a slice with the same numbers', () => {
    expect(
      sliceMetrics('classification', data, rows(0, 1, 2), ['accuracy', 'count'], opts),
    ).toEqual({ accuracy: 2 / 3, count: 3 });
  });
});

describe('two classes: EER and ROC AUC', () => {
  // truth neg, neg, pos, pos; p(pos) 0.1, 0.6, 0.4, 0.8.
  // ROC from the highest threshold: (0,0), 0.8 pos → (0, 1/2), 0.6 neg → (1/2, 1/2),
  // 0.4 pos → (1/2, 1), 0.1 neg → (1, 1). FNR = FPR where 1 − TPR − FPR = 0: at (1/2, 1/2), EER
  // 1/2. AUC: positive-negative pairs won 0.4>0.1, 0.8>0.1, 0.8>0.6, lost 0.4<0.6 → 3/4.
  const probabilities = [
    [0.9, 0.1],
    [0.4, 0.6],
    [0.6, 0.4],
    [0.2, 0.8],
  ];
  const withProbabilities = classData(['neg', 'pos'], [0, 0, 1, 1], [0, 1, 0, 1], {
    probabilities,
  });
  // The same p(pos) from the predicted label's confidence: 1 − 0.9, 0.6, 1 − 0.6, 0.8.
  const withScores = classData(['neg', 'pos'], [0, 0, 1, 1], [0, 1, 0, 1], {
    score: [0.9, 0.6, 0.6, 0.8],
  });
  const all = [{ split_name: 'all', rows: rows(0, 1, 2, 3) }];

  it('computes EER and AUC from probabilities or from scores', () => {
    for (const data of [withProbabilities, withScores]) {
      const slice = sliceMetrics(
        'classification',
        data,
        rows(0, 1, 2, 3),
        ['equal_error_rate', 'area_under_roc'],
        opts,
      );
      expect(slice.equal_error_rate).toBeCloseTo(0.5, 12);
      expect(slice.area_under_roc).toBeCloseTo(0.75, 12);
    }
  });

  it('gives EER 0 for a perfect ranking and null without both classes', () => {
    const perfect = classData(['neg', 'pos'], [0, 0, 1, 1], [0, 0, 1, 1], {
      score: [0.9, 0.7, 0.6, 0.8],
    });
    // p(pos) 0.1, 0.3, 0.6, 0.8: every positive above every negative.
    expect(
      sliceMetrics('classification', perfect, rows(0, 1, 2, 3), ['equal_error_rate'], opts),
    ).toEqual({ equal_error_rate: 0 });
    expect(
      sliceMetrics(
        'classification',
        perfect,
        rows(0, 1),
        ['equal_error_rate', 'area_under_roc'],
        opts,
      ),
    ).toEqual({ equal_error_rate: null, area_under_roc: null });
  });

  it('gives no EER without any score', () => {
    const hard = classData(['neg', 'pos'], [0, 1], [0, 1]);
    expect(sliceMetrics('classification', hard, rows(0, 1), ['equal_error_rate'], opts)).toEqual({
      equal_error_rate: null,
    });
  });

  it('draws the ROC of the positive class with its EER', () => {
    const fine = finegrainedReport('classification', withProbabilities, all, opts);
    expect(fine.kind).toBe('roc');
    expect(fine.dimension_names).toEqual(['False positive rate', 'True positive rate']);
    const split = fine.split_performance[0]!;
    expect(split.average_performance).toBeNull();
    expect(split.performance).toHaveLength(1);
    const series = split.performance[0]!;
    expect(series.name).toBe('pos');
    expect(series.values).toEqual([
      [0, 0],
      [0, 0.5],
      [0.5, 0.5],
      [0.5, 1],
      [1, 1],
    ]);
    expect(series.summary).toEqual({ metric_name: 'equal_error_rate', value: 0.5 });
  });

  it('draws one ROC per class for audio classification, with its AUC', () => {
    const fine = finegrainedReport('audio_classification', withProbabilities, all, opts);
    expect(fine.kind).toBe('roc');
    const [neg, pos] = fine.split_performance[0]!.performance;
    // Class neg one-vs-rest: p(neg) 0.9, 0.4 (samples of neg) against 0.6, 0.2: pairs won
    // 0.9>0.6, 0.9>0.2, 0.4>0.2, lost 0.4<0.6 → AUC 3/4.
    expect(neg!.summary!.value).toBeCloseTo(0.75, 12);
    expect(pos!.summary).toEqual({ metric_name: 'area_under_roc', value: 0.75 });
    expect(fine.split_performance[0]!.average_performance!.summary!.value).toBeCloseTo(0.75, 12);
  });
});

describe('precision/recall curves', () => {
  it('gives a perfect classifier AP 1 and precision 1 up to recall 1', () => {
    // Each class: its 2 samples score 0.9, the 4 others 0.05. From the highest threshold:
    // (recall 0, precision 1) [start], 0.9 → TP 2, FP 0 → (1, 1), 0.05 → TP 2, FP 4 → (1, 1/3).
    // AP = (1 − 0) · 1 + (1 − 1) · 1/3 = 1.
    const p = (k: number) => [0, 1, 2].map((c) => (c === k ? 0.9 : 0.05));
    const data = classData(['a', 'b', 'c'], [0, 1, 2, 0, 1, 2], [0, 1, 2, 0, 1, 2], {
      probabilities: [0, 1, 2, 0, 1, 2].map(p),
    });
    const fine = finegrainedReport(
      'classification',
      data,
      [{ split_name: 'all', rows: rows(0, 1, 2, 3, 4, 5) }],
      opts,
    );
    expect(fine.kind).toBe('precision_recall');
    expect(fine.dimension_names).toEqual(['Recall', 'Precision']);
    for (const series of fine.split_performance[0]!.performance) {
      expect(series.values).toEqual([
        [0, 1],
        [1, 1],
        [1, 1 / 3],
      ]);
      expect(series.summary).toEqual({ metric_name: 'average_precision', value: 1 });
    }
    const average = fine.split_performance[0]!.average_performance!;
    expect(average.values).toHaveLength(101);
    expect(average.values.every(([, precision]) => precision === 1)).toBe(true);
    expect(average.summary!.value).toBe(1);
  });

  it('leaves a class without positives in the split empty', () => {
    const data = classData(['a', 'b', 'c'], [0, 1, 0], [0, 1, 1], { score: [0.9, 0.8, 0.7] });
    const fine = finegrainedReport(
      'classification',
      data,
      [{ split_name: 'all', rows: rows(0, 1, 2) }],
      opts,
    );
    const c = fine.split_performance[0]!.performance[2]!;
    expect(c).toEqual({
      name: 'c',
      values: [],
      summary: { metric_name: 'average_precision', value: null },
    });
  });
});

/** Textbook definitions, one sample at a time. */
function naiveClassification(data: ClassEvalData, sampleRows: number[]) {
  const K = data.classes.length;
  const used = sampleRows.filter((i) => data.truth[i]! >= 0);
  let correct = 0;
  const perClass = data.classes.map(() => ({ tp: 0, fp: 0, fn: 0, support: 0 }));
  for (const i of used) {
    const t = data.truth[i]!;
    const p = data.pred[i]!;
    perClass[t]!.support++;
    if (p === t) {
      correct++;
      perClass[t]!.tp++;
    } else {
      perClass[t]!.fn++;
      if (p >= 0) perClass[p]!.fp++;
    }
  }
  const div = (a: number, b: number) => (b === 0 ? 0 : a / b);
  const present = perClass
    .map((c, k) => ({ ...c, k }))
    .filter((c) => c.support > 0 || c.tp + c.fp > 0);
  const macro = (f: (c: (typeof present)[number]) => number) =>
    present.reduce((s, c) => s + f(c), 0) / present.length;
  return {
    count: used.length,
    accuracy: correct / used.length,
    macro_precision: macro((c) => div(c.tp, c.tp + c.fp)),
    macro_recall: macro((c) => div(c.tp, c.tp + c.fn)),
    macro_f1_score: macro((c) => div(2 * c.tp, 2 * c.tp + c.fp + c.fn)),
    perClass,
    K,
  };
}

/** Average precision from its definition: every distinct threshold, O(n²). */
function naiveAveragePrecision(positive: boolean[], scores: number[]): number {
  const thresholds = [...new Set(scores)].sort((a, b) => b - a);
  const P = positive.filter(Boolean).length;
  let ap = 0;
  let previousRecall = 0;
  for (const s of thresholds) {
    let tp = 0;
    let fp = 0;
    scores.forEach((v, i) => {
      if (v >= s) {
        if (positive[i]) tp++;
        else fp++;
      }
    });
    ap += (tp / P - previousRecall) * (tp / (tp + fp));
    previousRecall = tp / P;
  }
  return ap;
}

describe('classification report against a naive implementation', () => {
  const random = prng(17);
  const N = 3000;
  const K = 4;
  const truth: number[] = [];
  const pred: number[] = [];
  const score: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = random() < 0.05 ? -1 : Math.floor(random() * K);
    truth.push(t);
    const r = random();
    pred.push(r < 0.05 ? -1 : r < 0.7 && t >= 0 ? t : Math.floor(random() * K));
    // Rounded to make ties.
    score.push(Math.round(random() * 20) / 20);
  }
  const data = classData(['a', 'b', 'c', 'd'], truth, pred, { score });
  const split = (s: number) => Array.from({ length: N }, (_, i) => i).filter((i) => i % 3 === s);
  const splits = [
    { split_name: 'all', rows: Uint32Array.from({ length: N }, (_, i) => i) },
    ...[0, 1, 2].map((s) => ({ split_name: `s${s}`, rows: Uint32Array.from(split(s)) })),
  ];
  const report = performanceReport('classification', data, splits, opts);

  it('agrees on accuracy, macro averages and per-class rows in every split', () => {
    for (const { split_name, rows: r } of splits) {
      const naive = naiveClassification(data, [...r]);
      for (const id of ['accuracy', 'macro_precision', 'macro_recall', 'macro_f1_score', 'count']) {
        expect(statistic(report, id, split_name)).toBeCloseTo(
          naive[id as keyof typeof naive] as number,
          12,
        );
      }
      data.classes.forEach((name, k) => {
        const c = naive.perClass[k]!;
        expect(row(report, split_name, name)!.count).toBe(c.support);
        expect(row(report, split_name, name)!.recall).toBeCloseTo(c.tp / c.support, 12);
      });
    }
  });

  it("adds the splits' counts up to 'all'", () => {
    const sum = [0, 1, 2].reduce((s, k) => s + (statistic(report, 'count', `s${k}`) as number), 0);
    expect(sum).toBe(statistic(report, 'count', 'all'));
  });

  it('agrees on average precision per class (p(class) = score of its predicted label, else 0)', () => {
    const fine = finegrainedReport('classification', data, splits.slice(0, 2), opts);
    for (const [s, { rows: r }] of splits.slice(0, 2).entries()) {
      const used = [...r].filter((i) => truth[i]! >= 0 && pred[i]! >= 0);
      data.classes.forEach((_, k) => {
        const positive = used.map((i) => truth[i] === k);
        const scores = used.map((i) => (pred[i] === k ? score[i]! : 0));
        const series = fine.split_performance[s]!.performance[k]!;
        expect(series.summary!.value).toBeCloseTo(naiveAveragePrecision(positive, scores), 12);
        // Precision of every shown point is a ratio in [0, 1], recall non-decreasing.
        series.values.forEach(([recall, precision], j) => {
          expect(precision).toBeGreaterThanOrEqual(0);
          expect(precision).toBeLessThanOrEqual(1);
          if (j > 0) expect(recall).toBeGreaterThanOrEqual(series.values[j - 1]![0]);
        });
      });
    }
  });

  it('agrees with rocAuc for one-vs-rest AUC of audio classification', () => {
    const fine = finegrainedReport('audio_classification', data, splits.slice(0, 1), opts);
    expect(fine.kind).toBe('roc');
    const used = [...splits[0]!.rows].filter((i) => truth[i]! >= 0 && pred[i]! >= 0);
    data.classes.forEach((_, k) => {
      const auc = rocAuc(
        used.map((i) => truth[i] === k),
        used.map((i) => (pred[i] === k ? score[i]! : 0)),
      );
      expect(fine.split_performance[0]!.performance[k]!.summary!.value).toBeCloseTo(auc, 12);
    });
  });
});

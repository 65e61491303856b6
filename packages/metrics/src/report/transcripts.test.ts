// Speech recognition performance report: a hand-aligned case, the WER histogram, and a textbook
// edit distance on a larger random case.
import { describe, expect, it } from 'vitest';
import {
  finegrainedReport,
  performanceReport,
  predictionCoverage,
  sliceMetrics,
  type TranscriptEvalData,
} from './index.js';
import { opts, prng, rows } from './test-support.js';

describe('speech recognition report by hand', () => {
  // 0: "the cat sat" → same: 3 hits.
  // 1: "a b c d" → "a x c": a hit, b→x substitution, c hit, d deleted.
  // 2: no hypothesis (missing, left out); 3: no reference (left out).
  // 4: "x y" → "x y z": 2 hits, z inserted.
  const data: TranscriptEvalData = {
    kind: 'transcript',
    reference: ['the cat sat', 'a b c d', 'hello', null, 'x y'],
    hypothesis: ['the cat sat', 'a x c', null, 'foo', 'x y z'],
  };
  const splits = [
    { split_name: 'all', rows: rows(0, 1, 2, 3, 4) },
    { split_name: 'a', rows: rows(0, 1) },
    { split_name: 'b', rows: rows(2, 3, 4) },
    { split_name: 'empty', rows: rows() },
  ];
  const report = performanceReport('automatic_speech_recognition', data, splits, opts);
  const stat = (id: string, s: number) =>
    report.statistics.find((x) => x.metric_name === id)!.values[s]!.value;

  it('computes corpus WER, MER and WIL from the summed counts', () => {
    // H 3 + 2 + 2 = 7, S 1, D 1, I 1; reference words 9.
    // WER (1 + 1 + 1)/9 = 1/3; MER 3/(7 + 3) = 0.3; hypothesis words H + S + I = 9, so
    // WIP (7/9)(7/9) = 49/81, WIL 32/81.
    expect(stat('word_error_rate', 0)).toBeCloseTo(1 / 3, 12);
    expect(stat('match_error_rate', 0)).toBeCloseTo(0.3, 12);
    expect(stat('word_information_lost', 0)).toBeCloseTo(32 / 81, 12);
    // Split a: H 5, S 1, D 1 over 7 reference words: WER 2/7. Split b: H 2, I 1: WER 1/2.
    expect(stat('word_error_rate', 1)).toBeCloseTo(2 / 7, 12);
    expect(stat('word_error_rate', 2)).toBeCloseTo(1 / 2, 12);
    expect(stat('word_error_rate', 3)).toBeNull();
  });

  it('lists every word with its count, insertions, deletions and substitutions', () => {
    expect(report.overall.primary_key).toBe('word');
    expect(report.overall.metrics).toEqual([
      'count',
      'word_insertion',
      'word_deletion',
      'word_substitution',
    ]);
    const table = report.overall.splits[0]!.rows;
    // Count descending, then alphabetical; 'z' was only inserted (count 0).
    expect(table.map((r) => r.key)).toEqual([
      'a',
      'b',
      'c',
      'cat',
      'd',
      'sat',
      'the',
      'x',
      'y',
      'z',
    ]);
    const values = (key: string) => table.find((r) => r.key === key)!.values;
    expect(values('b')).toEqual({
      count: 1,
      word_insertion: 0,
      word_deletion: 0,
      word_substitution: 1,
    });
    expect(values('d')).toEqual({
      count: 1,
      word_insertion: 0,
      word_deletion: 1,
      word_substitution: 0,
    });
    expect(values('z')).toEqual({
      count: 0,
      word_insertion: 1,
      word_deletion: 0,
      word_substitution: 0,
    });
    expect(report.overall.splits[3]!.rows).toEqual([]);
  });

  it('answers slices and counts missing hypotheses', () => {
    expect(
      sliceMetrics(
        'automatic_speech_recognition',
        data,
        rows(1),
        ['word_error_rate', 'word_deletion'],
        opts,
      ),
    ).toEqual({ word_error_rate: 0.5, word_deletion: 1 });
    // References: 0, 1, 2, 4; of those, 2 has no hypothesis.
    expect(predictionCoverage('automatic_speech_recognition', data)).toEqual({
      num_items: 4,
      num_missing: 1,
    });
  });

  it('draws the per-utterance WER histogram in 0.05 bins with a last bin for WER ≥ 1', () => {
    const fine = finegrainedReport('automatic_speech_recognition', data, splits, opts);
    expect(fine.kind).toBe('wer_distribution');
    const series = fine.split_performance[0]!.performance[0]!;
    // Utterance WERs 0, 2/4, 1/2: bin 0 once, bin 10 ([0.5, 0.55)) twice.
    expect(series.values).toHaveLength(21);
    expect(series.values[0]).toEqual([0.025, 1]);
    expect(series.values[10]![1]).toBe(2);
    expect(series.values.reduce((a, [, c]) => a + c, 0)).toBe(3);
    expect(series.summary!.value).toBeCloseTo(1 / 3, 12);
    // An utterance with more errors than reference words lands in the last bin.
    const many: TranscriptEvalData = {
      kind: 'transcript',
      reference: ['a'],
      hypothesis: ['b c d'],
    };
    const last = finegrainedReport(
      'automatic_speech_recognition',
      many,
      [{ split_name: 'all', rows: rows(0) }],
      opts,
    ).split_performance[0]!.performance[0]!.values;
    expect(last[20]![0]).toBeCloseTo(1.025, 12);
    expect(last[20]![1]).toBe(1);
  });
});

/** Textbook word-level Levenshtein distance. */
function editDistance(a: string[], b: string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

describe('speech recognition report against a textbook edit distance', () => {
  const random = prng(11);
  const vocabulary = ['a', 'b', 'c', 'd', 'e', 'f'];
  const sentence = () =>
    Array.from(
      { length: 1 + Math.floor(random() * 8) },
      () => vocabulary[Math.floor(random() * 6)]!,
    );
  const N = 400;
  const references = Array.from({ length: N }, sentence);
  const hypotheses = references.map((ref) =>
    random() < 0.1 ? null : ref.filter(() => random() > 0.15).concat(random() < 0.3 ? ['f'] : []),
  );
  const data: TranscriptEvalData = {
    kind: 'transcript',
    reference: references.map((r) => r.join(' ')),
    hypothesis: hypotheses.map((h) => (h ? h.join(' ') : null)),
  };
  const all = Uint32Array.from({ length: N }, (_, i) => i);
  const splits = [
    { split_name: 'all', rows: all },
    { split_name: 'first', rows: all.subarray(0, 150) },
    { split_name: 'rest', rows: all.subarray(150) },
  ];

  it('gives WER = total edit distance / total reference words in every split', () => {
    const report = performanceReport('automatic_speech_recognition', data, splits, opts);
    splits.forEach(({ rows: r }, s) => {
      let errors = 0;
      let words = 0;
      for (const i of r) {
        if (!hypotheses[i]) continue;
        errors += editDistance(references[i]!, hypotheses[i]!);
        words += references[i]!.length;
      }
      expect(report.statistics[0]!.values[s]!.value).toBeCloseTo(errors / words, 12);
    });
  });

  it("adds the splits' word counts up to 'all'", () => {
    const report = performanceReport('automatic_speech_recognition', data, splits, opts);
    const total = (s: number) =>
      report.overall.splits[s]!.rows.reduce((sum, row) => sum + (row.values.count as number), 0);
    expect(total(1) + total(2)).toBe(total(0));
  });
});

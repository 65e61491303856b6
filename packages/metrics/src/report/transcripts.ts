// Performance report of speech recognition: corpus WER, MER and WIL (jiwer), the per-word
// table (occurrences, insertions, deletions, substitutions) and the per-utterance WER histogram.
import {
  corpusWordErrors,
  measuresFromCounts,
  wordStatistics,
  type UtteranceResult,
} from '../asr.js';
import { histogram, histogramPoints } from './histogram.js';
import type {
  PredictionCoverage,
  RawFinegrained,
  SplitMetrics,
  SplitRequest,
  SplitRows,
  TranscriptEvalData,
} from './index.js';

export const TRANSCRIPT_METRICS: readonly string[] = [
  'word_error_rate',
  'match_error_rate',
  'word_information_lost',
  'word_insertion',
  'word_deletion',
  'word_substitution',
];

export function transcriptSamples(data: TranscriptEvalData): number {
  const N = data.reference.length;
  if (data.hypothesis.length !== N) {
    throw new RangeError(`hypothesis has ${data.hypothesis.length} entries, not ${N}`);
  }
  return N;
}

/**
 * Each sample's alignment (null without reference or hypothesis), computed once per data: the
 * report, the curves, every slice and the comparison then only add up counts.
 */
const alignments = new WeakMap<TranscriptEvalData, (UtteranceResult | null)[]>();

export function utterancesOf(data: TranscriptEvalData): (UtteranceResult | null)[] {
  let out = alignments.get(data);
  if (out) return out;
  const samples: number[] = [];
  const references: string[] = [];
  const hypotheses: string[] = [];
  data.reference.forEach((reference, i) => {
    const hypothesis = data.hypothesis[i];
    if (reference === null || hypothesis === null || hypothesis === undefined) return;
    samples.push(i);
    references.push(reference);
    hypotheses.push(hypothesis);
  });
  const { utterances } = corpusWordErrors(references, hypotheses);
  out = new Array<UtteranceResult | null>(data.reference.length).fill(null);
  samples.forEach((i, u) => (out![i] = utterances[u]!));
  alignments.set(data, out);
  return out;
}

/** Samples without a hypothesis are left out (there is nothing to align). */
export function transcriptSplit(
  data: TranscriptEvalData,
  rows: Uint32Array,
  request: SplitRequest,
): SplitMetrics {
  const all = utterancesOf(data);
  const used: UtteranceResult[] = [];
  const total = { hits: 0, substitutions: 0, deletions: 0, insertions: 0 };
  for (let j = 0; j < rows.length; j++) {
    const u = all[rows[j]!];
    if (!u) continue;
    used.push(u);
    total.hits += u.hits;
    total.substitutions += u.substitutions;
    total.deletions += u.deletions;
    total.insertions += u.insertions;
  }
  const corpus = used.length > 0 ? measuresFromCounts(total) : null;
  const metrics: Record<string, number> = {
    word_error_rate: corpus ? corpus.wer : NaN,
    match_error_rate: corpus ? corpus.mer : NaN,
    word_information_lost: corpus ? corpus.wil : NaN,
    word_insertion: total.insertions,
    word_deletion: total.deletions,
    word_substitution: total.substitutions,
  };
  if (!request.entities) return { metrics, entities: [] };
  // Most frequent reference words first; words only ever inserted (count 0) last.
  const words = [...wordStatistics(used)].sort(
    ([a, x], [b, y]) => y.occurrences - x.occurrences || (a < b ? -1 : a > b ? 1 : 0),
  );
  return {
    metrics,
    entities: words.map(([key, s]) => ({
      key,
      values: {
        count: s.occurrences,
        word_insertion: s.insertions,
        word_deletion: s.deletions,
        word_substitution: s.substitutions,
      },
    })),
  };
}

export function transcriptCoverage(
  data: TranscriptEvalData,
  rows: Uint32Array | null,
): PredictionCoverage {
  const n = rows ? rows.length : data.reference.length;
  let items = 0;
  let missing = 0;
  for (let j = 0; j < n; j++) {
    const i = rows ? rows[j]! : j;
    if (data.reference[i] === null) continue;
    items++;
    if (data.hypothesis[i] === null) missing++;
  }
  return { num_items: items, num_missing: missing };
}

/** Per-utterance WER histogram: bins of 0.05 over [0, 1), the last bin every WER ≥ 1. */
export function transcriptFinegrained(
  data: TranscriptEvalData,
  splits: readonly SplitRows[],
): RawFinegrained {
  const all = utterancesOf(data);
  return {
    kind: 'wer_distribution',
    dimension_names: ['Word error rate', 'Utterances'],
    split_performance: splits.map((split) => {
      const wer = new Float64Array(split.rows.length).fill(NaN);
      split.rows.forEach((i, j) => {
        const u = all[i];
        if (u) wer[j] = u.wer;
      });
      const { metrics } = transcriptSplit(data, split.rows, {
        metrics: new Set(['word_error_rate']),
        entities: false,
      });
      return {
        split_name: split.split_name,
        performance: [
          {
            name: 'word_error_rate',
            values: histogramPoints(histogram(wer, { min: 0, max: 1, bins: 20, overflow: true })),
            summary: { metric_name: 'word_error_rate', value: metrics.word_error_rate! },
          },
        ],
        average_performance: null,
      };
    }),
  };
}

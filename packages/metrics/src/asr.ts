// Automatic speech recognition metrics as jiwer computes them: WER, MER, WIL, WIP and hit /
// substitution / deletion / insertion counts per utterance and for a corpus, with the word alignment.

/**
 * Text normalisation before words are compared. The default matches jiwer's default transform:
 * runs of two or more whitespace characters become one space, the ends are trimmed, and words are
 * the non-empty pieces between single spaces (so, as in jiwer, a lone tab does not split words).
 * Options, applied before that: lower-casing (`str.lower`), and removal of every Unicode
 * punctuation character (category P*, as jiwer's RemovePunctuation).
 */
export interface TextNormalization {
  lowercase?: boolean;
  removePunctuation?: boolean;
}

const MULTIPLE_WHITESPACE = /\s\s+/g;
const PUNCTUATION = /\p{P}/gu;

/** Words of a transcript after normalisation. */
export function transcriptWords(text: string, options: TextNormalization = {}): string[] {
  let s = text;
  if (options.lowercase) s = s.toLowerCase();
  if (options.removePunctuation) s = s.replace(PUNCTUATION, '');
  s = s.replace(MULTIPLE_WHITESPACE, ' ').trim();
  return s.split(' ').filter((word) => word.length >= 1);
}

/** Word alignment entry: '-' a hit, 'S' substitution, 'D' deletion, 'I' insertion. */
export type WordErrorType = '-' | 'S' | 'D' | 'I';

export interface AlignedWord {
  type: WordErrorType;
  /** Reference word (null for an insertion). */
  ref: string | null;
  /** Hypothesis word (null for a deletion). */
  hyp: string | null;
}

export interface WordCounts {
  hits: number;
  substitutions: number;
  deletions: number;
  insertions: number;
}

export interface WordMeasures extends WordCounts {
  /** Number of reference words (hits + substitutions + deletions). */
  referenceWords: number;
  /** Number of hypothesis words (hits + substitutions + insertions). */
  hypothesisWords: number;
  /** (S + D + I) / N; NaN for an empty reference with a non-empty hypothesis, 0 when both are empty. */
  wer: number;
  /** (S + D + I) / (H + S + D + I); 0 when both are empty. */
  mer: number;
  /** 1 − WIP. */
  wil: number;
  /** (H / reference words) · (H / hypothesis words); 0 if either is empty, 1 if both are. */
  wip: number;
}

export interface UtteranceResult extends WordMeasures {
  alignment: AlignedWord[];
}

export interface CorpusResult {
  /** Measures from the summed counts: corpus WER = total errors / total reference words. */
  corpus: WordMeasures;
  utterances: UtteranceResult[];
}

export function measuresFromCounts(counts: WordCounts): WordMeasures {
  const { hits: H, substitutions: S, deletions: D, insertions: I } = counts;
  const n1 = H + S + D;
  const n2 = H + S + I;
  const errors = S + D + I;
  const wip = n1 === 0 && n2 === 0 ? 1 : n1 === 0 || n2 === 0 ? 0 : (H / n1) * (H / n2);
  return {
    ...counts,
    referenceWords: n1,
    hypothesisWords: n2,
    wer: n1 === 0 ? (errors === 0 ? 0 : NaN) : errors / n1,
    mer: errors === 0 ? 0 : errors / (H + errors),
    wil: 1 - wip,
    wip,
  };
}

/**
 * Minimum-edit alignment of two word-id sequences, choosing among equally short alignments the
 * one rapidfuzz's Levenshtein.editops (used by jiwer) returns: common prefix and suffix are hits,
 * and the backtrace from the end prefers a deletion, then an insertion, then the diagonal. This
 * matters because hits, substitutions, deletions and insertions are not unique otherwise.
 */
function alignIds(ref: Int32Array, hyp: Int32Array): Uint8Array {
  const OP_HIT = 0;
  const OP_SUB = 1;
  const OP_DEL = 2;
  const OP_INS = 3;
  let prefix = 0;
  while (prefix < ref.length && prefix < hyp.length && ref[prefix] === hyp[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < ref.length - prefix &&
    suffix < hyp.length - prefix &&
    ref[ref.length - 1 - suffix] === hyp[hyp.length - 1 - suffix]
  ) {
    suffix++;
  }
  const n1 = ref.length - prefix - suffix;
  const n2 = hyp.length - prefix - suffix;
  const middle: number[] = [];
  if (n1 > 0 && n2 > 0) {
    // d[j * (n1 + 1) + i] = edit distance of ref[:i] and hyp[:j] (within the middle part).
    const W = n1 + 1;
    const d = new Int32Array(W * (n2 + 1));
    for (let i = 0; i <= n1; i++) d[i] = i;
    for (let j = 1; j <= n2; j++) {
      const h = hyp[prefix + j - 1]!;
      const row = j * W;
      const prev = row - W;
      d[row] = j;
      for (let i = 1; i <= n1; i++) {
        const diagonal = d[prev + i - 1]! + (ref[prefix + i - 1] === h ? 0 : 1);
        const up = d[prev + i]! + 1;
        const left = d[row + i - 1]! + 1;
        d[row + i] = diagonal < up ? (diagonal < left ? diagonal : left) : up < left ? up : left;
      }
    }
    let col = n1;
    let row = n2;
    while (row && col) {
      if (d[row * W + col]! - d[row * W + col - 1]! === 1) {
        middle.push(OP_DEL);
        col--;
      } else {
        row--;
        if (row && d[row * W + col]! - d[row * W + col - 1]! === -1) {
          middle.push(OP_INS);
        } else {
          col--;
          middle.push(ref[prefix + col] === hyp[prefix + row] ? OP_HIT : OP_SUB);
        }
      }
    }
    while (col--) middle.push(OP_DEL);
    while (row--) middle.push(OP_INS);
  } else {
    for (let i = 0; i < n1; i++) middle.push(OP_DEL);
    for (let j = 0; j < n2; j++) middle.push(OP_INS);
  }
  const ops = new Uint8Array(prefix + middle.length + suffix);
  // prefix and suffix are hits (zeros); the middle was built backwards.
  for (let k = 0; k < middle.length; k++) ops[prefix + k] = middle[middle.length - 1 - k]!;
  return ops;
}

const TYPES: WordErrorType[] = ['-', 'S', 'D', 'I'];

/** Maps words to integer ids shared across utterances, so comparisons are integer compares. */
class Vocabulary {
  private readonly ids = new Map<string, number>();
  encode(words: readonly string[]): Int32Array {
    const out = new Int32Array(words.length);
    for (let k = 0; k < words.length; k++) {
      const word = words[k]!;
      let id = this.ids.get(word);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(word, id);
      }
      out[k] = id;
    }
    return out;
  }
}

function alignWords(
  refWords: readonly string[],
  hypWords: readonly string[],
  vocabulary: Vocabulary,
  withAlignment: boolean,
): UtteranceResult {
  const ops = alignIds(vocabulary.encode(refWords), vocabulary.encode(hypWords));
  const counts = [0, 0, 0, 0];
  const alignment: AlignedWord[] = [];
  let i = 0;
  let j = 0;
  for (const op of ops) {
    counts[op]!++;
    if (withAlignment) {
      alignment.push({
        type: TYPES[op]!,
        ref: op === 3 ? null : refWords[i]!,
        hyp: op === 2 ? null : hypWords[j]!,
      });
    }
    if (op !== 3) i++;
    if (op !== 2) j++;
  }
  return {
    ...measuresFromCounts({
      hits: counts[0]!,
      substitutions: counts[1]!,
      deletions: counts[2]!,
      insertions: counts[3]!,
    }),
    alignment,
  };
}

/** WER and related measures of one reference / hypothesis pair, with the word alignment. */
export function wordErrors(
  reference: string,
  hypothesis: string,
  normalization: TextNormalization = {},
): UtteranceResult {
  return alignWords(
    transcriptWords(reference, normalization),
    transcriptWords(hypothesis, normalization),
    new Vocabulary(),
    true,
  );
}

export interface CorpusOptions extends TextNormalization {
  /** Keep each utterance's word alignment (default true). */
  alignment?: boolean;
}

/** Per-utterance measures and corpus measures (total errors / total reference words). */
export function corpusWordErrors(
  references: readonly string[],
  hypotheses: readonly string[],
  options: CorpusOptions = {},
): CorpusResult {
  if (references.length !== hypotheses.length) {
    throw new RangeError(`${references.length} references but ${hypotheses.length} hypotheses`);
  }
  const vocabulary = new Vocabulary();
  const withAlignment = options.alignment ?? true;
  const total: WordCounts = { hits: 0, substitutions: 0, deletions: 0, insertions: 0 };
  const utterances = references.map((reference, k) => {
    const result = alignWords(
      transcriptWords(reference, options),
      transcriptWords(hypotheses[k]!, options),
      vocabulary,
      withAlignment,
    );
    total.hits += result.hits;
    total.substitutions += result.substitutions;
    total.deletions += result.deletions;
    total.insertions += result.insertions;
    return result;
  });
  return { corpus: measuresFromCounts(total), utterances };
}

export interface WordStatistics {
  /** Times the word occurs in the references. */
  occurrences: number;
  hits: number;
  substitutions: number;
  deletions: number;
  /** Times the word was inserted by the hypotheses. */
  insertions: number;
  /** (substitutions + deletions) / occurrences; NaN for a word that is only ever inserted. */
  errorRate: number;
}

/**
 * Per-word breakdown for the speech recognition "per word" view, from utterance alignments:
 * how often each reference word was recognised, substituted or deleted, and how often each word
 * was inserted.
 */
export function wordStatistics(
  utterances: readonly UtteranceResult[],
): Map<string, WordStatistics> {
  const stats = new Map<string, WordStatistics>();
  const entry = (word: string): WordStatistics => {
    let s = stats.get(word);
    if (!s) {
      s = {
        occurrences: 0,
        hits: 0,
        substitutions: 0,
        deletions: 0,
        insertions: 0,
        errorRate: NaN,
      };
      stats.set(word, s);
    }
    return s;
  };
  for (const utterance of utterances) {
    for (const pair of utterance.alignment) {
      if (pair.type === 'I') {
        entry(pair.hyp!).insertions++;
        continue;
      }
      const s = entry(pair.ref!);
      s.occurrences++;
      if (pair.type === '-') s.hits++;
      else if (pair.type === 'S') s.substitutions++;
      else s.deletions++;
    }
  }
  for (const s of stats.values()) {
    s.errorRate = s.occurrences === 0 ? NaN : (s.substitutions + s.deletions) / s.occurrences;
  }
  return stats;
}

// Automatic speech recognition metrics as jiwer (4.0) computes them: WER, MER, WIL, WIP and hit /
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
  /** (S + D + I) / N; for an empty reference, the number of insertions (as jiwer 4). */
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
  return measures(counts.hits, counts.substitutions, counts.deletions, counts.insertions);
}

function measures(H: number, S: number, D: number, I: number): WordMeasures {
  const n1 = H + S + D;
  const n2 = H + S + I;
  const errors = S + D + I;
  const wip = n1 === 0 && n2 === 0 ? 1 : n1 === 0 || n2 === 0 ? 0 : (H / n1) * (H / n2);
  return {
    hits: H,
    substitutions: S,
    deletions: D,
    insertions: I,
    referenceWords: n1,
    hypothesisWords: n2,
    // jiwer 4: with no reference word at all, WER is the number of insertions.
    wer: n1 === 0 ? I : errors / n1,
    mer: errors === 0 ? 0 : errors / (H + errors),
    wil: 1 - wip,
    wip,
  };
}

const OP_HIT = 0;
const OP_SUB = 1;
const OP_DEL = 2;
const OP_INS = 3;

/**
 * Work buffers reused across utterances (the package is synchronous): a corpus of 100k
 * utterances would otherwise allocate and collect hundreds of thousands of small arrays.
 */
class AlignmentBuffers {
  refIds = new Int32Array(256);
  hypIds = new Int32Array(256);
  distances = new Int32Array(4096);
  ops = new Uint8Array(512);
  backwards = new Uint8Array(512);

  ensure(refLength: number, hypLength: number): void {
    const grow = <T extends Int32Array | Uint8Array>(
      array: T,
      size: number,
      make: (n: number) => T,
    ) => (array.length >= size ? array : make(Math.max(size, array.length * 2)));
    this.refIds = grow(this.refIds, refLength, (n) => new Int32Array(n));
    this.hypIds = grow(this.hypIds, hypLength, (n) => new Int32Array(n));
    this.distances = grow(
      this.distances,
      (refLength + 1) * (hypLength + 1),
      (n) => new Int32Array(n),
    );
    this.ops = grow(this.ops, refLength + hypLength, (n) => new Uint8Array(n));
    this.backwards = grow(this.backwards, refLength + hypLength, (n) => new Uint8Array(n));
  }
}

/**
 * Minimum-edit alignment of two word-id sequences (in buffers.refIds / hypIds), choosing among
 * equally short alignments the one rapidfuzz's Levenshtein.editops (used by jiwer) returns:
 * common prefix and suffix are hits, and the backtrace from the end prefers a deletion, then an
 * insertion, then the diagonal. This matters because hits, substitutions, deletions and
 * insertions are not unique otherwise. Writes the operations to buffers.ops; returns their count.
 */
function alignIds(buffers: AlignmentBuffers, refLength: number, hypLength: number): number {
  const ref = buffers.refIds;
  const hyp = buffers.hypIds;
  const ops = buffers.ops;
  let prefix = 0;
  while (prefix < refLength && prefix < hypLength && ref[prefix] === hyp[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < refLength - prefix &&
    suffix < hypLength - prefix &&
    ref[refLength - 1 - suffix] === hyp[hypLength - 1 - suffix]
  ) {
    suffix++;
  }
  const n1 = refLength - prefix - suffix;
  const n2 = hypLength - prefix - suffix;
  let count = 0;
  for (let k = 0; k < prefix; k++) ops[count++] = OP_HIT;
  if (n1 > 0 && n2 > 0) {
    // d[j * (n1 + 1) + i] = edit distance of ref[:i] and hyp[:j] (within the middle part).
    const W = n1 + 1;
    const d = buffers.distances;
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
    // Backtrace from the end; operations come out last first.
    const back = buffers.backwards;
    let n = 0;
    let col = n1;
    let row = n2;
    while (row && col) {
      if (d[row * W + col]! - d[row * W + col - 1]! === 1) {
        back[n++] = OP_DEL;
        col--;
      } else {
        row--;
        if (row && d[row * W + col]! - d[row * W + col - 1]! === -1) {
          back[n++] = OP_INS;
        } else {
          col--;
          back[n++] = ref[prefix + col] === hyp[prefix + row] ? OP_HIT : OP_SUB;
        }
      }
    }
    while (col--) back[n++] = OP_DEL;
    while (row--) back[n++] = OP_INS;
    while (n > 0) ops[count++] = back[--n]!;
  } else {
    for (let i = 0; i < n1; i++) ops[count++] = OP_DEL;
    for (let j = 0; j < n2; j++) ops[count++] = OP_INS;
  }
  for (let k = 0; k < suffix; k++) ops[count++] = OP_HIT;
  return count;
}

const TYPES: WordErrorType[] = ['-', 'S', 'D', 'I'];

/** Maps words to integer ids shared across utterances, so comparisons are integer compares. */
class Vocabulary {
  private readonly ids = new Map<string, number>();
  encode(words: readonly string[], out: Int32Array): void {
    for (let k = 0; k < words.length; k++) {
      const word = words[k]!;
      let id = this.ids.get(word);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(word, id);
      }
      out[k] = id;
    }
  }
}

/** An utterance's measures; its word alignment is built on first access, from compact ops. */
class Utterance implements UtteranceResult {
  readonly hits: number;
  readonly substitutions: number;
  readonly deletions: number;
  readonly insertions: number;
  readonly referenceWords: number;
  readonly hypothesisWords: number;
  readonly wer: number;
  readonly mer: number;
  readonly wil: number;
  readonly wip: number;
  #alignment: AlignedWord[] | undefined;

  constructor(
    m: WordMeasures,
    private readonly ops: Uint8Array | null,
    private readonly refWords: readonly string[],
    private readonly hypWords: readonly string[],
  ) {
    this.hits = m.hits;
    this.substitutions = m.substitutions;
    this.deletions = m.deletions;
    this.insertions = m.insertions;
    this.referenceWords = m.referenceWords;
    this.hypothesisWords = m.hypothesisWords;
    this.wer = m.wer;
    this.mer = m.mer;
    this.wil = m.wil;
    this.wip = m.wip;
  }

  get alignment(): AlignedWord[] {
    if (this.#alignment) return this.#alignment;
    const ops = this.ops ?? new Uint8Array(0);
    const alignment = new Array<AlignedWord>(ops.length);
    let i = 0;
    let j = 0;
    for (let k = 0; k < ops.length; k++) {
      const op = ops[k]!;
      alignment[k] = {
        type: TYPES[op]!,
        ref: op === OP_INS ? null : this.refWords[i]!,
        hyp: op === OP_DEL ? null : this.hypWords[j]!,
      };
      if (op !== OP_INS) i++;
      if (op !== OP_DEL) j++;
    }
    this.#alignment = alignment;
    return alignment;
  }
}

function alignWords(
  refWords: readonly string[],
  hypWords: readonly string[],
  vocabulary: Vocabulary,
  buffers: AlignmentBuffers,
  withAlignment: boolean,
): UtteranceResult {
  buffers.ensure(refWords.length, hypWords.length);
  vocabulary.encode(refWords, buffers.refIds);
  vocabulary.encode(hypWords, buffers.hypIds);
  const count = alignIds(buffers, refWords.length, hypWords.length);
  const ops = buffers.ops;
  let hits = 0;
  let substitutions = 0;
  let deletions = 0;
  let insertions = 0;
  for (let k = 0; k < count; k++) {
    const op = ops[k]!;
    if (op === OP_HIT) hits++;
    else if (op === OP_SUB) substitutions++;
    else if (op === OP_DEL) deletions++;
    else insertions++;
  }
  return new Utterance(
    measures(hits, substitutions, deletions, insertions),
    withAlignment ? ops.slice(0, count) : null,
    refWords,
    hypWords,
  );
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
    new AlignmentBuffers(),
    true,
  );
}

export interface CorpusOptions extends TextNormalization {
  /**
   * Keep each utterance's word alignment (default true). It is stored compactly and turned into
   * AlignedWord objects only when an utterance's `alignment` is read; false leaves it empty.
   */
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
  const buffers = new AlignmentBuffers();
  const withAlignment = options.alignment ?? true;
  const total: WordCounts = { hits: 0, substitutions: 0, deletions: 0, insertions: 0 };
  const utterances = references.map((reference, k) => {
    const result = alignWords(
      transcriptWords(reference, options),
      transcriptWords(hypotheses[k]!, options),
      vocabulary,
      buffers,
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

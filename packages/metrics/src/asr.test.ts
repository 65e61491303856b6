// ASR metrics: hand-computed jiwer cases, the alignment rapidfuzz would choose, and a simple
// dynamic-programming edit distance as a second implementation for random cases.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusWordErrors, transcriptWords, wordErrors, wordStatistics } from './asr.js';

describe('transcript normalisation', () => {
  it("defaults to jiwer's: collapse whitespace runs, trim, split on spaces", () => {
    expect(transcriptWords('  Hello   world\n\nagain ')).toEqual(['Hello', 'world', 'again']);
    // A single tab is not a run, so (as in jiwer) it does not separate words.
    expect(transcriptWords('a\tb c')).toEqual(['a\tb', 'c']);
    expect(transcriptWords('')).toEqual([]);
  });

  it('lower-cases and removes punctuation on request', () => {
    expect(
      transcriptWords("Hello, World! It's", { lowercase: true, removePunctuation: true }),
    ).toEqual(['hello', 'world', 'its']);
    expect(transcriptWords('Hello, World!')).toEqual(['Hello,', 'World!']);
  });
});

const types = (ref: string, hyp: string): string =>
  wordErrors(ref, hyp)
    .alignment.map((a) => a.type)
    .join('');

describe('word errors by hand', () => {
  it('counts hits, substitutions, deletions and insertions', () => {
    // The only cheapest alignment: the [big inserted] cat [sat→sit] on [the deleted] mat.
    const r = wordErrors('the cat sat on the mat', 'the big cat sit on mat');
    expect([r.hits, r.substitutions, r.deletions, r.insertions]).toEqual([4, 1, 1, 1]);
    expect(r.wer).toBe(3 / 6);
    expect(r.mer).toBe(3 / 7);
    expect(r.wip).toBe((4 / 6) * (4 / 6));
    expect(r.wil).toBe(1 - (4 / 6) * (4 / 6));
    expect(r.alignment.map((a) => a.type).join('')).toBe('-I-S-D-');
    expect(r.alignment[1]).toEqual({ type: 'I', ref: null, hyp: 'big' });
    expect(r.alignment[3]).toEqual({ type: 'S', ref: 'sat', hyp: 'sit' });
    expect(r.alignment[5]).toEqual({ type: 'D', ref: 'the', hyp: null });
  });

  it("picks rapidfuzz's alignment among equally short ones", () => {
    // The examples of rapidfuzz's Levenshtein.editops documentation, one word per letter:
    // editops("qabxcd", "abycdf") = delete q, replace x→y, insert f.
    expect(types('q a b x c d', 'a b y c d f')).toBe('D--S--I');
    // editops("spam", "park") = delete s, insert r, replace m→k.
    expect(types('s p a m', 'p a r k')).toBe('D--IS');
  });

  it('handles empty references and hypotheses', () => {
    const both = wordErrors('', '  ');
    expect([both.wer, both.mer, both.wil, both.wip]).toEqual([0, 0, 0, 1]);
    const onlyHyp = wordErrors('', 'hello there');
    expect(onlyHyp.insertions).toBe(2);
    // jiwer 4: WER is the number of insertions when there is no reference word.
    expect(onlyHyp.wer).toBe(2);
    expect(onlyHyp.mer).toBe(1);
    const onlyRef = wordErrors('hello there', '');
    expect([onlyRef.deletions, onlyRef.wer, onlyRef.wip, onlyRef.wil]).toEqual([2, 1, 0, 1]);
  });

  it('computes corpus measures from total counts, not the mean of utterances', () => {
    const result = corpusWordErrors(['a b c d', 'e'], ['a b c d', 'f']);
    expect(result.utterances.map((u) => u.wer)).toEqual([0, 1]);
    expect(result.corpus.wer).toBe(1 / 5);
    expect(result.corpus.hits).toBe(4);
    // WIP from totals: (H / N_ref) · (H / N_hyp).
    expect(result.corpus.wip).toBe((4 / 5) * (4 / 5));
  });

  it('breaks errors down per word for the per-word view', () => {
    const { utterances } = corpusWordErrors(['the cat sat', 'the dog'], ['the cat sit', 'a the']);
    const stats = wordStatistics(utterances);
    expect(stats.get('the')).toMatchObject({ occurrences: 2, hits: 2, errorRate: 0 });
    expect(stats.get('sat')).toMatchObject({ occurrences: 1, substitutions: 1, errorRate: 1 });
    expect(stats.get('dog')).toMatchObject({ occurrences: 1, deletions: 1 });
    expect(stats.get('a')).toMatchObject({ occurrences: 0, insertions: 1 });
    expect(stats.get('a')!.errorRate).toBeNaN();
  });

  it('counts an empty reference utterance in the corpus', () => {
    const result = corpusWordErrors(['a b', ''], ['a b', 'x']);
    expect(result.corpus.insertions).toBe(1);
    expect(result.corpus.wer).toBe(1 / 2);
  });
});

/** Second implementation: textbook edit distance. */
function editDistance(a: string[], b: string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(
        Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)),
      );
    }
    prev = row;
  }
  return prev[b.length]!;
}

describe('word error invariants', () => {
  const sentence = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 12 });

  it('errors equal the edit distance and the alignment reproduces both sentences', () => {
    fc.assert(
      fc.property(sentence, sentence, (ref, hyp) => {
        const r = wordErrors(ref.join(' '), hyp.join(' '));
        expect(r.substitutions + r.deletions + r.insertions).toBe(editDistance(ref, hyp));
        expect(r.hits + r.substitutions + r.deletions).toBe(ref.length);
        expect(r.hits + r.substitutions + r.insertions).toBe(hyp.length);
        expect(r.alignment.filter((a) => a.ref !== null).map((a) => a.ref)).toEqual(ref);
        expect(r.alignment.filter((a) => a.hyp !== null).map((a) => a.hyp)).toEqual(hyp);
        for (const a of r.alignment) {
          if (a.type === '-') expect(a.ref).toBe(a.hyp);
          if (a.type === 'S') expect(a.ref).not.toBe(a.hyp);
        }
        for (const v of [r.mer, r.wil, r.wip]) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('a perfect hypothesis has no errors', () => {
    fc.assert(
      fc.property(sentence, (ref) => {
        const r = wordErrors(ref.join(' '), ref.join('  '));
        expect([r.wer, r.mer, r.wil, r.substitutions + r.deletions + r.insertions]).toEqual([
          0, 0, 0, 0,
        ]);
      }),
    );
  });

  it('corpus totals do not depend on the order of utterances', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(sentence, sentence), { minLength: 1, maxLength: 8 }),
        (pairs) => {
          const refs = pairs.map((p) => p[0].join(' '));
          const hyps = pairs.map((p) => p[1].join(' '));
          const forward = corpusWordErrors(refs, hyps).corpus;
          const backward = corpusWordErrors([...refs].reverse(), [...hyps].reverse()).corpus;
          expect(backward).toEqual(forward);
        },
      ),
    );
  });
});

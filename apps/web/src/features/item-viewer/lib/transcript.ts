// The transcript row of the audio viewer: reference and predicted words aligned by the WER
// alignment of @loupe/metrics (jiwer's), each column typed I, D, S or '-'.
import { wordErrors, type WordErrorType } from '@loupe/metrics';

export interface TranscriptColumn {
  type: WordErrorType;
  ref: string | null;
  hyp: string | null;
}

export interface TranscriptView {
  columns: TranscriptColumn[];
  wer: number;
  counts: { hits: number; substitutions: number; deletions: number; insertions: number };
}

/** Aligns a reference and a predicted transcript word by word (case and punctuation kept). */
export function alignTranscripts(reference: string, hypothesis: string): TranscriptView {
  const result = wordErrors(reference, hypothesis);
  return {
    columns: result.alignment.map(({ type, ref, hyp }) => ({ type, ref, hyp })),
    wer: result.wer,
    counts: {
      hits: result.hits,
      substitutions: result.substitutions,
      deletions: result.deletions,
      insertions: result.insertions,
    },
  };
}

export const WORD_ERROR_NAMES: Record<WordErrorType, string> = {
  '-': 'correct',
  S: 'substitution',
  D: 'deletion',
  I: 'insertion',
};

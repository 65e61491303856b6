// Matches what an evaluation reads of the samples and of each prediction set's predictions, both
// read in upload order (performance.repository.ts): which prediction is each sample's, and a
// column's items at given rows.

/**
 * The items of a column at the given rows (−1: null), decoded when asked; empty for a column not
 * read.
 */
export function pick<V>(
  column: readonly unknown[] | undefined,
  rows: Int32Array,
  decode: ((value: unknown) => V) | null = null,
): (V | null)[] {
  if (column === undefined) return [];
  const out = new Array<V | null>(rows.length);
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]!;
    const value = i < 0 ? null : (column[i] ?? null);
    out[k] = decode === null ? (value as V | null) : decode(value);
  }
  return out;
}

/**
 * For each live sample (seqs ascending), the index of its prediction among the set's (seqs of
 * their samples ascending), −1 for none: one walk down both lists. Predictions of deleted samples
 * (a set keeps them) have no sample here and are passed over.
 */
export function predictionRows(
  sampleSeqs: readonly number[],
  predictionSeqs: readonly number[],
): Int32Array {
  const n = sampleSeqs.length;
  const m = predictionSeqs.length;
  const rows = new Int32Array(n).fill(-1);
  let j = 0;
  for (let i = 0; i < n; i++) {
    const seq = sampleSeqs[i]!;
    while (j < m && predictionSeqs[j]! < seq) j++;
    if (j < m && predictionSeqs[j] === seq) rows[i] = j++;
  }
  return rows;
}

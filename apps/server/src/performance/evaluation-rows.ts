// Matches what an evaluation reads of the samples and of each prediction set's predictions, both
// read in the database's order of sample ids (performance.repository.ts): which prediction is each
// sample's, which samples are live and in what upload order, and a column's items at given rows.

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
 * For each sample (ids in the database's key order), the index of its prediction among the set's
 * (sample ids in the same order), −1 for none: one walk down both lists, as the database sorted
 * both the same way. A prediction whose sample is not found (not expected: samples are only ever
 * marked deleted) sends the rest through a map of the ids.
 */
export function predictionRows(
  sampleIds: readonly string[],
  predictionSampleIds: readonly string[],
) {
  const n = sampleIds.length;
  const rows = new Int32Array(n).fill(-1);
  let i = 0;
  let byId: Map<string, number> | null = null;
  for (let j = 0; j < predictionSampleIds.length; j++) {
    const id = predictionSampleIds[j]!;
    if (byId === null) {
      let k = i;
      while (k < n && sampleIds[k] !== id) k++;
      if (k < n) {
        rows[k] = j;
        i = k + 1;
        continue;
      }
      byId = new Map(sampleIds.map((sampleId, index) => [sampleId, index]));
    }
    const k = byId.get(id);
    if (k !== undefined) rows[k] = j;
  }
  return rows;
}

/** The indexes of the live samples (deleted 0), ordered by seq (upload order). */
export function liveInUploadOrder(seqs: readonly number[], deleted: readonly number[]): Int32Array {
  const n = seqs.length;
  let minSeq = 0;
  let maxSeq = -1;
  let live = 0;
  for (let i = 0; i < n; i++) {
    if (deleted[i] !== 0) continue;
    live++;
    const seq = seqs[i]!;
    if (seq > maxSeq) maxSeq = seq;
    if (seq < minSeq || !Number.isInteger(seq)) minSeq = -1;
  }
  const order = new Int32Array(live);
  if (minSeq === 0 && maxSeq < 4 * n + 1024) {
    // Seqs are small distinct integers: placed by seq in one pass, no sort.
    const slot = new Int32Array(maxSeq + 1).fill(-1);
    for (let i = 0; i < n; i++) if (deleted[i] === 0) slot[seqs[i]!] = i;
    let k = 0;
    for (const i of slot) if (i >= 0) order[k++] = i;
  } else {
    let k = 0;
    for (let i = 0; i < n; i++) if (deleted[i] === 0) order[k++] = i;
    order.sort((a, b) => seqs[a]! - seqs[b]!);
  }
  return order;
}

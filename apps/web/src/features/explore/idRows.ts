// Rows and ids of one result (Find similar sends ids): the 'ids' answer of the same query
// (`itemIdsQuery`, fetched on demand) is aligned with its rows and maps one to the other.

export interface IdRows {
  idByRow: Map<number, string>;
  rowById: Map<string, number>;
}

/** Pairs rows and ids of the same result; null when they disagree (the table changed). */
export function pairIdsWithRows(rows: Uint32Array, ids: readonly string[]): IdRows | null {
  if (rows.length !== ids.length) return null;
  const idByRow = new Map<number, string>();
  const rowById = new Map<string, number>();
  rows.forEach((row, i) => {
    idByRow.set(row, ids[i]!);
    rowById.set(ids[i]!, row);
  });
  return { idByRow, rowById };
}

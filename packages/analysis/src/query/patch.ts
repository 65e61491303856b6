// New snapshots of an item table after an edit in place (labels or splits changed, the same
// rows): the changed columns are copied and written, every other column is shared with the old
// snapshot, so their sort indexes and the id → row map stay valid.
import type { Bitset } from './bitset.js';
import type { ItemTable } from './table.js';
import type { CodedColumn, Column } from './types.js';

export interface TableChanges {
  version: number;
  /** Replacement columns by metadata id (each must exist, with the same type and length). */
  columns?: ReadonlyMap<string, Column>;
  /** Replacement split column. */
  split?: CodedColumn;
}

/** A new snapshot of `table` with some columns replaced; ids, rows and the rest are shared. */
export function withColumns(table: ItemTable, changes: TableChanges): ItemTable {
  const columns = new Map(table.columns);
  for (const [id, column] of changes.columns ?? []) {
    const before = table.columns.get(id);
    if (!before) throw new Error(`Unknown metadata field '${id}'`);
    if (before.type !== column.type)
      throw new Error(`Column '${id}' is ${before.type}, not ${column.type}`);
    const rows = 'values' in column ? column.values.length : column.codes.length;
    if (rows !== table.length)
      throw new Error(`Column '${id}' has ${rows} rows, expected ${table.length}`);
    columns.set(id, column);
  }
  if (changes.split && changes.split.codes.length !== table.length)
    throw new Error(
      `Column 'split' has ${changes.split.codes.length} rows, expected ${table.length}`,
    );
  return {
    version: changes.version,
    length: table.length,
    ids: table.ids,
    columns,
    split: changes.split ?? table.split,
    createdRecord: table.createdRecord,
  };
}

/** Rows (a bitset over the table) that take one value; null makes them missing. */
export interface CodedAssignment {
  value: string | null;
  rows: Bitset;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Index of `value` in sorted `categories`, or -(insertion point) - 1. */
function search(categories: readonly string[], value: string): number {
  let lo = 0;
  let hi = categories.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareStrings(categories[mid]!, value);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}

/**
 * A copy of a dictionary-encoded column with the rows of each assignment set to its value (a
 * later assignment wins on a row named twice). Values not yet in the dictionary join it in
 * sorted order; the old column is never written. Boolean columns take 'false' and 'true' only.
 */
export function assignCoded<C extends CodedColumn>(
  column: C,
  assignments: readonly CodedAssignment[],
): C {
  const fresh = new Set<string>();
  for (const { value } of assignments)
    if (value !== null && search(column.categories, value) < 0) fresh.add(value);
  if (fresh.size > 0 && 'type' in column && (column as { type: string }).type === 'boolean')
    throw new Error(`A boolean column takes 'false' or 'true', not '${[...fresh][0]}'`);
  let codes: Int32Array;
  let categories: readonly string[];
  if (fresh.size === 0) {
    codes = column.codes.slice();
    categories = column.categories;
  } else {
    const merged = [...column.categories, ...fresh].sort(compareStrings);
    const remap = new Int32Array(column.categories.length);
    column.categories.forEach((category, k) => (remap[k] = search(merged, category)));
    const old = column.codes;
    codes = new Int32Array(old.length);
    for (let i = 0; i < old.length; i++) {
      const c = old[i]!;
      codes[i] = c < 0 ? -1 : remap[c]!;
    }
    categories = merged;
  }
  for (const { value, rows } of assignments) {
    const code = value === null ? -1 : search(categories, value);
    for (let w = 0; w < rows.length; w++) {
      let word = rows[w]!;
      const base = w << 5;
      while (word !== 0) {
        const low = word & -word;
        const row = base + 31 - Math.clz32(low);
        if (row < codes.length) codes[row] = code;
        word ^= low;
      }
    }
  }
  return { ...column, codes, categories };
}

// One explorer query end to end (docs/product.md §7 "Item ids"): filter, drop items missing a sort key
// unless include_missing, sort. Returns row indices; ids are table.ids[row].
import { bitsetToRows, emptyBitset, fullBitset, type Bitset } from './bitset.js';
import { dropMissing, evaluateFilter, type EvaluateOptions } from './filter.js';
import { rowIndex } from './id-index.js';
import { sortSelected } from './sort.js';
import { getColumn, type ItemTable } from './table.js';
import type { Filter, SortEntry } from './types.js';

export interface ItemQuery {
  filter?: Filter | null;
  sort?: readonly SortEntry[];
  /**
   * Keep items whose value is missing for any sort key (they sort last). Default false: such
   * items are left out, as the explorer hides items it cannot place in the requested order.
   */
  include_missing?: boolean;
  /** Restrict to these rows first (a subset's items). */
  within?: Bitset | null;
}

/** The rows matching `query`, in the requested order (upload order when no sort). */
export function queryRows(
  table: ItemTable,
  query: ItemQuery,
  options: EvaluateOptions = {},
): Uint32Array {
  const bits = query.filter
    ? evaluateFilter(table, query.filter, options)
    : fullBitset(table.length);
  if (query.within) {
    if (query.within.length !== bits.length)
      throw new Error('`within` bitset does not fit the table');
    for (let w = 0; w < bits.length; w++) bits[w]! &= query.within[w]!;
  }
  const sort = query.sort ?? [];
  for (const entry of sort) getColumn(table, entry.name); // unknown field → error before work
  if (!query.include_missing) for (const entry of sort) dropMissing(table, bits, entry.name);
  return sort.length === 0 ? bitsetToRows(bits) : sortSelected(table, bits, sort);
}

/** The item ids of `rows` (a page of a result); throws on a row outside the table. */
export function idsAt(table: ItemTable, rows: ArrayLike<number>): string[] {
  const out: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const id = Number.isInteger(row) ? table.ids[row] : undefined;
    if (id === undefined) throw new Error(`Row ${row} is outside the table (${table.length} rows)`);
    out.push(id);
  }
  return out;
}

/**
 * The rows of item ids (a subset's items, ids edited by a history record) as a bitset; ids not
 * in the table are skipped. The id → row index is built on first use and kept with the table's
 * ids (see id-index.ts).
 */
export function rowsOfIds(table: ItemTable, ids: Iterable<string>): Bitset {
  const index = rowIndex(table);
  const bits = emptyBitset(table.length);
  for (const id of ids) {
    const row = index.get(id);
    if (row !== undefined) bits[row >>> 5]! |= 1 << (row & 31);
  }
  return bits;
}

// Evaluates the explorer's filter tree (docs/product.md §3 "Filter") to a bitset of matching rows, one
// tight loop over a typed column per predicate.
//
// Missing values: a predicate (boolean, numeric, string, timestamp) never matches an item whose
// value is missing, and `not` is the plain complement, so `not(predicate)` does include items
// with a missing value. That keeps `not` an involution and `a or not a` = every item, and
// "everything except x > 5" naturally shows items without x. To exclude missing values under a
// `not`, wrap it: and(not(p), numeric between [null, null]) — an open range matches exactly
// the items that have a value.
import { clearTail, emptyBitset, fullBitset, type Bitset } from './bitset.js';
import { getColumn, parseTimestamp, type ItemTable } from './table.js';
import type { CategoricalColumn, Column, Filter, NumericColumn } from './types.js';

export interface EvaluateOptions {
  /**
   * Rows touched by history records other than the one that created them (label or split
   * edits, restores), by record id. A `history` filter matches the rows created by the record
   * (table.createdRecord) plus these.
   */
  recordRows?: ReadonlyMap<string, ArrayLike<number>>;
}

function expectColumn<T extends Column['type']>(
  column: Column,
  types: readonly T[],
  metadataId: string,
  filterType: string,
): T extends 'numeric' | 'timestamp' ? NumericColumn : CategoricalColumn {
  if (!(types as readonly string[]).includes(column.type)) {
    throw new Error(
      `A ${filterType} filter cannot apply to metadata field '${metadataId}' of type '${column.type}'`,
    );
  }
  return column as T extends 'numeric' | 'timestamp' ? NumericColumn : CategoricalColumn;
}

/** Rows whose value lies in [lo, hi]; NaN (missing) fails both comparisons. */
function between(column: NumericColumn, lo: number, hi: number, length: number): Bitset {
  const values = column.values;
  const bits = emptyBitset(length);
  const whole = length >>> 5;
  for (let w = 0; w < whole; w++) {
    const base = w << 5;
    let word = 0;
    for (let j = 0; j < 32; j++) {
      const v = values[base + j]!;
      word |= (v >= lo && v <= hi ? 1 : 0) << j;
    }
    bits[w] = word;
  }
  for (let i = whole << 5; i < length; i++) {
    const v = values[i]!;
    if (v >= lo && v <= hi) bits[i >>> 5]! |= 1 << (i & 31);
  }
  return bits;
}

/** Rows whose code is marked in `wanted` (missing −1 is never marked). */
function codesIn(codes: Int32Array, wanted: Uint8Array, length: number): Bitset {
  const bits = emptyBitset(length);
  const whole = length >>> 5;
  for (let w = 0; w < whole; w++) {
    const base = w << 5;
    let word = 0;
    for (let j = 0; j < 32; j++) {
      const c = codes[base + j]!;
      word |= (c >= 0 ? wanted[c]! : 0) << j;
    }
    bits[w] = word;
  }
  for (let i = whole << 5; i < length; i++) {
    const c = codes[i]!;
    if (c >= 0 && wanted[c] === 1) bits[i >>> 5]! |= 1 << (i & 31);
  }
  return bits;
}

function bound(value: unknown, what: string, metadataId: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new Error(`Numeric filter on '${metadataId}': ${what} must be a number or null`);
  }
  return value;
}

function timestampBound(value: unknown, metadataId: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' && typeof value !== 'string') {
    throw new Error(`Timestamp filter on '${metadataId}': expected epoch ms or an ISO string`);
  }
  return parseTimestamp(value, `in the timestamp filter on '${metadataId}'`);
}

function history(table: ItemTable, recordId: string, options: EvaluateOptions): Bitset {
  const bits = emptyBitset(table.length);
  const created = table.createdRecord;
  const code = created ? created.categories.indexOf(recordId) : -1;
  const extra = options.recordRows?.get(recordId);
  if (code === -1 && extra === undefined) {
    throw new Error(`Unknown history record '${recordId}'`);
  }
  if (created && code !== -1) {
    const codes = created.codes;
    for (let i = 0; i < table.length; i++) {
      if (codes[i] === code) bits[i >>> 5]! |= 1 << (i & 31);
    }
  }
  if (extra) {
    for (let k = 0; k < extra.length; k++) {
      const row = extra[k]!;
      if (row >= 0 && row < table.length) bits[row >>> 5]! |= 1 << (row & 31);
    }
  }
  return bits;
}

/**
 * The rows of `table` matching `filter`. Throws an Error naming the unknown filter type,
 * operator, metadata field or history record, or the field whose type does not fit the filter.
 */
export function evaluateFilter(
  table: ItemTable,
  filter: Filter,
  options: EvaluateOptions = {},
): Bitset {
  const n = table.length;
  const f = filter;
  // Read before narrowing, for error messages about shapes the types say cannot happen.
  const type: unknown = (filter as { type?: unknown }).type;
  const op: unknown = (filter as { op?: unknown }).op;
  switch (f.type) {
    case 'and':
    case 'or': {
      if (!Array.isArray(f.children))
        throw new Error(`An '${f.type}' filter needs a children array`);
      // and() of nothing is every row, or() of nothing is no row.
      const acc = f.type === 'and' ? fullBitset(n) : emptyBitset(n);
      for (const child of f.children) {
        const bits = evaluateFilter(table, child, options);
        if (f.type === 'and') for (let w = 0; w < acc.length; w++) acc[w]! &= bits[w]!;
        else for (let w = 0; w < acc.length; w++) acc[w]! |= bits[w]!;
      }
      return acc;
    }
    case 'not': {
      if (f.child === undefined) throw new Error(`A 'not' filter needs a child`);
      const bits = evaluateFilter(table, f.child, options);
      for (let w = 0; w < bits.length; w++) bits[w] = ~bits[w]!;
      clearTail(bits, n);
      return bits;
    }
    case 'boolean': {
      if (f.op !== 'bool_equals')
        throw new Error(`Unknown boolean filter operator '${String(op)}'`);
      const column = expectColumn(
        getColumn(table, f.metadata_id),
        ['boolean'],
        f.metadata_id,
        'boolean',
      );
      if (typeof (f.value as unknown) !== 'boolean') {
        throw new Error(`Boolean filter on '${f.metadata_id}': value must be true or false`);
      }
      const wanted = new Uint8Array(2);
      wanted[f.value ? 1 : 0] = 1;
      return codesIn(column.codes, wanted, n);
    }
    case 'numeric': {
      if (f.op !== 'between') throw new Error(`Unknown numeric filter operator '${String(op)}'`);
      const column = expectColumn(
        getColumn(table, f.metadata_id),
        ['numeric'],
        f.metadata_id,
        'numeric',
      );
      if (!Array.isArray(f.value) || f.value.length !== 2) {
        throw new Error(`Numeric filter on '${f.metadata_id}': value must be [min, max]`);
      }
      const lo = bound(f.value[0], 'min', f.metadata_id) ?? -Infinity;
      const hi = bound(f.value[1], 'max', f.metadata_id) ?? Infinity;
      return between(column, lo, hi, n);
    }
    case 'string': {
      if (f.op !== 'in') throw new Error(`Unknown string filter operator '${String(op)}'`);
      const column: CategoricalColumn = expectColumn(
        getColumn(table, f.metadata_id),
        ['string'],
        f.metadata_id,
        'string',
      );
      if (!Array.isArray(f.value)) {
        throw new Error(`String filter on '${f.metadata_id}': value must be a list of strings`);
      }
      const wanted = new Uint8Array(column.categories.length);
      const index = new Map(column.categories.map((c, k) => [c, k]));
      for (const v of f.value) {
        const code = index.get(v); // a value no item has matches nothing
        if (code !== undefined) wanted[code] = 1;
      }
      return codesIn(column.codes, wanted, n);
    }
    case 'timestamp': {
      const column = expectColumn(
        getColumn(table, f.metadata_id),
        ['timestamp'],
        f.metadata_id,
        'timestamp',
      );
      if (f.op === 'ts_equals') {
        const at = timestampBound(f.value, f.metadata_id);
        if (at === null)
          throw new Error(`Timestamp filter on '${f.metadata_id}': ts_equals needs a value`);
        return between(column, at, at, n);
      }
      if (f.op !== 'ts_between')
        throw new Error(`Unknown timestamp filter operator '${String(op)}'`);
      if (!Array.isArray(f.value) || f.value.length !== 2) {
        throw new Error(`Timestamp filter on '${f.metadata_id}': value must be [from, to]`);
      }
      const lo = timestampBound(f.value[0], f.metadata_id) ?? -Infinity;
      const hi = timestampBound(f.value[1], f.metadata_id) ?? Infinity;
      return between(column, lo, hi, n);
    }
    case 'history':
      if (typeof f.record_id !== 'string' && typeof f.record_id !== 'number') {
        throw new Error(`A history filter needs a record_id`);
      }
      return history(table, String(f.record_id), options);
    default:
      throw new Error(`Unknown filter type '${String(type)}'`);
  }
}

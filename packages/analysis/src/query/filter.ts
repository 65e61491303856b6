// Evaluates the explorer's filter tree (docs/product.md §3 "Filter") to a bitset of matching rows, one
// tight loop over a typed column per predicate.
//
// Missing values: a predicate (boolean, numeric, string, timestamp) never matches an item whose
// value is missing, and `not` is the plain complement, so `not(predicate)` does include items
// with a missing value. That keeps `not` an involution and `a or not a` = every item, and
// "everything except x > 5" naturally shows items without x. To exclude missing values under a
// `not`, wrap it: and(not(p), numeric between [null, null]) — an open range matches exactly
// the items that have a value.
import { clearTail, emptyBitset, type Bitset } from './bitset.js';
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

// Every predicate is one pass over its typed column that builds 32 rows' bits into a word with
// no branch per row (a comparison's `+(a >= b)` is a flag, where `a >= b ? 1 : 0` would be a
// jump that random data mispredicts half the time), four rows a step, and combines that word
// straight into the result: and/or/not trees need no bitset per node, and a word that an `and`
// has already emptied is skipped.

/** How a predicate's words go into the result: replace, intersect or unite. */
const SET = 0;
const AND = 1;
const OR = 2;
type Combine = typeof SET | typeof AND | typeof OR;
const ALL_ROWS = 0xffffffff;

/** True when `op` cannot change word w of `out`: nothing left to intersect, or nothing to add. */
function settled(out: Bitset, w: number, op: Combine): boolean {
  return op === AND ? out[w] === 0 : op === OR && out[w] === ALL_ROWS;
}

/** Puts `word` into word w of `out` under `op`; `flip` (0 or −1) complements it first (`not`). */
function store(out: Bitset, w: number, word: number, op: Combine, flip: number): void {
  const bits = word ^ flip;
  if (op === SET) out[w] = bits;
  else if (op === AND) out[w]! &= bits;
  else out[w]! |= bits;
}

/**
 * Rows whose value lies in [lo, hi]; NaN (missing) fails every comparison. An open end costs
 * nothing: a one-sided range compares once a row.
 */
function inRange(
  values: Float64Array,
  lo: number,
  hi: number,
  n: number,
  out: Bitset,
  op: Combine,
  flip: number,
): void {
  if (hi === Infinity) atLeast(values, lo, n, out, op, flip);
  else if (lo === -Infinity) atMost(values, hi, n, out, op, flip);
  else between(values, lo, hi, n, out, op, flip);
}

function between(
  values: Float64Array,
  lo: number,
  hi: number,
  n: number,
  out: Bitset,
  op: Combine,
  flip: number,
): void {
  const whole = n >>> 5;
  for (let w = 0; w < whole; w++) {
    if (settled(out, w, op)) continue;
    let word = 0;
    for (let i = w << 5, j = 0; j < 32; i += 4, j += 4) {
      const a = values[i]!;
      const b = values[i + 1]!;
      const c = values[i + 2]!;
      const d = values[i + 3]!;
      word |=
        ((+(a >= lo) & +(a <= hi)) |
          ((+(b >= lo) & +(b <= hi)) << 1) |
          ((+(c >= lo) & +(c <= hi)) << 2) |
          ((+(d >= lo) & +(d <= hi)) << 3)) <<
        j;
    }
    store(out, w, word, op, flip);
  }
  if (whole << 5 < n) {
    let word = 0;
    for (let i = whole << 5; i < n; i++) {
      const v = values[i]!;
      word |= (+(v >= lo) & +(v <= hi)) << (i & 31);
    }
    store(out, whole, word, op, flip);
  }
}

function atLeast(
  values: Float64Array,
  lo: number,
  n: number,
  out: Bitset,
  op: Combine,
  flip: number,
): void {
  const whole = n >>> 5;
  for (let w = 0; w < whole; w++) {
    if (settled(out, w, op)) continue;
    let word = 0;
    for (let i = w << 5, j = 0; j < 32; i += 4, j += 4) {
      word |=
        (+(values[i]! >= lo) |
          (+(values[i + 1]! >= lo) << 1) |
          (+(values[i + 2]! >= lo) << 2) |
          (+(values[i + 3]! >= lo) << 3)) <<
        j;
    }
    store(out, w, word, op, flip);
  }
  if (whole << 5 < n) {
    let word = 0;
    for (let i = whole << 5; i < n; i++) word |= +(values[i]! >= lo) << (i & 31);
    store(out, whole, word, op, flip);
  }
}

function atMost(
  values: Float64Array,
  hi: number,
  n: number,
  out: Bitset,
  op: Combine,
  flip: number,
): void {
  const whole = n >>> 5;
  for (let w = 0; w < whole; w++) {
    if (settled(out, w, op)) continue;
    let word = 0;
    for (let i = w << 5, j = 0; j < 32; i += 4, j += 4) {
      word |=
        (+(values[i]! <= hi) |
          (+(values[i + 1]! <= hi) << 1) |
          (+(values[i + 2]! <= hi) << 2) |
          (+(values[i + 3]! <= hi) << 3)) <<
        j;
    }
    store(out, w, word, op, flip);
  }
  if (whole << 5 < n) {
    let word = 0;
    for (let i = whole << 5; i < n; i++) word |= +(values[i]! <= hi) << (i & 31);
    store(out, whole, word, op, flip);
  }
}

/** Rows whose code is `code` (−1, missing, is never asked for). */
function codeIs(
  codes: Int32Array,
  code: number,
  n: number,
  out: Bitset,
  op: Combine,
  flip: number,
): void {
  const whole = n >>> 5;
  for (let w = 0; w < whole; w++) {
    if (settled(out, w, op)) continue;
    let word = 0;
    for (let i = w << 5, j = 0; j < 32; i += 4, j += 4) {
      word |=
        (+(codes[i] === code) |
          (+(codes[i + 1] === code) << 1) |
          (+(codes[i + 2] === code) << 2) |
          (+(codes[i + 3] === code) << 3)) <<
        j;
    }
    store(out, w, word, op, flip);
  }
  if (whole << 5 < n) {
    let word = 0;
    for (let i = whole << 5; i < n; i++) word |= +(codes[i] === code) << (i & 31);
    store(out, whole, word, op, flip);
  }
}

/**
 * Rows whose code c has bit c of `mask` set, for a column of at most 31 categories: the missing
 * code −1 shifts by 31 (`>>>` takes the count mod 32), a bit no category uses. A shift of a
 * value held in a register costs less than codeMarked's table load, which V8 bounds-checks.
 */
function codeInMask(
  codes: Int32Array,
  mask: number,
  n: number,
  out: Bitset,
  op: Combine,
  flip: number,
): void {
  const whole = n >>> 5;
  for (let w = 0; w < whole; w++) {
    if (settled(out, w, op)) continue;
    let word = 0;
    for (let i = w << 5, j = 0; j < 32; i += 4, j += 4) {
      word |=
        (((mask >>> codes[i]!) & 1) |
          (((mask >>> codes[i + 1]!) & 1) << 1) |
          (((mask >>> codes[i + 2]!) & 1) << 2) |
          (((mask >>> codes[i + 3]!) & 1) << 3)) <<
        j;
    }
    store(out, w, word, op, flip);
  }
  if (whole << 5 < n) {
    let word = 0;
    for (let i = whole << 5; i < n; i++) word |= ((mask >>> codes[i]!) & 1) << (i & 31);
    store(out, whole, word, op, flip);
  }
}

/** Rows whose code c has `marked[c + 1]` = 1 (slot 0, the missing code −1, stays 0). */
function codeMarked(
  codes: Int32Array,
  marked: Uint8Array,
  n: number,
  out: Bitset,
  op: Combine,
  flip: number,
): void {
  const whole = n >>> 5;
  for (let w = 0; w < whole; w++) {
    if (settled(out, w, op)) continue;
    let word = 0;
    for (let i = w << 5, j = 0; j < 32; i += 4, j += 4) {
      word |=
        (marked[codes[i]! + 1]! |
          (marked[codes[i + 1]! + 1]! << 1) |
          (marked[codes[i + 2]! + 1]! << 2) |
          (marked[codes[i + 3]! + 1]! << 3)) <<
        j;
    }
    store(out, w, word, op, flip);
  }
  if (whole << 5 < n) {
    let word = 0;
    for (let i = whole << 5; i < n; i++) word |= marked[codes[i]! + 1]! << (i & 31);
    store(out, whole, word, op, flip);
  }
}

/** Rows with any code (not missing). */
function codePresent(codes: Int32Array, n: number, out: Bitset, op: Combine, flip: number): void {
  const whole = n >>> 5;
  for (let w = 0; w < whole; w++) {
    if (settled(out, w, op)) continue;
    let word = 0;
    for (let i = w << 5, j = 0; j < 32; i += 4, j += 4) {
      word |=
        (+(codes[i]! >= 0) |
          (+(codes[i + 1]! >= 0) << 1) |
          (+(codes[i + 2]! >= 0) << 2) |
          (+(codes[i + 3]! >= 0) << 3)) <<
        j;
    }
    store(out, w, word, op, flip);
  }
  if (whole << 5 < n) {
    let word = 0;
    for (let i = whole << 5; i < n; i++) word |= +(codes[i]! >= 0) << (i & 31);
    store(out, whole, word, op, flip);
  }
}

/** Rows whose code is one of `wanted` (codes of the column's categories). */
function codesIn(
  codes: Int32Array,
  wanted: readonly number[],
  categories: number,
  n: number,
  out: Bitset,
  op: Combine,
  flip: number,
): void {
  const marked = new Uint8Array(categories + 1);
  for (const code of wanted) marked[code + 1] = 1;
  let count = 0;
  let only = -1;
  for (let c = 0; c < categories; c++) {
    if (marked[c + 1] === 1) {
      count++;
      only = c;
    }
  }
  // No category, one, or all of them: a constant or a plain comparison beats the table lookup,
  // and up to 31 categories fit a bit mask (about 1.4× faster than the table on 1M rows).
  if (count === 0) combineConstant(out, 0, op, flip);
  else if (count === 1) codeIs(codes, only, n, out, op, flip);
  else if (count === categories) codePresent(codes, n, out, op, flip);
  else if (categories <= 31) {
    let mask = 0;
    for (let c = 0; c < categories; c++) mask |= marked[c + 1]! << c;
    codeInMask(codes, mask, n, out, op, flip);
  } else codeMarked(codes, marked, n, out, op, flip);
}

/** Every word of `out` combined with the same word (0: no row, −1: every row). */
function combineConstant(out: Bitset, word: number, op: Combine, flip: number): void {
  const bits = (word ^ flip) >>> 0;
  if (op === SET) out.fill(bits);
  else if (op === AND && bits === 0) out.fill(0);
  else if (op === OR && bits === ALL_ROWS) out.fill(ALL_ROWS);
}

/** Combines a whole bitset into `out` (the rare nodes that are not one column pass). */
function combineBitset(out: Bitset, bits: Bitset, op: Combine, flip: number): void {
  for (let w = 0; w < out.length; w++) store(out, w, bits[w]!, op, flip);
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
  const out = emptyBitset(table.length);
  evaluateInto(table, filter, options, out, SET, 0);
  clearTail(out, table.length); // complemented words set the bits past the last row
  return out;
}

/** Clears the rows of `bits` whose value of `metadataId` is missing (one pass over its column). */
export function dropMissing(table: ItemTable, bits: Bitset, metadataId: string): void {
  const column = getColumn(table, metadataId);
  if ('codes' in column) codePresent(column.codes, table.length, bits, AND, 0);
  else inRange(column.values, -Infinity, Infinity, table.length, bits, AND, 0);
}

/**
 * Combines the rows matching `filter`, complemented when `flip` is −1, into `out` under `op`.
 * Bits past the last row may be set; evaluateFilter clears them once at the end.
 */
function evaluateInto(
  table: ItemTable,
  filter: Filter,
  options: EvaluateOptions,
  out: Bitset,
  op: Combine,
  flip: number,
): void {
  const n = table.length;
  const f = filter;
  // Read before narrowing, for error messages about shapes the types say cannot happen.
  const type: unknown = (filter as { type?: unknown }).type;
  const operator: unknown = (filter as { op?: unknown }).op;
  switch (f.type) {
    case 'and':
    case 'or': {
      if (!Array.isArray(f.children))
        throw new Error(`An '${f.type}' filter needs a children array`);
      // Under a complement, and becomes or of the complements (De Morgan), and or becomes and.
      const intersect = (f.type === 'and') === (flip === 0);
      const inner: Combine = intersect ? AND : OR;
      if (op === SET || op === inner) {
        // and() of nothing is every row, or() of nothing is no row.
        if (op === SET) out.fill(intersect ? ALL_ROWS : 0);
        for (const child of f.children) evaluateInto(table, child, options, out, inner, flip);
      } else {
        const bits = emptyBitset(n);
        evaluateInto(table, f, options, bits, SET, flip);
        combineBitset(out, bits, op, 0);
      }
      return;
    }
    case 'not': {
      if (f.child === undefined) throw new Error(`A 'not' filter needs a child`);
      evaluateInto(table, f.child, options, out, op, ~flip);
      return;
    }
    case 'boolean': {
      if (f.op !== 'bool_equals')
        throw new Error(`Unknown boolean filter operator '${String(operator)}'`);
      const column = expectColumn(
        getColumn(table, f.metadata_id),
        ['boolean'],
        f.metadata_id,
        'boolean',
      );
      if (typeof (f.value as unknown) !== 'boolean') {
        throw new Error(`Boolean filter on '${f.metadata_id}': value must be true or false`);
      }
      codeIs(column.codes, f.value ? 1 : 0, n, out, op, flip);
      return;
    }
    case 'numeric': {
      if (f.op !== 'between')
        throw new Error(`Unknown numeric filter operator '${String(operator)}'`);
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
      inRange(column.values, lo, hi, n, out, op, flip);
      return;
    }
    case 'string': {
      if (f.op !== 'in') throw new Error(`Unknown string filter operator '${String(operator)}'`);
      const column: CategoricalColumn = expectColumn(
        getColumn(table, f.metadata_id),
        ['string'],
        f.metadata_id,
        'string',
      );
      if (!Array.isArray(f.value)) {
        throw new Error(`String filter on '${f.metadata_id}': value must be a list of strings`);
      }
      const index = new Map(column.categories.map((c, k) => [c, k]));
      const wanted: number[] = [];
      for (const v of f.value) {
        const code = index.get(v); // a value no item has matches nothing
        if (code !== undefined) wanted.push(code);
      }
      codesIn(column.codes, wanted, column.categories.length, n, out, op, flip);
      return;
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
        inRange(column.values, at, at, n, out, op, flip);
        return;
      }
      if (f.op !== 'ts_between')
        throw new Error(`Unknown timestamp filter operator '${String(operator)}'`);
      if (!Array.isArray(f.value) || f.value.length !== 2) {
        throw new Error(`Timestamp filter on '${f.metadata_id}': value must be [from, to]`);
      }
      const lo = timestampBound(f.value[0], f.metadata_id) ?? -Infinity;
      const hi = timestampBound(f.value[1], f.metadata_id) ?? Infinity;
      inRange(column.values, lo, hi, n, out, op, flip);
      return;
    }
    case 'history':
      if (typeof f.record_id !== 'string' && typeof f.record_id !== 'number') {
        throw new Error(`A history filter needs a record_id`);
      }
      combineBitset(out, history(table, String(f.record_id), options), op, flip);
      return;
    default:
      throw new Error(`Unknown filter type '${String(type)}'`);
  }
}

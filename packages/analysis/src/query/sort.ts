// Multi-key sort of selected rows (docs/product.md §4 "Sort"): missing values last whatever the
// direction, ties in upload order, strings in dictionary (= string) order.
//
// Why radix: a comparator sort over 1M indices took 0.4–1.2 s here (V8, two float keys).
// Every key becomes uint32 words per row whose unsigned order is the wanted order, and a
// stable LSD radix sort with ≤ 11-bit digits (2048 buckets keep the counts in L1; 8- and
// 16-bit digits measured no faster) runs from the last key to the first. Stability plus
// starting from ascending row order gives ties in upload order.
//   - string/boolean: the dictionary code (categories are sorted), K − 1 − code descending,
//     K for missing: one pass for up to 2047 categories.
//   - numeric/timestamp without a sort index: integers spanning less than 2³² as one word
//     `v − min`; any other doubles by their IEEE bits made unsigned-sortable (sign flipped,
//     negatives inverted) as two 32-bit words: six passes.
//   - numeric/timestamp with a sort index (`prepareSortIndex`): the value's dense rank among
//     the column's distinct values, one word of ⌈log2(distinct + 1)⌉ bits: two passes at 1M
//     rows. The index is a full 64-bit radix sort of the column (~0.15–0.3 s at 1M rows),
//     cached per column for the table's lifetime like a database index (4 bytes a row), so
//     the server should build it off the request path (`prepareSortIndexes`) when it loads
//     a table; queries never build it themselves.
// When the last key is indexed and the selection is a sixteenth of the table or more, a scan
// of its index replaces that key's passes; when every other key is a dictionary key (the
// object level's "label, then area"), no radix pass is left: a bucket sort places each row
// of the scan in its bucket of those keys (`bucketSort`: 3M objects in ~60 ms of CPU instead
// of ~380 ms for the scan plus passes).
import { bitsetToRows, countRows, emptyBitset, type Bitset } from './bitset.js';
import { getColumn, type ItemTable } from './table.js';
import type { NumericColumn, SortEntry } from './types.js';

const MAX_BITS = 11;

/** A sort word per selected row and how many low bits of it are in use. */
interface Word {
  word: Uint32Array;
  bits: number;
}

function bitsFor(maxValue: number): number {
  return Math.max(1, 32 - Math.clz32(maxValue));
}

/**
 * Stable LSD radix sort of positions 0..m−1 by `words` (least significant first). Returns the
 * permutation: position of the i-th smallest. With one word, `payload` (m values, e.g. row
 * indices) may travel instead of the positions: the answer is then the payload sorted, with no
 * gather afterwards (a gather in random order costs a cache miss per row at millions of rows).
 */
function radixOrder(words: readonly Word[], m: number, payload?: Uint32Array): Uint32Array {
  // The current word travels with the permutation, so each pass reads sequentially and only
  // the scatter is random; each word is gathered once, not once per pass.
  if (payload && words.length > 1) throw new Error('A payload travels with one word only');
  let perm = new Uint32Array(m);
  let spare = new Uint32Array(m);
  let key = new Uint32Array(m);
  let keySpare = new Uint32Array(m);
  if (payload) perm.set(payload);
  else for (let p = 0; p < m; p++) perm[p] = p;
  let identity = true;
  for (const { word, bits } of words) {
    const passes = Math.ceil(bits / MAX_BITS);
    const digit = Math.ceil(bits / passes);
    const mask = (1 << digit) - 1;
    if (identity) key.set(word);
    else for (let i = 0; i < m; i++) key[i] = word[perm[i]!]!;
    const counts = new Uint32Array(passes << digit);
    for (let i = 0; i < m; i++) {
      const w = key[i]!;
      for (let d = 0; d < passes; d++) counts[(d << digit) + ((w >>> (d * digit)) & mask)]!++;
    }
    for (let d = 0; d < passes; d++) {
      const base = d << digit;
      const shift = d * digit;
      // Every row has the same digit: the pass would not move anything.
      if (m === 0 || counts[base + ((key[0]! >>> shift) & mask)] === m) continue;
      let sum = 0;
      for (let b = 0; b <= mask; b++) {
        const c = counts[base + b]!;
        counts[base + b] = sum;
        sum += c;
      }
      for (let i = 0; i < m; i++) {
        const w = key[i]!;
        const at = counts[base + ((w >>> shift) & mask)]!++;
        keySpare[at] = w;
        spare[at] = perm[i]!;
      }
      let t = perm;
      perm = spare;
      spare = t;
      t = key;
      key = keySpare;
      keySpare = t;
      identity = false;
    }
  }
  return perm;
}

/** Dense ranks of a numeric column: equal values share a rank; `distinct` = rank of missing. */
export interface SortIndex {
  ranks: Uint32Array;
  distinct: number;
  /** Every row in ascending value order, equal values in row order, missing ones last. */
  order: Uint32Array;
  /** How many rows have a value: `order[present…]` are the missing ones. */
  present: number;
  /**
   * Bit i (of word i >>> 5) is set where `order[i]` starts a group of equal values, so a
   * descending scan finds the groups without reading `ranks` in random order (n / 8 bytes).
   */
  groupStarts: Uint32Array;
}

const sortIndexes = new WeakMap<NumericColumn, SortIndex>();
/** Columns whose index was adopted from storage and not checked yet. */
const unverified = new WeakSet<NumericColumn>();

/**
 * Unsigned-sortable 64-bit keys (hi, lo) of `values[rows[p]]`; missing is the maximum in both
 * directions, descending inverts the others.
 */
function doubleWords(
  values: Float64Array,
  rows: Uint32Array | null,
  descending: boolean,
): { lo: Uint32Array; hi: Uint32Array } {
  const m = rows ? rows.length : values.length;
  // Little-endian view of the doubles' bits (every platform Node runs on is little-endian).
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  const lo = new Uint32Array(m);
  const hi = new Uint32Array(m);
  const flip = descending ? 0xffffffff : 0;
  for (let p = 0; p < m; p++) {
    const r = rows ? rows[p]! : p;
    const v = values[r]!;
    if (v !== v) {
      lo[p] = 0xffffffff; // missing after everything, +Infinity included
      hi[p] = 0xffffffff;
    } else if (v === 0) {
      lo[p] = flip; // −0 and +0 are equal: both as +0
      hi[p] = (0x80000000 ^ flip) >>> 0;
    } else {
      const h = bits[2 * r + 1]!;
      const l = bits[2 * r]!;
      // IEEE order → unsigned order: negative numbers flip entirely, positive flip the sign.
      const negative = (h & 0x80000000) !== 0;
      hi[p] = ((negative ? ~h : h | 0x80000000) ^ flip) >>> 0;
      lo[p] = ((negative ? ~l : l) ^ flip) >>> 0;
    }
  }
  return { lo, hi };
}

/**
 * When every selected value is an integer and max − min + 1 < 2³² (counts, pixel sizes,
 * timestamps within ~49 days), one word `v − min` (descending `max − v`, missing max − min
 * + 1) orders them exactly, in ⌈bits / 11⌉ passes instead of six. Null otherwise.
 */
function integerWord(values: Float64Array, rows: Uint32Array, descending: boolean): Word | null {
  const m = rows.length;
  let min = Infinity;
  let max = -Infinity;
  for (let p = 0; p < m; p++) {
    const v = values[rows[p]!]!;
    if (v !== v) continue;
    if (!Number.isInteger(v)) return null;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const missing = min > max ? 0 : max - min + 1;
  if (missing > 0xffffffff) return null;
  const word = new Uint32Array(m);
  for (let p = 0; p < m; p++) {
    const v = values[rows[p]!]!;
    word[p] = v !== v ? missing : descending ? max - v : v - min;
  }
  return { word, bits: bitsFor(missing) };
}

function buildSortIndex(column: NumericColumn): SortIndex {
  const values = column.values;
  const n = values.length;
  const { lo, hi } = doubleWords(values, null, false);
  const order = radixOrder(
    [
      { word: lo, bits: 32 },
      { word: hi, bits: 32 },
    ],
    n,
  );
  const ranks = new Uint32Array(n);
  const groupStarts = new Uint32Array((n + 31) >>> 5);
  let rank = -1;
  let prevHi = -1;
  let prevLo = -1;
  let present = 0;
  for (let i = 0; i < n; i++) {
    const r = order[i]!;
    const v = values[r]!;
    if (v !== v) {
      ranks[r] = 0; // patched below once the number of distinct values is known
      continue;
    }
    present++;
    if (hi[r] !== prevHi || lo[r] !== prevLo) {
      rank++;
      prevHi = hi[r]!;
      prevLo = lo[r]!;
      groupStarts[i >>> 5]! |= 1 << (i & 31);
    }
    ranks[r] = rank;
  }
  const distinct = rank + 1;
  for (let r = 0; r < n; r++) if (values[r] !== values[r]) ranks[r] = distinct;
  return { ranks, distinct, order, present, groupStarts };
}

/** The sort index of a numeric or timestamp field: built on first call, then cached. */
export function prepareSortIndex(table: ItemTable, metadataId: string): SortIndex {
  const column = getColumn(table, metadataId);
  if ('codes' in column) throw new Error(`Metadata field '${metadataId}' is not numeric`);
  let index = sortIndexes.get(column);
  if (!index) {
    index = buildSortIndex(column);
    sortIndexes.set(column, index);
  }
  return index;
}

/** The sort index of a numeric or timestamp column if one was built (to store it). */
export function builtSortIndex(column: NumericColumn): SortIndex | undefined {
  return sortIndexes.get(column);
}

/**
 * Installs a sort index read back from storage as the column's, checking only its sizes: reading
 * a table back must not cost a pass over every column. `sortIndexOrders` checks the rest and
 * is meant to run afterwards, off the request path (`dropSortIndex` if it fails). Answers false,
 * and installs nothing, when the sizes do not fit the column.
 */
export function adoptSortIndex(column: NumericColumn, index: SortIndex): boolean {
  const n = column.values.length;
  const { order, ranks, groupStarts, present, distinct } = index;
  if (order.length !== n || ranks.length !== n || groupStarts.length !== (n + 31) >>> 5)
    return false;
  if (!(present >= 0 && present <= n && distinct >= 0 && distinct <= present)) return false;
  sortIndexes.set(column, index);
  unverified.add(column);
  return true;
}

/**
 * Checks a sort index `adoptSortIndex` installed (`sortIndexOrders`), once: one that does not
 * order its column is dropped (and built again by the next `prepareSortIndex`). Answers false
 * when it dropped one, true otherwise (also when there was nothing to check).
 */
export function verifySortIndex(column: NumericColumn): boolean {
  if (!unverified.has(column)) return true;
  unverified.delete(column);
  const index = sortIndexes.get(column);
  if (!index || sortIndexOrders(column, index)) return true;
  sortIndexes.delete(column);
  return false;
}

/**
 * Whether `index` is exactly what building the column's sort index makes: its order a
 * permutation of the rows in ascending value order (ties in row order, missing ones last), a
 * group start wherever the value changes, and each row's rank its group's. One pass.
 */
export function sortIndexOrders(column: NumericColumn, index: SortIndex): boolean {
  const { values } = column;
  const { order, ranks, groupStarts, present, distinct } = index;
  const n = values.length;
  if (order.length !== n || ranks.length !== n || groupStarts.length !== (n + 31) >>> 5)
    return false;
  if (!(present >= 0 && present <= n && distinct >= 0 && distinct <= present)) return false;
  const seen = new Uint8Array(n);
  let rank = -1;
  let previous = -Infinity;
  let previousRow = -1;
  for (let i = 0; i < n; i++) {
    const r = order[i]!;
    if (r >= n || seen[r]) return false;
    seen[r] = 1;
    const v = values[r]!;
    const starts = (groupStarts[i >>> 5]! >>> (i & 31)) & 1;
    if (i >= present) {
      if (v === v || starts || ranks[r] !== distinct) return false;
      continue;
    }
    if (v !== v || v < previous) return false;
    // A group starts exactly where the value changes (−0 equals 0, as the sort words make it);
    // within a group rows keep their order.
    const changes = i === 0 || v !== previous;
    if ((changes ? 1 : 0) !== starts || (!changes && r < previousRow)) return false;
    if (starts) rank++;
    if (ranks[r] !== rank) return false;
    previous = v;
    previousRow = r;
  }
  return rank + 1 === distinct;
}

/** Build the sort indexes of every numeric and timestamp field (e.g. after loading a table). */
export function prepareSortIndexes(table: ItemTable): void {
  for (const [id, column] of table.columns) if (!('codes' in column)) prepareSortIndex(table, id);
}

/**
 * `rows` in the order of one indexed key by walking the index (an index scan): ties in row
 * order and missing values last in both directions, as the radix sort orders them. Costs one
 * pass over the whole column, so it pays when `rows` is a good part of the table.
 */
function indexScan(index: SortIndex, rows: Uint32Array, descending: boolean): Uint32Array {
  const { order, present, groupStarts } = index;
  const n = order.length;
  const member = new Uint8Array(n);
  for (let p = 0; p < rows.length; p++) member[rows[p]!] = 1;
  const out = new Uint32Array(rows.length);
  let k = 0;
  if (!descending) {
    for (let i = 0; i < present; i++) {
      const r = order[i]!;
      if (member[r]) out[k++] = r;
    }
  } else {
    // Groups of equal values from the largest down, each group in row order.
    let end = present;
    while (end > 0) {
      let start = end - 1;
      while (((groupStarts[start >>> 5]! >>> (start & 31)) & 1) === 0) start--;
      for (let i = start; i < end; i++) {
        const r = order[i]!;
        if (member[r]) out[k++] = r;
      }
      end = start;
    }
  }
  for (let i = present; i < n; i++) {
    const r = order[i]!;
    if (member[r]) out[k++] = r;
  }
  return out;
}

/** The sort index of a key's column when it is numeric and its index is built. */
function builtIndex(table: ItemTable, entry: SortEntry): SortIndex | undefined {
  const column = getColumn(table, entry.name);
  return 'codes' in column ? undefined : sortIndexes.get(column);
}

function isDescending(entry: SortEntry): boolean {
  const { direction } = entry;
  if (direction !== 'ascending' && direction !== 'descending') {
    throw new Error(`Unknown sort direction '${String(direction)}' for '${entry.name}'`);
  }
  return direction === 'descending';
}

/** The sort words of one key for `rows`, least significant first. */
function keyWords(table: ItemTable, entry: SortEntry, rows: Uint32Array): Word[] {
  const column = getColumn(table, entry.name);
  const descending = isDescending(entry);
  const m = rows.length;
  if ('codes' in column) {
    const word = new Uint32Array(m);
    const codes = column.codes;
    const k = column.categories.length;
    const wordOf = (c: number) => (c < 0 ? k : descending ? k - 1 - c : c);
    if (k < 256 && m >= COMPACT_GATHER_ROWS) {
      // Many rows, maybe in random order (after an index scan): read the words from a byte per
      // row, a quarter of the codes' size, so the random reads mostly hit the cache.
      const small = new Uint8Array(codes.length);
      for (let r = 0; r < codes.length; r++) small[r] = wordOf(codes[r]!);
      for (let p = 0; p < m; p++) word[p] = small[rows[p]!]!;
    } else {
      for (let p = 0; p < m; p++) word[p] = wordOf(codes[rows[p]!]!);
    }
    return [{ word, bits: bitsFor(k) }];
  }
  const index = sortIndexes.get(column);
  if (!index) {
    const narrow = integerWord(column.values, rows, descending);
    if (narrow) return [narrow];
    const { lo, hi } = doubleWords(column.values, rows, descending);
    return [
      { word: lo, bits: 32 },
      { word: hi, bits: 32 },
    ];
  }
  const { ranks, distinct } = index;
  const word = new Uint32Array(m);
  if (descending) {
    for (let p = 0; p < m; p++) {
      const rank = ranks[rows[p]!]!;
      word[p] = rank === distinct ? distinct : distinct - 1 - rank;
    }
  } else {
    for (let p = 0; p < m; p++) word[p] = ranks[rows[p]!]!;
  }
  return [{ word, bits: bitsFor(distinct) }];
}

/**
 * The leading keys of a sort whose last key is indexed, when they are all dictionary keys
 * (strings, booleans) with few enough combinations: each row's bucket is the sum of one
 * lookup per key (`luts[k][code + 1]`, the key's sort word times its stride), so buckets in
 * ascending order are the leading keys' order.
 */
interface BucketPlan {
  /** The leading keys' codes, the least significant (the key before the indexed one) first. */
  codes: Int32Array[];
  luts: Uint32Array[];
  buckets: number;
}

/** At most this many combinations of the leading keys: their offsets are allocated per query. */
const MAX_BUCKETS = 0xffff;

function bucketPlan(table: ItemTable, sort: readonly SortEntry[]): BucketPlan | null {
  const codes: Int32Array[] = [];
  const luts: Uint32Array[] = [];
  let stride = 1;
  for (let k = sort.length - 2; k >= 0; k--) {
    const column = getColumn(table, sort[k]!.name);
    const descending = isDescending(sort[k]!);
    if (!('codes' in column)) return null;
    const size = column.categories.length + 1; // the categories and missing, last
    if (stride * size > MAX_BUCKETS) return null;
    const lut = new Uint32Array(size);
    lut[0] = stride * (size - 1);
    for (let c = 0; c < size - 1; c++) lut[c + 1] = stride * (descending ? size - 2 - c : c);
    codes.push(column.codes);
    luts.push(lut);
    stride *= size;
  }
  return { codes, luts, buckets: stride };
}

/** Codes + 1 of a dictionary column in a sort index's order (0 = missing). */
type PermutedCodes = Uint8Array | Uint16Array;

/**
 * Per sort index, the codes of the dictionary columns last sorted before it, in its order: the
 * bucket sort's scan then reads them in sequence instead of one random read per row (the
 * difference between a 1-byte-a-row array read in order and read at random is most of the
 * scan's time at millions of rows). At most PERMUTED_PER_INDEX columns per index are kept (a
 * byte a row each, two from 255 categories on); a patched column has new codes, so a
 * stale copy is never read.
 */
const permutedCodes = new WeakMap<SortIndex, Map<Int32Array, PermutedCodes>>();
const PERMUTED_PER_INDEX = 2;

function codesInOrder(index: SortIndex, codes: Int32Array, categories: number): PermutedCodes {
  let kept = permutedCodes.get(index);
  if (!kept) permutedCodes.set(index, (kept = new Map()));
  let permuted = kept.get(codes);
  if (permuted) return permuted;
  const { order } = index;
  permuted = categories < 0xff ? new Uint8Array(order.length) : new Uint16Array(order.length);
  for (let i = 0; i < order.length; i++) permuted[i] = codes[order[i]!]! + 1;
  if (kept.size >= PERMUTED_PER_INDEX) kept.delete(kept.keys().next().value!);
  kept.set(codes, permuted);
  return permuted;
}

/**
 * Sort of a selection by dictionary keys then an indexed key, in linear time: the buckets'
 * sizes (each bucket one combination of the leading keys) in one pass over the rows, then one
 * scan of the index that appends each selected row to its bucket. The answer is the LSD radix
 * sort's (index scan, then stable passes by the leading keys), ties in row order, without its
 * passes, gathers and arrays. `bits` is the selection, `count` its number of rows.
 */
function bucketSort(
  plan: BucketPlan,
  index: SortIndex,
  descending: boolean,
  bits: Bitset,
  count: number,
): Uint32Array {
  const { order, present, groupStarts } = index;
  const n = order.length;
  const { codes, luts } = plan;
  const keys = codes.length;
  const permuted = codes.map((c, k) => codesInOrder(index, c, luts[k]!.length - 1));
  // offsets[b + 1] counts bucket b's selected rows, then becomes where its next row goes.
  const offsets = new Uint32Array(plan.buckets + 1);
  const codes0 = keys > 0 ? codes[0]! : null;
  const lut0 = keys > 0 ? luts[0]! : null;
  const bucketAt = (r: number): number => {
    let b = codes0 ? lut0![codes0[r]! + 1]! + 1 : 1;
    for (let k = 1; k < keys; k++) b += luts[k]![codes[k]![r]! + 1]!;
    return b;
  };
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    const base = w << 5;
    if (word === -1 >>> 0) {
      // A full word (most of them when most rows are selected): no bit to test.
      for (let r = base; r < base + 32; r++) offsets[bucketAt(r)]!++;
      continue;
    }
    while (word !== 0) {
      const low = word & -word;
      offsets[bucketAt(base + 31 - Math.clz32(low))]!++;
      word ^= low;
    }
  }
  let sum = 0;
  for (let b = 1; b <= plan.buckets; b++) {
    const c = offsets[b]!;
    offsets[b] = sum;
    sum += c;
  }
  const out = new Uint32Array(count);
  const permuted0 = keys > 0 ? permuted[0]! : null;
  const place = (i: number): void => {
    const r = order[i]!;
    if (((bits[r >>> 5]! >>> (r & 31)) & 1) === 0) return;
    let b = permuted0 ? lut0![permuted0[i]!]! + 1 : 1;
    for (let k = 1; k < keys; k++) b += luts[k]![permuted[k]![i]!]!;
    out[offsets[b]!++] = r;
  };
  if (!descending) {
    for (let i = 0; i < present; i++) place(i);
  } else {
    // Groups of equal values from the largest down, each group in row order.
    let end = present;
    while (end > 0) {
      let start = end - 1;
      while (((groupStarts[start >>> 5]! >>> (start & 31)) & 1) === 0) start--;
      for (let i = start; i < end; i++) place(i);
      end = start;
    }
  }
  for (let i = present; i < n; i++) place(i);
  return out;
}

/** The index scan's sort index when it applies: last key indexed, a large enough selection. */
function scanIndex(
  table: ItemTable,
  sort: readonly SortEntry[],
  count: number,
): SortIndex | undefined {
  const last = sort[sort.length - 1];
  const index = last && builtIndex(table, last);
  return index && count * INDEX_SCAN_SHARE >= index.order.length ? index : undefined;
}

/**
 * Sort `rows` (row indices in ascending order, e.g. from `bitsetToRows`) by `sort`. Returns a
 * new array of row indices. Throws on an unknown metadata field or direction.
 */
export function sortRows(
  table: ItemTable,
  rows: Uint32Array,
  sort: readonly SortEntry[],
): Uint32Array {
  let ordered = rows;
  let keys = sort.length;
  // The least significant key, when indexed and the selection is a sixteenth of the table or
  // more, orders the rows by an index scan; the radix passes then cover only the other keys
  // (LSD: stable passes from the least to the most significant key), or, when those are all
  // dictionary keys, the scan places each row in its bucket of them directly.
  const index = scanIndex(table, sort, rows.length);
  if (index) {
    const last = sort[keys - 1]!;
    const plan = bucketPlan(table, sort);
    if (plan) {
      const bits = emptyBitset(table.length);
      for (let p = 0; p < rows.length; p++) bits[rows[p]! >>> 5]! |= 1 << (rows[p]! & 31);
      return bucketSort(plan, index, isDescending(last), bits, rows.length);
    }
    ordered = indexScan(index, rows, isDescending(last));
    keys--;
  }
  const words: Word[] = [];
  for (let k = keys - 1; k >= 0; k--) words.push(...keyWords(table, sort[k]!, ordered));
  if (words.length === 1) return radixOrder(words, ordered.length, ordered);
  const perm = radixOrder(words, ordered.length);
  const out = new Uint32Array(ordered.length);
  for (let i = 0; i < ordered.length; i++) out[i] = ordered[perm[i]!]!;
  return out;
}

/**
 * Sort the set bits of `bits` (a filter's rows) by `sort`, as `sortRows` of `bitsetToRows`
 * would; the bucket sort reads the bitset directly, without the array of rows.
 */
export function sortSelected(
  table: ItemTable,
  bits: Bitset,
  sort: readonly SortEntry[],
): Uint32Array {
  const count = countRows(bits);
  const index = scanIndex(table, sort, count);
  const plan = index && bucketPlan(table, sort);
  if (index && plan)
    return bucketSort(plan, index, isDescending(sort[sort.length - 1]!), bits, count);
  return sortRows(table, bitsetToRows(bits), sort);
}

/** From this many rows a dictionary key's words are read from a byte-per-row copy. */
const COMPACT_GATHER_ROWS = 1 << 18;

/** An index scan is used when the selection has at least 1/INDEX_SCAN_SHARE of the rows. */
const INDEX_SCAN_SHARE = 16;

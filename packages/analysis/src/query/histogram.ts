// Metadata histograms for the explorer (docs/product.md §3 "Histogram response", §7 max_num_bins default
// 20): equal-width bins for numeric and timestamp fields, category counts for string and
// boolean fields, each with counts per split plus 'all'.
import { bitsetToRows, type Bitset } from './bitset.js';
import { getColumn, type ItemTable } from './table.js';
import type { HistogramBin, HistogramCategory, HistogramResponse, SplitCounts } from './types.js';

export const DEFAULT_MAX_NUM_BINS = 20;

export interface HistogramOptions {
  /** Number of equal-width bins for numeric and timestamp fields (default 20). */
  max_num_bins?: number;
  /** Restrict to these rows (e.g. the filter's result); every row when absent. */
  rows?: Bitset | null;
}

function allRows(length: number): Uint32Array {
  const rows = new Uint32Array(length);
  for (let i = 0; i < length; i++) rows[i] = i;
  return rows;
}

/** Split slot per row: the split code, or `splitCount` for items without a split. */
function splitSlots(table: ItemTable): { codes: Int32Array | null; names: readonly string[] } {
  return table.split
    ? { codes: table.split.codes, names: table.split.categories }
    : { codes: null, names: [] };
}

/** Per-split counts from `counts[base .. base + names.length]` (the last slot is "no split"). */
function splitCounts(counts: Int32Array, base: number, names: readonly string[]): SplitCounts {
  const out: SplitCounts = {};
  let all = 0;
  for (let s = 0; s <= names.length; s++) all += counts[base + s]!;
  out.all = all;
  // A split literally named 'all' would collide with the total; the total wins.
  names.forEach((name, s) => {
    if (name !== 'all') out[name] = counts[base + s]!;
  });
  return out;
}

/**
 * Histogram of `metadataId` over `options.rows`. Items with a missing value are not counted,
 * nor are ±Infinity values (equal-width bins over an infinite range mean nothing).
 * Numeric bins are [bin_start, bin_end) except the last, which also holds the maximum; an
 * item lands in the bin whose reported edges contain it. All values equal: one bin [v, v].
 * Categories are ordered by count (most first), ties in dictionary order; zero counts omitted.
 */
export function histogram(
  table: ItemTable,
  metadataId: string,
  options: HistogramOptions = {},
): HistogramResponse {
  const column = getColumn(table, metadataId);
  const bins = options.max_num_bins ?? DEFAULT_MAX_NUM_BINS;
  if (!Number.isInteger(bins) || bins < 1) {
    throw new Error(`max_num_bins must be a positive integer, got ${String(bins)}`);
  }
  const rows = options.rows ? bitsetToRows(options.rows) : allRows(table.length);
  const { codes: split, names } = splitSlots(table);
  const slots = names.length + 1;
  const noSplit = names.length;

  if ('codes' in column) {
    const k = column.categories.length;
    const codes = column.codes;
    const counts = new Int32Array(k * slots);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      const c = codes[r]!;
      if (c < 0) continue;
      const s = split ? split[r]! : -1;
      counts[c * slots + (s < 0 ? noSplit : s)]!++;
    }
    const totals: { code: number; total: number }[] = [];
    for (let c = 0; c < k; c++) {
      let total = 0;
      for (let s = 0; s < slots; s++) total += counts[c * slots + s]!;
      if (total > 0) totals.push({ code: c, total });
    }
    totals.sort((a, b) => b.total - a.total || a.code - b.code);
    const boolean = column.type === 'boolean';
    const out: HistogramCategory[] = totals.map(({ code }) => ({
      category: boolean ? column.categories[code] === 'true' : column.categories[code]!,
      count: splitCounts(counts, code * slots, names),
    }));
    return { metadata_type: column.type, counts_per_bin: out };
  }

  const values = column.values;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < rows.length; i++) {
    const v = values[rows[i]!]!;
    if (v === Infinity || v === -Infinity) continue;
    if (v < min) min = v;
    if (v > max) max = v; // NaN fails both comparisons
  }
  if (min > max) return { metadata_type: column.type, counts_per_bin: [] };
  min += 0; // −0 → +0, so edges never read "−0"
  max += 0;
  const nb = min === max ? 1 : bins;
  const edges = new Float64Array(nb + 1);
  for (let b = 0; b < nb; b++) edges[b] = min + ((max - min) * b) / nb;
  edges[nb] = max;
  const scale = max === min ? 0 : nb / (max - min);
  const counts = new Int32Array(nb * slots);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const v = values[r]!;
    if (!(v > -Infinity && v < Infinity)) continue; // missing or infinite
    let b = Math.floor((v - min) * scale);
    // A subnormal range overflows `scale` (0 × ∞ = NaN): clamp, the edges below decide.
    if (!(b >= 0)) b = 0;
    else if (b > nb - 1) b = nb - 1;
    // Rounding can put a value next to an edge one bin off; the reported edges decide.
    while (b > 0 && v < edges[b]!) b--;
    while (b < nb - 1 && v >= edges[b + 1]!) b++;
    const s = split ? split[r]! : -1;
    counts[b * slots + (s < 0 ? noSplit : s)]!++;
  }
  const out: HistogramBin[] = [];
  for (let b = 0; b < nb; b++) {
    out.push({
      bin_start: edges[b]!,
      bin_end: edges[b + 1]!,
      count: splitCounts(counts, b * slots, names),
    });
  }
  return { metadata_type: column.type, counts_per_bin: out };
}

// The bins of a metadata field for the metadata performance chart: a categorical field's most
// frequent values (and its missing values), a continuous field's equal-width bins over its range
// (and its missing values), each with its rows in the explorer's item table and the filter that
// selects exactly those rows in the explorer.
import type { Column, ItemTable } from '@loupe/analysis';
import type { Filter } from '@loupe/contracts';

/** Values of a categorical field the chart shows; the rarer ones are left out. */
export const MAX_CATEGORIES = 30;

export interface MetadataBin {
  /** The category; null for the bin of missing values. */
  bin: string | null;
  bin_start?: number;
  bin_end?: number;
  rows: Uint32Array;
  filter: Filter;
}

export interface MetadataBins {
  type: 'categorical' | 'continuous';
  bins: MetadataBin[];
}

function rowsWhere(n: number, bin: (row: number) => number, bins: number): Uint32Array[] {
  const counts = new Uint32Array(bins);
  const of = new Int32Array(n);
  for (let row = 0; row < n; row++) {
    const b = bin(row);
    of[row] = b;
    if (b >= 0) counts[b]!++;
  }
  const out = Array.from(counts, (count) => new Uint32Array(count));
  const filled = new Uint32Array(bins);
  for (let row = 0; row < n; row++) {
    const b = of[row]!;
    if (b >= 0) out[b]![filled[b]!++] = row;
  }
  return out;
}

/** The bins of a field (a column of `table`); `maxBins` bins for a continuous one. */
export function metadataBins(
  table: Pick<ItemTable, 'length'>,
  metadataId: string,
  column: Column,
  maxBins: number,
): MetadataBins {
  const n = table.length;
  if (!('values' in column)) {
    const K = column.categories.length;
    // Slot K holds the missing values.
    const rows = rowsWhere(n, (row) => (column.codes[row]! < 0 ? K : column.codes[row]!), K + 1);
    const shown = Array.from({ length: K }, (_, k) => k)
      .filter((k) => rows[k]!.length > 0)
      .sort((a, b) => rows[b]!.length - rows[a]!.length || a - b)
      .slice(0, MAX_CATEGORIES);
    const isBoolean = column.type === 'boolean';
    const valueFilter = (k: number): Filter =>
      isBoolean
        ? {
            type: 'boolean',
            metadata_id: metadataId,
            op: 'bool_equals',
            value: column.categories[k] === 'true',
          }
        : { type: 'string', metadata_id: metadataId, op: 'in', value: [column.categories[k]!] };
    const bins: MetadataBin[] = shown.map((k) => ({
      bin: column.categories[k]!,
      rows: rows[k]!,
      filter: valueFilter(k),
    }));
    if (rows[K]!.length > 0)
      bins.push({
        bin: null,
        rows: rows[K]!,
        filter: {
          type: 'not',
          child: isBoolean
            ? { type: 'or', children: [0, 1].map((k) => valueFilter(k)) }
            : { type: 'string', metadata_id: metadataId, op: 'in', value: [...column.categories] },
        },
      });
    return { type: 'categorical', bins };
  }

  const values = column.values;
  let min = Infinity;
  let max = -Infinity;
  for (let row = 0; row < n; row++) {
    const v = values[row]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const range = (lo: number | null, hi: number | null): Filter =>
    column.type === 'timestamp'
      ? { type: 'timestamp', metadata_id: metadataId, op: 'ts_between', value: [lo, hi] }
      : { type: 'numeric', metadata_id: metadataId, op: 'between', value: [lo, hi] };
  const count = Number.isFinite(min) ? (max > min ? maxBins : 1) : 0;
  const width = count > 1 ? (max - min) / count : 0;
  const boundary = (b: number) => min + b * width;
  const binOf = (row: number): number => {
    const v = values[row]!;
    if (v !== v) return count; // missing
    if (width === 0) return 0;
    let b = Math.min(count - 1, Math.floor((v - min) / width));
    // Rounding may put a value next to a boundary in the neighbouring bin: the bounds decide,
    // as the bin's filter does.
    if (b + 1 < count && v >= boundary(b + 1)) b++;
    else if (b > 0 && v < boundary(b)) b--;
    return b;
  };
  const rows = rowsWhere(n, binOf, count + 1);
  const bins: MetadataBin[] = [];
  for (let b = 0; b < count; b++) {
    const start = boundary(b);
    const end = b === count - 1 ? max : boundary(b + 1);
    const last = b === count - 1;
    bins.push({
      bin: null,
      bin_start: start,
      bin_end: end,
      rows: rows[b]!,
      // Inclusive of the upper bound only in the last bin, as the bins count.
      filter: last
        ? range(start, end)
        : { type: 'and', children: [range(start, end), { type: 'not', child: range(end, end) }] },
    });
  }
  if (rows[count]!.length > 0)
    bins.push({
      bin: null,
      rows: rows[count]!,
      filter: { type: 'not', child: range(null, null) },
    });
  return { type: 'continuous', bins };
}

// A deliberately simple reference for the property tests: rows as plain objects,
// Array.prototype.filter and a comparator sort. Slow and obviously right, never used in
// production.
import type { Filter, SortEntry } from './types.js';

export type RefValue = number | string | boolean | null;

export interface RefRow {
  id: string;
  split: string | null;
  created_record: string | null;
  metadata: Record<string, RefValue>;
}

const present = (v: RefValue): boolean => v !== null && !(typeof v === 'number' && Number.isNaN(v));
const ts = (v: number | string): number => (typeof v === 'number' ? v : Date.parse(v));

export function refMatches(row: RefRow, filter: Filter): boolean {
  switch (filter.type) {
    case 'and':
      return filter.children.every((c) => refMatches(row, c));
    case 'or':
      return filter.children.some((c) => refMatches(row, c));
    case 'not':
      return !refMatches(row, filter.child);
    case 'history':
      return row.created_record === String(filter.record_id);
    case 'boolean':
    case 'string':
    case 'numeric':
    case 'timestamp': {
      const v = row.metadata[filter.metadata_id] ?? null;
      if (!present(v)) return false;
      if (filter.type === 'boolean') return v === filter.value;
      if (filter.type === 'string') return filter.value.includes(v as string);
      if (filter.type === 'timestamp' && filter.op === 'ts_equals') return v === ts(filter.value);
      const [lo, hi] = filter.value;
      const x = v as number;
      const bound = (b: number | string | null) => (b === null ? null : ts(b));
      return (bound(lo) === null || x >= bound(lo)!) && (bound(hi) === null || x <= bound(hi)!);
    }
  }
}

function compareValues(a: RefValue, b: RefValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
}

/** Row indices matching `filter`, without items missing a sort key unless include_missing, sorted. */
export function refQuery(
  rows: readonly RefRow[],
  filter: Filter | null,
  sort: readonly SortEntry[],
  includeMissing: boolean,
): number[] {
  const kept = rows
    .map((row, index) => ({ row, index }))
    .filter(({ row }) => filter === null || refMatches(row, filter))
    .filter(
      ({ row }) => includeMissing || sort.every((s) => present(row.metadata[s.name] ?? null)),
    );
  kept.sort((x, y) => {
    for (const { name, direction } of sort) {
      const a = x.row.metadata[name] ?? null;
      const b = y.row.metadata[name] ?? null;
      if (!present(a) && !present(b)) continue;
      if (!present(a)) return 1; // missing last in both directions
      if (!present(b)) return -1;
      const c = compareValues(a, b);
      if (c !== 0) return direction === 'ascending' ? c : -c;
    }
    return x.index - y.index;
  });
  return kept.map(({ index }) => index);
}

/** Counts per split plus 'all', numeric bins by linear search over the edges. */
export function refHistogram(
  rows: readonly RefRow[],
  selected: readonly number[],
  name: string,
  numeric: boolean,
  bins: number,
  splits: readonly string[],
): { key: RefValue | [number, number]; counts: Record<string, number> }[] {
  const picked = selected
    .map((i) => rows[i]!)
    .filter((r) => present(r.metadata[name] ?? null))
    .filter((r) => !numeric || Number.isFinite(r.metadata[name])); // infinities are not binned
  const zero = () =>
    Object.fromEntries([['all', 0], ...splits.map((s) => [s, 0])]) as Record<string, number>;
  const add = (counts: Record<string, number>, row: RefRow) => {
    counts.all! += 1;
    if (row.split !== null) counts[row.split]! += 1;
  };
  if (numeric) {
    if (picked.length === 0) return [];
    const values = picked.map((r) => r.metadata[name] as number);
    const min = Math.min(...values) + 0; // edges read +0, never −0
    const max = Math.max(...values) + 0;
    const nb = min === max ? 1 : bins;
    const edges = Array.from({ length: nb + 1 }, (_, b) =>
      b === nb ? max : min + ((max - min) * b) / nb,
    );
    const out = Array.from({ length: nb }, (_, b) => ({
      key: [edges[b]!, edges[b + 1]!] as [number, number],
      counts: zero(),
    }));
    for (const row of picked) {
      const v = row.metadata[name] as number;
      let b = 0;
      while (b < nb - 1 && v >= edges[b + 1]!) b++;
      add(out[b]!.counts, row);
    }
    return out;
  }
  const byValue = new Map<RefValue, Record<string, number>>();
  for (const row of picked) {
    const v = row.metadata[name]!;
    if (!byValue.has(v)) byValue.set(v, zero());
    add(byValue.get(v)!, row);
  }
  return [...byValue.entries()]
    .map(([key, counts]) => ({ key, counts }))
    .sort(
      (a, b) =>
        b.counts.all! - a.counts.all! || compareValues(a.key as RefValue, b.key as RefValue),
    );
}

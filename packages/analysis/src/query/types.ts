// Wire shapes of the explorer's sort, filter and histogram (docs/product.md, Datasets §3, §7) and the
// column types of the in-memory item table that answers them.

/** Metadata field types (docs/product.md §3 "Metadata field"). */
export type MetadataType = 'numeric' | 'timestamp' | 'string' | 'boolean';

/** One sort entry: `name` is the metadata id (docs/product.md §3 "Sort entry"). */
export interface SortEntry {
  name: string;
  direction: 'ascending' | 'descending';
}

/** A timestamp on the wire: milliseconds since the epoch, or an ISO 8601 string. */
export type TimestampValue = number | string;

export interface AndFilter {
  type: 'and';
  children: Filter[];
}
export interface OrFilter {
  type: 'or';
  children: Filter[];
}
export interface NotFilter {
  type: 'not';
  child: Filter;
}
export interface BooleanFilter {
  type: 'boolean';
  metadata_id: string;
  op: 'bool_equals';
  value: boolean;
}
/** Inclusive on both ends; a null bound is open. */
export interface NumericFilter {
  type: 'numeric';
  metadata_id: string;
  op: 'between';
  value: [number | null, number | null];
}
export interface StringFilter {
  type: 'string';
  metadata_id: string;
  op: 'in';
  value: string[];
}
/** `ts_between` is inclusive on both ends (a null bound is open); `ts_equals` is exact. */
export type TimestampFilter =
  | {
      type: 'timestamp';
      metadata_id: string;
      op: 'ts_between';
      value: [TimestampValue | null, TimestampValue | null];
    }
  | { type: 'timestamp'; metadata_id: string; op: 'ts_equals'; value: TimestampValue };
/** Items touched by a dataset history record (see `EvaluateOptions.recordRows`). */
export interface HistoryFilter {
  type: 'history';
  record_id: string | number;
}

/** The explorer's filter tree (docs/product.md §3 "Filter", the kinds the explorer supports). */
export type Filter =
  | AndFilter
  | OrFilter
  | NotFilter
  | BooleanFilter
  | NumericFilter
  | StringFilter
  | TimestampFilter
  | HistoryFilter;

/** Per-split counts; the key `all` counts every item, whatever its split. */
export type SplitCounts = Record<string, number>;

export interface HistogramBin {
  bin_start: number;
  bin_end: number;
  count: SplitCounts;
}
export interface HistogramCategory {
  category: string | boolean;
  count: SplitCounts;
}

/**
 * Histogram response (docs/product.md §3, §7). Numeric and timestamp fields are binned (timestamps in
 * epoch milliseconds: a category per distinct timestamp would be useless at 1M items); string
 * and boolean fields count per category, most frequent first.
 */
export type HistogramResponse =
  | { metadata_type: 'numeric' | 'timestamp'; counts_per_bin: HistogramBin[] }
  | { metadata_type: 'string' | 'boolean'; counts_per_bin: HistogramCategory[] };

/** A numeric or timestamp column: one float per row, `NaN` where the value is missing. */
export interface NumericColumn {
  readonly type: 'numeric' | 'timestamp';
  readonly values: Float64Array;
}

/**
 * A dictionary-encoded column: `codes[row]` indexes `categories`, −1 where missing. Categories
 * are sorted (strings by UTF-16 code units, booleans `['false', 'true']`), so comparing codes
 * orders rows exactly as comparing the strings would.
 */
export interface CategoricalColumn {
  readonly type: 'string' | 'boolean';
  readonly codes: Int32Array;
  readonly categories: readonly string[];
}

export type Column = NumericColumn | CategoricalColumn;

/** A dictionary-encoded column that is not a metadata field (split, created record). */
export interface CodedColumn {
  readonly codes: Int32Array;
  readonly categories: readonly string[];
}

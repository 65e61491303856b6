// The column types of the in-memory item table, and the wire shapes of the explorer's sort,
// filter and histogram that it answers. Those are the contracts' own types, imported as types
// only: they vanish when compiled, so analysis still loads nothing of ours (docs/decisions.md).
export type {
  AndFilter,
  BooleanFilter,
  Filter,
  HistogramBin,
  HistogramCategory,
  HistogramResponse,
  HistoryFilter,
  MetadataType,
  NotFilter,
  NumericFilter,
  OrFilter,
  SortEntry,
  SplitCounts,
  StringFilter,
  TimestampFilter,
  TimestampValue,
} from '@loupe/contracts';

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

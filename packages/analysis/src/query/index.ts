// Explorer query engine: columnar item table, filters, multi-key sort, histograms and compact
// row-index encoding, for queries over up to 1M items (docs/decisions.md, issue 6).
export type {
  AndFilter,
  BooleanFilter,
  CategoricalColumn,
  CodedColumn,
  Column,
  Filter,
  HistogramBin,
  HistogramCategory,
  HistogramResponse,
  HistoryFilter,
  MetadataType,
  NotFilter,
  NumericColumn,
  NumericFilter,
  OrFilter,
  SortEntry,
  SplitCounts,
  StringFilter,
  TimestampFilter,
  TimestampValue,
} from './types.js';
export { encodeStrings, fromColumns, getColumn, ItemTableBuilder } from './table.js';
export type {
  ColumnInput,
  ColumnsInput,
  FieldSchema,
  ItemRow,
  ItemTable,
  MetadataValue,
} from './table.js';
export {
  bitsetFromRows,
  bitsetToRows,
  countRows,
  emptyBitset,
  fullBitset,
  hasRow,
} from './bitset.js';
export type { Bitset } from './bitset.js';
export { evaluateFilter } from './filter.js';
export type { EvaluateOptions } from './filter.js';
export {
  adoptSortIndex,
  builtSortIndex,
  prepareSortIndex,
  prepareSortIndexes,
  sortIndexOrders,
  sortRows,
  verifySortIndex,
} from './sort.js';
export type { SortIndex } from './sort.js';
export { DEFAULT_MAX_NUM_BINS, histogram } from './histogram.js';
export type { HistogramOptions } from './histogram.js';
export { idsAt, queryRows, rowsOfIds } from './query.js';
export { rowIndex } from './id-index.js';
export type { RowIndex } from './id-index.js';
export { assignCoded, withColumns } from './patch.js';
export type { CodedAssignment, TableChanges } from './patch.js';
export type { ItemQuery } from './query.js';

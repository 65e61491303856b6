// The explorer's result as compact row indices (docs/product.md, Datasets §7): what a result is
// asked for and what it is (item_rows, read by readItemRows). The calls are in queries/explore.ts.
import type { DataLevel, ExploreComparison, Filter, SortEntry } from '@loupe/contracts';

/**
 * What a result is asked for: data level, sort, filter, the subset or prediction set, and the
 * comparison of two models the explorer is in (its fields can be filtered and sorted on).
 */
export interface ItemRowsQuery {
  data_level: DataLevel;
  sort: SortEntry[];
  filter: Filter | null;
  subset_id?: string;
  predictions_id?: string;
  comparison?: ExploreComparison;
}

/** A query's result: row indices in result order, valid for one item-table version. */
export interface ItemRows {
  rows: Uint32Array;
  version: number;
  /** Items at the data level before filtering. */
  numItems: number;
}

export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

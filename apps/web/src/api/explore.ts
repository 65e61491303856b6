// The explorer's result as compact row indices (docs/product.md, Datasets §7): what a result is
// asked for, and the item_ids answer of format 'rows' decoded. The calls are in queries/explore.ts.
import {
  decodeIndices,
  type DataLevel,
  type ExploreComparison,
  type Filter,
  type ItemIdsResponse,
  type SortEntry,
} from '@loupe/contracts';

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

/** Decodes an item_ids answer of format 'rows'. */
export function decodeItemRows(response: ItemIdsResponse): ItemRows {
  if (response.rows === undefined) throw new Error('The item_ids answer carries no rows');
  const decoded = decodeIndices(base64ToBytes(response.rows));
  return { rows: decoded.indices, version: decoded.version, numItems: response.num_items };
}

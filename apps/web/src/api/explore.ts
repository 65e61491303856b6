// The explorer's calls (docs/product.md, Datasets §7), shared by the explore grid, the item viewer, and the
// metadata and features pages: item ids as compact row indices, items by row or id, metadata
// info, histograms, colour map, dataset and item features.
import {
  decodeIndices,
  type ColorMapResponse,
  type DataLevel,
  type FeatureInfo,
  type Filter,
  type HistogramRequest,
  type HistogramResponse,
  type ItemFeaturesResponse,
  type ItemIdsRequest,
  type ItemIdsResponse,
  type ItemsRequest,
  type ItemsResponse,
  type MetadataInfoResponse,
  type SortEntry,
} from '@loupe/contracts';
import { request } from './client';

const base = (datasetId: string) => `/api/datasets/${encodeURIComponent(datasetId)}`;

/** What a result is asked for: data level, sort, filter, and the subset or prediction set. */
export interface ItemRowsQuery {
  data_level: DataLevel;
  sort: SortEntry[];
  filter: Filter | null;
  subset_id?: string;
  predictions_id?: string;
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

export const exploreApi = {
  itemRows: async (
    datasetId: string,
    body: Omit<ItemIdsRequest, 'format'>,
    signal?: AbortSignal,
  ): Promise<ItemRows> =>
    decodeItemRows(
      await request<ItemIdsResponse>('POST', `${base(datasetId)}/item_ids`, {
        body: { ...body, format: 'rows' },
        signal,
      }),
    ),
  /** The same result as item ids in result order (aligned with `itemRows`' rows). */
  itemIds: async (
    datasetId: string,
    body: Omit<ItemIdsRequest, 'format'>,
    signal?: AbortSignal,
  ): Promise<string[]> =>
    (
      await request<ItemIdsResponse>('POST', `${base(datasetId)}/item_ids`, {
        body: { ...body, format: 'ids' },
        signal,
      })
    ).item_ids ?? [],
  items: (datasetId: string, body: ItemsRequest, signal?: AbortSignal) =>
    request<ItemsResponse>('POST', `${base(datasetId)}/items`, { body, signal }),
  metadataInfo: (
    datasetId: string,
    query: { data_level: DataLevel; predictions_id?: string },
    signal?: AbortSignal,
  ) => request<MetadataInfoResponse>('GET', `${base(datasetId)}/metadata_info`, { query, signal }),
  histogram: (datasetId: string, body: HistogramRequest, signal?: AbortSignal) =>
    request<HistogramResponse>('POST', `${base(datasetId)}/histogram`, { body, signal }),
  colorMap: (datasetId: string, signal?: AbortSignal) =>
    request<ColorMapResponse>('GET', `${base(datasetId)}/color_map`, { signal }),
  features: (datasetId: string, signal?: AbortSignal) =>
    request<FeatureInfo[]>('GET', `${base(datasetId)}/features`, { signal }),
  itemFeatures: (
    datasetId: string,
    body: { data_level: DataLevel; item_ids: string[] },
    signal?: AbortSignal,
  ) => request<ItemFeaturesResponse>('POST', `${base(datasetId)}/item_features`, { body, signal }),
};

// The explorer's reads (docs/product.md, Datasets §7): item ids, items, metadata info, histogram,
// colour map and item features. Reading is never license-gated.
import { DatasetIdParams } from '../datasets.js';
import {
  ColorMapResponse,
  HistogramRequest,
  HistogramResponse,
  ItemFeaturesRequest,
  ItemFeaturesResponse,
  ItemIdsRequest,
  ItemIdsResponse,
  ItemRowsRequest,
  ItemsRequest,
  ItemsResponse,
  MetadataInfoQuery,
  MetadataInfoResponse,
} from '../explore.js';
import { defineRoute, raw } from './define.js';

const common = {
  params: DatasetIdParams,
  auth: 'user',
  license: false,
  tags: ['explore'],
} as const;

export const explore = {
  itemIds: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/item_ids',
    body: ItemIdsRequest,
    responses: { 200: ItemIdsResponse },
    errors: [400, 401, 404],
    summary: 'Items at a data level, filtered and sorted: row indices (base64) or ids',
  }),
  itemRows: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/item_rows',
    body: ItemRowsRequest,
    responses: raw('application/octet-stream'),
    errors: [400, 401, 404],
    summary:
      "The item_ids query answered as bytes: the encoded row indices (application/octet-stream), the level's item count in the Loupe-Num-Items header",
  }),
  items: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/items',
    body: ItemsRequest,
    responses: { 200: ItemsResponse },
    errors: [400, 401, 404, 409],
    summary: 'Items by row index (with the table version) or by id, at most 1,000 a call',
  }),
  metadataInfo: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/datasets/:id/metadata_info',
    query: MetadataInfoQuery,
    responses: { 200: MetadataInfoResponse },
    errors: [400, 401, 404],
    summary: 'Every metadata field of a data level, with its state and statistics',
  }),
  histogram: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/histogram',
    body: HistogramRequest,
    responses: { 200: HistogramResponse },
    errors: [400, 401, 404],
    summary: 'Histogram of one metadata field, per split, optionally filtered',
  }),
  colorMap: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/datasets/:id/color_map',
    responses: { 200: ColorMapResponse },
    errors: [400, 401, 404],
    summary: "A distinct colour for each of the dataset's classes",
  }),
  itemFeatures: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/item_features',
    body: ItemFeaturesRequest,
    responses: { 200: ItemFeaturesResponse },
    errors: [400, 401, 404],
    summary: 'For each feature of the level, how many of the given items have no vector',
  }),
};

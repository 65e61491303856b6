// The explorer's routes (docs/product.md, Datasets §7): item ids, items, metadata info, histogram,
// colour map and item features. Reading is never license-gated.
import {
  ColorMapResponse,
  DatasetIdParams,
  HistogramRequest,
  HistogramResponse,
  ItemFeaturesRequest,
  ItemFeaturesResponse,
  ItemIdsRequest,
  ItemIdsResponse,
  ItemsRequest,
  ItemsResponse,
  MetadataInfoQuery,
  MetadataInfoResponse,
} from '@loupe/contracts';
import { errors, type TypedApp } from '../http/route-kit.js';
import type { ExploreService } from './explore.service.js';

export function exploreRoutes(app: TypedApp, services: { explore: ExploreService }): void {
  const { explore } = services;
  const tags = ['explore'];

  app.post(
    '/api/datasets/:id/item_ids',
    {
      schema: {
        tags,
        summary: 'Items at a data level, filtered and sorted: row indices (base64) or ids',
        params: DatasetIdParams,
        body: ItemIdsRequest,
        response: { 200: ItemIdsResponse, ...errors(400, 401, 404) },
      },
    },
    (request) => explore.itemIds(request.params.id, request.body),
  );

  app.post(
    '/api/datasets/:id/items',
    {
      schema: {
        tags,
        summary: 'Items by row index (with the table version) or by id, at most 1,000 a call',
        params: DatasetIdParams,
        body: ItemsRequest,
        response: { 200: ItemsResponse, ...errors(400, 401, 404, 409) },
      },
    },
    (request) => explore.items(request.params.id, request.body),
  );

  app.get(
    '/api/datasets/:id/metadata_info',
    {
      schema: {
        tags,
        summary: 'Every metadata field of a data level, with its state and statistics',
        params: DatasetIdParams,
        querystring: MetadataInfoQuery,
        response: { 200: MetadataInfoResponse, ...errors(400, 401, 404) },
      },
    },
    (request) => explore.metadataInfo(request.params.id, request.query),
  );

  app.post(
    '/api/datasets/:id/histogram',
    {
      schema: {
        tags,
        summary: 'Histogram of one metadata field, per split, optionally filtered',
        params: DatasetIdParams,
        body: HistogramRequest,
        response: { 200: HistogramResponse, ...errors(400, 401, 404) },
      },
    },
    (request) => explore.histogram(request.params.id, request.body),
  );

  app.get(
    '/api/datasets/:id/color_map',
    {
      schema: {
        tags,
        summary: "A distinct colour for each of the dataset's classes",
        params: DatasetIdParams,
        response: { 200: ColorMapResponse, ...errors(400, 401, 404) },
      },
    },
    (request) => explore.colorMap(request.params.id),
  );

  app.post(
    '/api/datasets/:id/item_features',
    {
      schema: {
        tags,
        summary: 'For each feature of the level, how many of the given items have no vector',
        params: DatasetIdParams,
        body: ItemFeaturesRequest,
        response: { 200: ItemFeaturesResponse, ...errors(400, 401, 404) },
      },
    },
    (request) => explore.itemFeatures(request.params.id, request.body),
  );
}

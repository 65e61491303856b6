// Subsets: saved sets of items at one data level (docs/curation.md). Reading is open to every
// signed-in user; every write and the export need a license.
import {
  CreateSubsetRequest,
  ExportSubsetQuery,
  Subset,
  SubsetDetail,
  SubsetList,
  SubsetParams,
  UpdateSubsetRequest,
} from '../curation.js';
import { DatasetIdParams } from '../datasets.js';
import { Ok } from '../errors.js';
import { defineRoute, raw } from './define.js';

const common = { auth: 'user', tags: ['subsets'] } as const;

export const subsets = {
  list: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/datasets/:id/subsets',
    params: DatasetIdParams,
    responses: { 200: SubsetList },
    errors: [400, 401, 404],
    license: false,
    summary: "A dataset's subsets, newest first",
  }),
  get: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/datasets/:id/subsets/:subsetId',
    params: SubsetParams,
    responses: { 200: SubsetDetail },
    errors: [400, 401, 404],
    license: false,
    summary: 'One subset with its item ids',
  }),
  create: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/subsets',
    params: DatasetIdParams,
    body: CreateSubsetRequest,
    responses: { 201: Subset },
    errors: [400, 401, 403, 404, 409],
    license: true,
    summary: 'Create a subset from items of one data level',
  }),
  update: defineRoute({
    ...common,
    method: 'PUT',
    path: '/api/datasets/:id/subsets/:subsetId',
    params: SubsetParams,
    body: UpdateSubsetRequest,
    responses: { 200: Subset },
    errors: [400, 401, 403, 404, 409],
    license: true,
    summary: 'Add and remove items; rename, describe or toggle performance',
  }),
  delete: defineRoute({
    ...common,
    method: 'DELETE',
    path: '/api/datasets/:id/subsets/:subsetId',
    params: SubsetParams,
    responses: { 200: Ok },
    errors: [400, 401, 403, 404],
    license: true,
    summary: 'Delete a subset (its items stay in the dataset)',
  }),
  export: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/datasets/:id/subsets/:subsetId/export',
    params: SubsetParams,
    query: ExportSubsetQuery,
    responses: raw('application/zip (the COCO or CSV folder layout of docs/formats.md)'),
    errors: [400, 401, 403, 404],
    license: true,
    summary: 'Download a subset as a COCO or CSV folder (zip, streamed)',
  }),
};

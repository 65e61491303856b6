// Samples: batches of rows uploaded by the SDKs, and a sample's original media.
import {
  BatchErrorBody,
  DatasetIdParams,
  SampleMediaQuery,
  UploadResult,
  UploadSamplesRequest,
} from '../datasets.js';
import { defineRoute, raw } from './define.js';

const common = { params: DatasetIdParams, auth: 'user', tags: ['datasets'] } as const;

export const samples = {
  upload: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/samples',
    body: UploadSamplesRequest,
    responses: { 200: UploadResult },
    errors: [400, 401, 403, 404, 413],
    errorBodies: { 400: BatchErrorBody },
    license: true,
    summary:
      'Upload a batch of samples (idempotent by id; the batch lands whole or not at all; ' +
      'batches sent at once are stored one after the other, in the order they reach the dataset)',
  }),
  media: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/datasets/:id/samples/media',
    query: SampleMediaQuery,
    responses: raw('the media type of the file'),
    errors: [],
    license: false,
    summary: "A sample's original media, wherever it lives (supports Range for uploaded files)",
  }),
};

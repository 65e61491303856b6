// Features: the vectors of a dataset's items, listed and uploaded; and a prediction set's own
// features (a model's vectors of the same items), beside the dataset's.
import { PredictionFeaturesResponse } from '../attributions.js';
import {
  BatchErrorBody,
  DatasetIdParams,
  FeatureInfo,
  FeatureInfoList,
  FeatureUploadRequest,
  PredictionSetParams,
} from '../datasets.js';
import { defineRoute } from './define.js';

const common = { params: DatasetIdParams, auth: 'user', tags: ['datasets'] } as const;

export const features = {
  list: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/datasets/:id/features',
    responses: { 200: FeatureInfoList },
    errors: [400, 401, 404],
    license: false,
    summary: 'Features of a dataset',
  }),
  upload: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/features',
    body: FeatureUploadRequest,
    responses: { 200: FeatureInfo },
    errors: [400, 401, 403, 404, 409, 413],
    errorBodies: { 400: BatchErrorBody },
    license: true,
    summary: 'Upload feature vectors (idempotent by item id)',
  }),
  listForPredictionSet: defineRoute({
    ...common,
    params: PredictionSetParams,
    tags: ['models'],
    method: 'GET',
    path: '/api/datasets/:id/predictions/:predictionSetId/features',
    responses: { 200: PredictionFeaturesResponse },
    errors: [400, 401, 404],
    license: false,
    summary: "A prediction set's own features, and the dataset's",
  }),
  uploadForPredictionSet: defineRoute({
    ...common,
    params: PredictionSetParams,
    tags: ['models'],
    method: 'POST',
    path: '/api/datasets/:id/predictions/:predictionSetId/features',
    body: FeatureUploadRequest,
    responses: { 200: FeatureInfo },
    errors: [400, 401, 403, 404, 409, 413],
    errorBodies: { 400: BatchErrorBody },
    license: true,
    summary: "Upload a prediction set's own feature vectors (idempotent by item id)",
  }),
};

// Prediction sets (the product's "models"): listed, created, and filled with predictions and
// attribution heatmaps in batches.
import {
  BatchErrorBody,
  CreatePredictionSetRequest,
  DatasetIdParams,
  DatasetIdQuery,
  PredictionSet,
  PredictionSetList,
  PredictionSetParams,
  UploadAttributionsRequest,
  UploadAttributionsResult,
  UploadPredictionsRequest,
  UploadResult,
} from '../datasets.js';
import { defineRoute } from './define.js';

const common = { auth: 'user', tags: ['models'] } as const;

export const predictionSets = {
  listAll: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/models',
    responses: { 200: PredictionSetList },
    errors: [401],
    license: false,
    summary: 'All prediction sets',
  }),
  listForDataset: defineRoute({
    ...common,
    method: 'GET',
    path: '/api/dataset/models',
    query: DatasetIdQuery,
    responses: { 200: PredictionSetList },
    errors: [400, 401, 404],
    license: false,
    summary: "A dataset's prediction sets",
  }),
  create: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/predictions',
    params: DatasetIdParams,
    body: CreatePredictionSetRequest,
    // 200 when `exist_ok` answers the existing prediction set.
    responses: { 200: PredictionSet, 201: PredictionSet },
    errors: [400, 401, 403, 404, 409],
    license: true,
    summary: 'Create a prediction set',
  }),
  uploadPredictions: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/predictions/:predictionSetId/items',
    params: PredictionSetParams,
    body: UploadPredictionsRequest,
    responses: { 200: UploadResult },
    errors: [400, 401, 403, 404, 413],
    errorBodies: { 400: BatchErrorBody },
    license: true,
    summary: 'Upload a batch of predictions (idempotent by sample id)',
  }),
  uploadAttributions: defineRoute({
    ...common,
    method: 'POST',
    path: '/api/datasets/:id/predictions/:predictionSetId/attributions',
    params: PredictionSetParams,
    body: UploadAttributionsRequest,
    responses: { 200: UploadAttributionsResult },
    errors: [400, 401, 403, 404, 413],
    errorBodies: { 400: BatchErrorBody },
    license: true,
    summary: 'Upload attribution heatmaps for a prediction set',
  }),
};

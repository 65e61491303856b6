// Prediction sets (models): list them, create one, upload its predictions and attributions.
import {
  BatchErrorBody,
  CreatePredictionSetRequest,
  DatasetIdParams,
  DatasetIdQuery,
  PredictionSet,
  PredictionSetParams,
  UploadAttributionsRequest,
  UploadPredictionsRequest,
  UploadResult,
} from '@loupe/contracts';
import { z } from 'zod';
import { actorOf } from '../http/context.js';
import { errors, type TypedApp } from '../http/route-kit.js';
import type { PredictionSetsService } from './prediction-sets.service.js';

export function predictionSetsRoutes(
  app: TypedApp,
  services: { predictionSets: PredictionSetsService },
): void {
  const { predictionSets } = services;
  const tags = ['models'];

  app.get(
    '/api/models',
    {
      schema: {
        tags,
        summary: 'All prediction sets',
        response: { 200: z.array(PredictionSet), ...errors(401) },
      },
    },
    () => predictionSets.list(),
  );
  app.get(
    '/api/dataset/models',
    {
      schema: {
        tags,
        summary: "A dataset's prediction sets",
        querystring: DatasetIdQuery,
        response: { 200: z.array(PredictionSet), ...errors(400, 401, 404) },
      },
    },
    (request) => predictionSets.list(request.query.dataset_id),
  );
  app.post(
    '/api/datasets/:id/predictions',
    {
      schema: {
        tags,
        summary: 'Create a prediction set',
        params: DatasetIdParams,
        body: CreatePredictionSetRequest,
        response: { 200: PredictionSet, 201: PredictionSet, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { set, created } = await predictionSets.create(
        actorOf(request),
        request.params.id,
        request.body.name,
        request.body.exist_ok,
      );
      return reply.status(created ? 201 : 200).send(set);
    },
  );
  app.post(
    '/api/datasets/:id/predictions/:predictionSetId/items',
    {
      schema: {
        tags,
        summary: 'Upload a batch of predictions (idempotent by sample id)',
        params: PredictionSetParams,
        body: UploadPredictionsRequest,
        response: { 200: UploadResult, 400: BatchErrorBody, ...errors(401, 403, 404, 413) },
      },
    },
    (request) =>
      predictionSets.uploadPredictions(
        actorOf(request),
        request.params.id,
        request.params.predictionSetId,
        request.body.predictions,
      ),
  );
  app.post(
    '/api/datasets/:id/predictions/:predictionSetId/attributions',
    {
      schema: {
        tags,
        summary: 'Upload attribution heatmaps for a prediction set',
        params: PredictionSetParams,
        body: UploadAttributionsRequest,
        response: {
          200: z.object({ uploaded: z.number() }),
          400: BatchErrorBody,
          ...errors(401, 403, 404, 413),
        },
      },
    },
    (request) =>
      predictionSets.uploadAttributions(
        actorOf(request),
        request.params.id,
        request.params.predictionSetId,
        request.body.name,
        request.body.attributions,
      ),
  );
}

// Features: list a dataset's features, upload vectors.
import {
  BatchErrorBody,
  DatasetIdParams,
  FeatureInfo,
  FeatureUploadRequest,
} from '@loupe/contracts';
import { z } from 'zod';
import { actorOf } from '../http/context.js';
import { errors, type TypedApp } from '../http/route-kit.js';
import type { FeaturesService } from './features.service.js';

export function featuresRoutes(app: TypedApp, services: { features: FeaturesService }): void {
  const { features } = services;
  const tags = ['datasets'];

  app.get(
    '/api/datasets/:id/features',
    {
      schema: {
        tags,
        summary: 'Features of a dataset',
        params: DatasetIdParams,
        response: { 200: z.array(FeatureInfo), ...errors(400, 401, 404) },
      },
    },
    (request) => features.list(request.params.id),
  );
  app.post(
    '/api/datasets/:id/features',
    {
      schema: {
        tags,
        summary: 'Upload feature vectors (idempotent by item id)',
        params: DatasetIdParams,
        body: FeatureUploadRequest,
        response: { 200: FeatureInfo, 400: BatchErrorBody, ...errors(401, 403, 404, 409, 413) },
      },
    },
    (request) => features.upload(actorOf(request), request.params.id, request.body),
  );
}

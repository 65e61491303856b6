// Features: list a dataset's features, upload vectors; the same for a prediction set's own.
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { FeaturesService } from './features.service.js';

export function featuresRoutes(app: TypedApp, services: { features: FeaturesService }): void {
  const { features } = services;
  registerRoute(app, api.features.list, (request) => features.list(request.params.id));
  registerRoute(app, api.features.upload, (request) =>
    features.upload(actorOf(request), request.params.id, request.body),
  );
  registerRoute(app, api.features.listForPredictionSet, (request) =>
    features.listForPredictionSet(request.params.id, request.params.predictionSetId),
  );
  registerRoute(app, api.features.uploadForPredictionSet, (request) =>
    features.uploadForPredictionSet(
      actorOf(request),
      request.params.id,
      request.params.predictionSetId,
      request.body,
    ),
  );
}

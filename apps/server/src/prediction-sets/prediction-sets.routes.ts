// Prediction sets (models): list them, create one, upload its predictions and attributions.
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { PredictionSetsService } from './prediction-sets.service.js';

export function predictionSetsRoutes(
  app: TypedApp,
  services: { predictionSets: PredictionSetsService },
): void {
  const { predictionSets } = services;

  registerRoute(app, api.predictionSets.listAll, () => predictionSets.list());
  registerRoute(app, api.predictionSets.listForDataset, (request) =>
    predictionSets.list(request.query.dataset_id),
  );
  registerRoute(app, api.predictionSets.create, async (request, reply) => {
    const { set, created } = await predictionSets.create(
      actorOf(request),
      request.params.id,
      request.body.name,
      request.body.exist_ok,
    );
    return reply.status(created ? 201 : 200).send(set);
  });
  registerRoute(app, api.predictionSets.uploadPredictions, (request) =>
    predictionSets.uploadPredictions(
      actorOf(request),
      request.params.id,
      request.params.predictionSetId,
      request.body.predictions,
    ),
  );
  registerRoute(app, api.predictionSets.uploadAttributions, (request) =>
    predictionSets.uploadAttributions(
      actorOf(request),
      request.params.id,
      request.params.predictionSetId,
      request.body.name,
      request.body.attributions,
    ),
  );
}

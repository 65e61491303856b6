// What dataset tests share: creating a dataset (with a model), and uploading a media file through
// the API.
import { api } from '@loupe/contracts';
import { expect } from 'vitest';
import type { z } from 'zod';
import type { Client } from './test-app.js';

type BodyOf<R extends { body: z.ZodType }> = z.input<R['body']>;

export async function createDataset(
  client: Client,
  body: Record<string, unknown>,
): Promise<{ id: string; name: string }> {
  const response = await client.post('/api/datasets', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; name: string };
}

/** Uploads one file as the raw body; answers its blob key. */
export async function uploadMedia(
  client: Client,
  datasetId: string,
  bytes: Buffer,
  type: string,
): Promise<string> {
  const response = await client.call({
    method: 'POST',
    url: `/api/datasets/${datasetId}/media`,
    body: bytes,
    headers: { 'content-type': type },
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { key: string }).key;
}

/**
 * A dataset with its samples and one model (prediction set), the model's predictions uploaded
 * when given: what the tests of a model's pages start from.
 */
export async function createDatasetWithModel(
  client: Client,
  dataset: BodyOf<typeof api.datasets.create>,
  samples: BodyOf<typeof api.samples.upload>['samples'],
  model: {
    name?: string;
    predictions?: BodyOf<typeof api.predictionSets.uploadPredictions>['predictions'];
  } = {},
): Promise<{ id: string; predictionSetId: string }> {
  const { id } = await client.call(api.datasets.create, { body: dataset });
  await client.call(api.samples.upload, { params: { id }, body: { samples } });
  const set = await client.call(api.predictionSets.create, {
    params: { id },
    body: { name: model.name ?? 'resnet' },
  });
  const params = { id, predictionSetId: set.id };
  if (model.predictions) {
    await client.call(api.predictionSets.uploadPredictions, {
      params,
      body: { predictions: model.predictions },
    });
  }
  return params;
}

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

/** Another model of the dataset: a prediction set named `name` with these predictions. */
export async function addModel(
  client: Client,
  id: string,
  name: string,
  predictions: BodyOf<typeof api.predictionSets.uploadPredictions>['predictions'],
): Promise<string> {
  const set = await client.call(api.predictionSets.create, { params: { id }, body: { name } });
  await client.call(api.predictionSets.uploadPredictions, {
    params: { id, predictionSetId: set.id },
    body: { predictions },
  });
  return set.id;
}

/**
 * Four pets and two classification models, A and B, whose comparison is worked out by hand:
 *   id split label  A          B          category
 *   c1 train cat    cat 0.9    dog 0.8    model_a_is_better (A right only)
 *   c2 train dog    cat 0.7    dog 0.9    model_b_is_better (B right only)
 *   c3 val   cat    cat 0.6    cat 0.8    both_are_neutral (both right)
 *   c4 val   dog    cat 0.9    cat 0.6    both_are_problematic (both wrong)
 */
export async function createComparedPets(
  client: Client,
): Promise<{ id: string; a: string; b: string }> {
  const { id, predictionSetId: a } = await createDatasetWithModel(
    client,
    { name: 'Pets', task_type: 'classification', class_names: ['cat', 'dog'] },
    [
      { id: 'c1', split: 'train', label: 'cat' },
      { id: 'c2', split: 'train', label: 'dog' },
      { id: 'c3', split: 'val', label: 'cat' },
      { id: 'c4', split: 'val', label: 'dog' },
    ],
    {
      name: 'model a',
      predictions: [
        { id: 'c1', label: 'cat', score: 0.9 },
        { id: 'c2', label: 'cat', score: 0.7 },
        { id: 'c3', label: 'cat', score: 0.6 },
        { id: 'c4', label: 'cat', score: 0.9 },
      ],
    },
  );
  const b = await addModel(client, id, 'model b', [
    { id: 'c1', label: 'dog', score: 0.8 },
    { id: 'c2', label: 'dog', score: 0.9 },
    { id: 'c3', label: 'cat', score: 0.8 },
    { id: 'c4', label: 'cat', score: 0.6 },
  ]);
  return { id, a, b };
}

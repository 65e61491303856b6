// What dataset tests share: creating a dataset and uploading a media file through the API.
import { expect } from 'vitest';
import type { Client } from './test-app.js';

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

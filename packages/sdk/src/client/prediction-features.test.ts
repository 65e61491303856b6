// A model's own features through the TypeScript client, against a fake server: the vectors go to
// the prediction set's features route as base64 float32, and the listing reads both kinds.
import type { Dataset, FeatureInfo, PredictionSet } from '@loupe/contracts';
import { describe, expect, it } from 'vitest';
import { DatasetHandle, PredictionSetHandle } from './client.js';
import { Http } from './http.js';

const DATASET = '00000000-0000-4000-8000-000000000001';
const MODEL = '00000000-0000-4000-8000-000000000002';

const info = (num_present: number): FeatureInfo => ({
  id: 'image:emb',
  name: 'emb',
  type: 'float32',
  group: 'Uploaded',
  data_level: 'image',
  num_present,
  num_missing: 0,
  size: 2,
  associated_features: [],
});

function fakeServer() {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(String(input));
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method: init?.method ?? 'GET', path: url.pathname, body });
    const answer =
      init?.method === 'POST'
        ? info((body as { ids: string[] }).ids.length)
        : { dataset_features: [], predictions_features: [info(2)] };
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { calls, fetch };
}

function model(fetch: typeof globalThis.fetch): PredictionSetHandle {
  const http = new Http({ url: 'http://loupe.test', apiKey: 'k', fetch, retries: 0 });
  const dataset = new DatasetHandle(http, {
    id: DATASET,
    name: 'Pets',
    task_type: 'classification',
  } as Dataset);
  return new PredictionSetHandle(http, dataset, { id: MODEL, name: 'resnet' } as PredictionSet);
}

describe('PredictionSetHandle features', () => {
  it("uploads vectors to the model's features as float32, and lists both kinds", async () => {
    const server = fakeServer();
    const resnet = model(server.fetch);
    const answer = await resnet.uploadFeatures('emb', { a: [1, 0.5], b: [-2, 4] });
    expect(answer.num_present).toBe(2);
    const [post] = server.calls;
    expect(post!.method).toBe('POST');
    expect(post!.path).toBe(`/api/datasets/${DATASET}/predictions/${MODEL}/features`);
    const body = post!.body as { name: string; data_level: string; ids: string[]; data: string };
    expect([body.name, body.data_level, body.ids]).toEqual(['emb', 'image', ['a', 'b']]);
    const bytes = Buffer.from(body.data, 'base64');
    expect([...new Float32Array(bytes.buffer, bytes.byteOffset, 4)]).toEqual([1, 0.5, -2, 4]);

    const listed = await resnet.features();
    expect(listed.predictions_features[0]!.name).toBe('emb');
    expect(server.calls[1]).toMatchObject({
      method: 'GET',
      path: `/api/datasets/${DATASET}/predictions/${MODEL}/features`,
    });
  });

  it('checks vectors before sending anything', async () => {
    const server = fakeServer();
    await expect(model(server.fetch).uploadFeatures('emb', { a: [1, 2], b: [1] })).rejects.toThrow(
      /has 1 values; the first has 2/,
    );
    expect(server.calls).toEqual([]);
  });
});

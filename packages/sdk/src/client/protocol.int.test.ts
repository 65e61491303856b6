// The upload protocol's shared corpus (sdk/protocol-corpus/cases.json) run by the TypeScript
// client against a built server with the corpus's small body limit; the Python SDK runs the same
// cases (sdk/python/tests/test_protocol.py).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryRoot, startLocalServer, type LocalServer } from '../testing/local-server.js';
import { LoupeClient } from './client.js';
import { LoupeError } from './errors.js';

interface Case {
  name: string;
  task_type: 'classification';
  upload: 'samples' | 'features';
  rows: number;
  id_prefix: string;
  batch_rows?: number;
  note_chars?: number;
  large_notes?: Record<string, number>;
  dimension?: number;
  expect: {
    created?: number;
    samples_count?: number;
    requests?: number;
    refused?: number;
    refused_at_least?: number;
    refused_at_most?: number;
    status?: number;
    error_row?: number;
    error_id?: string;
    message_starts?: string;
    last_request?: string[];
    num_present?: number;
    num_missing?: number;
    size?: number;
  };
}

const corpus = JSON.parse(
  readFileSync(join(repositoryRoot, 'sdk/protocol-corpus/cases.json'), 'utf8'),
) as { server_body_limit_mb: number; cases: Case[] };

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer({ LOUPE_BODY_LIMIT_MB: String(corpus.server_body_limit_mb) });
}, 60_000);
afterAll(() => server?.stop());

/** A client whose fetch writes down the POSTs of rows to `path`: their ids and how they ended. */
function watchedClient(path: string) {
  const requests: { ids: string[]; refused: boolean }[] = [];
  const watching: typeof fetch = async (input, init) => {
    if (!(String(input).endsWith(path) && init?.method === 'POST')) return fetch(input, init);
    const body = JSON.parse(String(init.body)) as { samples?: { id: string }[]; ids?: string[] };
    const request = { ids: body.ids ?? body.samples!.map((row) => row.id), refused: false };
    requests.push(request);
    try {
      const response = await fetch(input, init);
      request.refused = response.status === 413;
      return response;
    } catch (error) {
      // The server closed the connection while the body was being sent: a 413 the client lost.
      request.refused = (error as { cause?: { code?: string } }).cause?.code === 'EPIPE';
      throw error;
    }
  };
  const client = new LoupeClient({ url: server.url, apiKey: server.apiKey, fetch: watching });
  return { client, requests };
}

function samplesOf(c: Case) {
  return Array.from({ length: c.rows }, (_, i) => ({
    id: `${c.id_prefix}${i}`,
    metadata: { i, note: 'x'.repeat(c.large_notes?.[String(i)] ?? c.note_chars ?? 0) },
  }));
}

function vectorsOf(c: Case): Map<string, Float32Array> {
  const vectors = new Map<string, Float32Array>();
  for (let i = 0; i < c.rows; i++) {
    const vector = new Float32Array(c.dimension!);
    for (let j = 0; j < c.dimension!; j++) vector[j] = ((i * 31 + j * 17) % 1000) / 1000 - 0.5;
    vectors.set(`${c.id_prefix}${i}`, vector);
  }
  return vectors;
}

function expectRefusals(c: Case, requests: { refused: boolean }[]) {
  const refused = requests.filter((request) => request.refused).length;
  if (c.expect.refused !== undefined) expect(refused).toBe(c.expect.refused);
  if (c.expect.refused_at_least !== undefined)
    expect(refused).toBeGreaterThanOrEqual(c.expect.refused_at_least);
  if (c.expect.refused_at_most !== undefined)
    expect(refused).toBeLessThanOrEqual(c.expect.refused_at_most);
}

describe('the upload protocol corpus, from the TypeScript client', () => {
  for (const c of corpus.cases) {
    it(c.name, { timeout: 180_000 }, async () => {
      const plain = new LoupeClient({ url: server.url, apiKey: server.apiKey });
      const created = await plain.createDataset({
        name: `corpus ${c.name} ${Date.now()}`,
        task_type: c.task_type,
      });
      if (c.upload === 'features') {
        await created.uploadSamples(
          Array.from({ length: c.rows }, (_, i) => ({ id: `${c.id_prefix}${i}` })),
        );
        const { client, requests } = watchedClient('/features');
        const dataset = await client.dataset(created.id);
        const info = await dataset.uploadFeatures('clip', vectorsOf(c));
        expect(info).toMatchObject({
          num_present: c.expect.num_present,
          num_missing: c.expect.num_missing,
          size: c.expect.size,
        });
        expectRefusals(c, requests);
        return;
      }
      const { client, requests } = watchedClient('/samples');
      const dataset = await client.dataset(created.id);
      const outcome = await dataset
        .uploadSamples(samplesOf(c), c.batch_rows ? { batchSize: c.batch_rows } : {})
        .catch((error: unknown) => error);
      if (c.expect.status !== undefined) {
        expect(outcome).toBeInstanceOf(LoupeError);
        const error = outcome as LoupeError;
        expect(error.status).toBe(c.expect.status);
        expect(error.errors[0]).toMatchObject({ row: c.expect.error_row, id: c.expect.error_id });
        expect(error.message.startsWith(c.expect.message_starts!)).toBe(true);
        expect(requests.at(-1)!.ids).toEqual(c.expect.last_request);
      } else {
        expect(outcome).toMatchObject({ created: c.expect.created });
      }
      if (c.expect.requests !== undefined) expect(requests).toHaveLength(c.expect.requests);
      expectRefusals(c, requests);
      expect((await dataset.refresh()).samples_count).toBe(c.expect.samples_count);
    });
  }
});

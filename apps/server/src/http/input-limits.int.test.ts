// Input limits of the HTTP surface: huge or deep bodies are refused briefly, their work bounded by
// count, media uploads stream under their own limit, and nothing uploaded runs in our origin.
// A body is parsed in one synchronous stretch by design, so these attacks are judged by what the
// server bounds (problems listed, members and levels scanned), not by a probe's waiting time.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  FILTER_MAX_DEPTH,
  ITEM_ISSUES_LISTED,
  MAX_BATCH_ERRORS,
  SelectionAggregateRequest,
  checkSampleBatch,
  type DatasetShape,
} from '@loupe/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testImage } from '../testing/media.js';
import { startLicensedApp, type Client, type TestApp } from '../testing/test-app.js';
import { ISSUES_LISTED } from './error-handler.js';
import { JSON_MAX_DEPTH, JSON_MAX_OBJECT_MEMBERS } from './json-body.js';

const MB = 1024 * 1024;
/** A short description: what a client can show, not megabytes of repeated problems. */
const SHORT = 4096;

let t: TestApp;
let admin: Client;
let datasetId: string;
// A second instance with small limits: JSON bodies up to 1 MB, media files up to 2 MB.
let small: TestApp;
let smallAdmin: Client;
let smallDataset: string;

beforeAll(async () => {
  ({ t, admin } = await startLicensedApp());
  datasetId = (
    await admin.post('/api/datasets', { name: 'limits', task_type: 'classification' })
  ).json().id;
  ({ t: small, admin: smallAdmin } = await startLicensedApp({
    LOUPE_BODY_LIMIT_MB: '1',
    LOUPE_MEDIA_LIMIT_MB: '2',
    LOUPE_VERSIONS_URL: 'http://versions.example:8080/versions.json',
  }));
  smallDataset = (
    await smallAdmin.post('/api/datasets', { name: 'small', task_type: 'classification' })
  ).json().id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await small?.close();
});

const wrongIds = (n: number) => Array.from({ length: n }, (_, i) => i);
/** The problems a 400 lists, its closing count included. */
const problemsListed = (description: string) => description.split('; ').length;

describe('large arrays', () => {
  it('answers a million wrong-typed selection ids at once, listing 20 and counting the rest', async () => {
    const body = JSON.stringify({
      ids: wrongIds(1_000_000),
      props: ['label'],
      data_level: 'image',
    });
    const result = await admin.post(
      `/api/datasets/${datasetId}/embeddings/selection_aggregate`,
      body,
    );
    expect(result.statusCode).toBe(400);
    const { description } = result.json();
    expect(description.length).toBeLessThan(SHORT);
    expect(description).toMatch(/^body\.ids\.0: Invalid input: expected string, received number; /);
    expect(description).toMatch(/… and 999,980 more problems$/);
    expect(problemsListed(description)).toBe(ISSUES_LISTED + 1);
    // What the reply cannot show, as it counts the rest either way: the route's schema kept one
    // issue per listed item and one for the rest, not one per wrong item.
    const checked = SelectionAggregateRequest.safeParse(JSON.parse(body));
    expect(checked.error?.issues).toHaveLength(ITEM_ISSUES_LISTED + 1);
  });

  it.each([
    [
      'similar_items',
      { item_ids: ['a'], data_level: 'image', exclude_ids: wrongIds(1_000_000) },
      /body\.exclude_ids\.19: .*… and 999,980 more problems$/,
    ],
    [
      'similar_items',
      { item_ids: wrongIds(100_001), data_level: 'image' },
      /^body\.item_ids: at most 100,000 items$/,
    ],
    [
      'item_features',
      { item_ids: wrongIds(100_000), data_level: 'image' },
      /… and 99,980 more problems$/,
    ],
    ['media/missing', { keys: wrongIds(1_000_000) }, /^body\.keys: at most 100,000 items$/],
    [
      'features',
      { name: 'f', data_level: 'image', ids: wrongIds(1_000_000), data: '', dimension: 1 },
      /^body\.ids: at most 500,000 items$/,
    ],
    [
      'item_ids',
      {
        data_level: 'image',
        filter: { type: 'string', metadata_id: 'label', op: 'in', value: wrongIds(100_000) },
      },
      // A union names no option's detail, and so stays brief.
      /^body\.filter: Invalid input$/,
    ],
  ])('answers a huge %s body at once and briefly', async (route, payload, expected) => {
    const result = await admin.post(`/api/datasets/${datasetId}/${route}`, JSON.stringify(payload));
    expect(result.statusCode).toBe(400);
    const { description } = result.json();
    expect(description.length).toBeLessThan(SHORT);
    expect(description).toMatch(expected);
    expect(problemsListed(description)).toBeLessThanOrEqual(ISSUES_LISTED + 1);
  });
});

describe('deep bodies', () => {
  const filter = (depth: number) => {
    let node: unknown = { type: 'boolean', metadata_id: 'm', op: 'bool_equals', value: true };
    for (let i = 1; i < depth; i++) node = { type: 'not', child: node };
    return node;
  };

  it('refuses a filter 2,000 deep naming the nesting limit, without a stack overflow', async () => {
    const response = await admin.post(`/api/datasets/${datasetId}/item_ids`, {
      data_level: 'image',
      filter: filter(2000),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().description).toBe(
      `The request body nests arrays and objects more than ${JSON_MAX_DEPTH} levels deep.`,
    );
  });

  it(`refuses a filter past ${FILTER_MAX_DEPTH} levels naming the filter limit`, async () => {
    const url = `/api/datasets/${datasetId}/embeddings/points`;
    const response = await admin.post(url, {
      data_level: 'image',
      filter: filter(FILTER_MAX_DEPTH + 1),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().description).toBe(
      `body.filter: filters may nest at most ${FILTER_MAX_DEPTH} levels of and/or/not`,
    );
  });

  it('refuses any deeply nested JSON body by its scan, before parsing it, on any route', async () => {
    const deep = '{"name":' + '['.repeat(1_000_000) + ']'.repeat(1_000_000) + '}';
    const result = await admin.post('/api/datasets', deep);
    expect(result.statusCode).toBe(400);
    // Only the scan before JSON.parse says this: no parser or validator recursed into it.
    expect(result.json().description).toBe(
      `The request body nests arrays and objects more than ${JSON_MAX_DEPTH} levels deep.`,
    );
  });

  it('answers a body built to make a string pattern backtrack', async () => {
    // An unterminated string of escaped quotes, 2 MB: a backtracking scan would be quadratic over
    // it and run for many minutes, far past the test's timeout.
    const crafted = '{"name":"' + '\\"'.repeat(1_000_000);
    const result = await admin.post('/api/datasets', crafted);
    expect(result.statusCode).toBe(400);
    expect(result.json().description).toMatch(/^The request body is not valid JSON/);
  });
});

describe('large records and many bad rows', () => {
  it('refuses an object of a million members by its scan, before parsing it', async () => {
    const metadata: Record<string, unknown> = {};
    for (let i = 0; i < 1_000_000; i++) metadata[`k${i}`] = { wrong: true };
    const body = JSON.stringify({ samples: [{ id: 'a', label: 'x', metadata }] });
    const result = await admin.post(`/api/datasets/${datasetId}/samples`, body);
    expect(result.statusCode).toBe(400);
    // Only the scan before JSON.parse says this: JSON.parse never met the object it is slow on.
    expect(result.json().description).toBe(
      `The request body has an object with more than ${JSON_MAX_OBJECT_MEMBERS.toLocaleString('en-US')} members.`,
    );
  });

  it('refuses an item with too many metadata fields by their number, naming the limit', async () => {
    const metadata: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) metadata[`k${i}`] = { wrong: true };
    const body = JSON.stringify({ samples: [{ id: 'a', label: 'x', metadata }] });
    const result = await admin.post(`/api/datasets/${datasetId}/samples`, body);
    expect(result.statusCode).toBe(400);
    expect(result.body.length).toBeLessThan(SHORT);
    expect(result.json().errors[0]).toMatchObject({
      row: 0,
      field: 'metadata',
      message: 'at most 1,000 metadata fields per item',
    });
  });

  it('stops checking a batch at 1,000 problems: a thousand rows of wrong values cost little', async () => {
    // 500,000 wrong values in 4 MB: checked one by one, they would take seconds.
    const metadata: Record<string, unknown> = {};
    for (let i = 0; i < 500; i++) metadata[`k${i}`] = [];
    const samples = Array.from({ length: 1_000 }, (_, i) => ({
      id: `s${i}`,
      label: 'x',
      metadata,
    }));
    const result = await admin.post(`/api/datasets/${datasetId}/samples`, { samples });
    expect(result.statusCode).toBe(400);
    expect(result.json().description).toMatch(/nothing was written: at least 1000 problems/);
    expect(result.json().errors).toHaveLength(MAX_BATCH_ERRORS);
    // What the reply cannot show, as it lists 1,000 either way: checking stopped at the row that
    // reached them (2 of the 1,000 rows) instead of finding all 500,000.
    const shape: DatasetShape = {
      task_type: 'classification',
      class_names: [],
      closed_classes: false,
      value_names: [],
      metadata_types: new Map(),
    };
    const checked = checkSampleBatch(samples, shape, {}, () => undefined);
    expect(checked.errors).toHaveLength(MAX_BATCH_ERRORS);
    expect(checked.errors.at(-1)!.row).toBe(1);
  });
});

describe('body limits', () => {
  const upload = (client: Client, id: string, body: Buffer | Readable, type = 'image/png') =>
    small.app.inject({
      method: 'POST',
      url: `/api/datasets/${id}/media`,
      payload: body,
      headers: { 'content-type': type, cookie: `loupe_session=${client.cookie}` },
    });
  /** Files left under a dataset's blobs (media and unfinished uploads). */
  const blobFiles = (app: TestApp, id: string) => {
    const root = join(app.config.dataDir, 'blobs', 'datasets', id);
    if (!existsSync(root)) return [];
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  };

  it('names the media limit for media and the JSON limit for JSON', async () => {
    // 1.5 MB is over the JSON limit but within the media limit: the media limit is what applies.
    const fits = Buffer.alloc(1.5 * MB, 7);
    const landed = await upload(smallAdmin, smallDataset, fits);
    expect(landed.statusCode).toBe(200);

    const media = await upload(smallAdmin, smallDataset, Buffer.alloc(2 * MB + 1));
    expect(media.statusCode).toBe(413);
    expect(media.json().description).toBe(
      'The media file is larger than the media upload limit of 2 MB (LOUPE_MEDIA_LIMIT_MB).',
    );
    const json = await smallAdmin.post(`/api/datasets/${smallDataset}/media/missing`, {
      keys: ['x'.repeat(1.5 * MB)],
    });
    expect(json.statusCode).toBe(413);
    expect(json.json().description).toMatch(/larger than the limit of 1 MB/);
  });

  it('stores a streamed upload under its sha256, and refuses one that outgrows the limit', async () => {
    const chunks = Array.from({ length: 12 }, (_, i) => Buffer.alloc(128 * 1024, i));
    const sha = createHash('sha256').update(Buffer.concat(chunks)).digest('hex');
    // A stream has no content-length: the limit is enforced while it arrives.
    const landed = await upload(smallAdmin, smallDataset, Readable.from(chunks));
    expect(landed.statusCode).toBe(200);
    expect(landed.json()).toEqual({ key: `blob:${sha}`, size: 12 * 128 * 1024 });
    const stored = await smallAdmin.get(`/api/datasets/${smallDataset}/media/${sha}`);
    expect(createHash('sha256').update(stored.rawPayload).digest('hex')).toBe(sha);

    const before = blobFiles(small, smallDataset).sort();
    const big = Array.from({ length: 24 }, () => Buffer.alloc(128 * 1024, 1));
    const refused = await upload(smallAdmin, smallDataset, Readable.from(big));
    expect(refused.statusCode).toBe(413);
    expect(refused.json().description).toMatch(/media upload limit of 2 MB/);
    expect(blobFiles(small, smallDataset).sort()).toEqual(before);
  });

  it('leaves nothing behind when the client cuts an upload off', async () => {
    await small.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = small.app.server.address() as { port: number };
    const before = blobFiles(small, smallDataset).sort();
    let writing = 0;
    await new Promise<void>((resolve) => {
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/datasets/${smallDataset}/media`,
        headers: {
          'content-type': 'image/png',
          'content-length': String(MB),
          cookie: `loupe_session=${smallAdmin.cookie}`,
        },
      });
      request.on('error', () => resolve());
      request.write(Buffer.alloc(256 * 1024, 3), async () => {
        // The upload streams: its first bytes are on disk before the last have been sent.
        for (let i = 0; i < 50 && blobFiles(small, smallDataset).length === before.length; i++)
          await new Promise((resolve) => setTimeout(resolve, 20));
        writing = blobFiles(small, smallDataset).length;
        request.destroy();
        resolve();
      });
    });
    expect(writing).toBe(before.length + 1);
    // The server notices the cut and removes the partial file.
    for (let i = 0; i < 50 && blobFiles(small, smallDataset).length > before.length; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(blobFiles(small, smallDataset).sort()).toEqual(before);
  });
});

describe('nothing uploaded runs in our origin', () => {
  it.each(['image/svg+xml', 'image/svg+xml; charset=utf-8', 'IMAGE/SVG+XML'])(
    'refuses %s media',
    async (type) => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>x()</script></svg>');
      const response = await admin.call({
        method: 'POST',
        url: `/api/datasets/${datasetId}/media`,
        body: svg,
        headers: { 'content-type': type },
      });
      expect(response.statusCode).toBe(415);
      expect(response.json().description).toMatch(
        /image\/svg\+xml is refused: it can carry scripts/,
      );
    },
  );

  it('refuses media types on every other route', async () => {
    const response = await admin.call({
      method: 'POST',
      url: '/api/datasets',
      body: Buffer.from('x'),
      headers: { 'content-type': 'image/png' },
    });
    expect(response.statusCode).toBe(415);
  });

  it('serves every blob with nosniff and a sandboxing policy, even an SVG that got in', async () => {
    const { bytes } = await testImage(1);
    const key = (
      await admin.call({
        method: 'POST',
        url: `/api/datasets/${datasetId}/media`,
        body: bytes,
        headers: { 'content-type': 'image/png' },
      })
    ).json().key as string;
    // An SVG placed in the store some other way (an older version, or by hand).
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>x()</script></svg>');
    const svgSha = createHash('sha256').update(svg).digest('hex');
    await t.services.blobs.put(`datasets/${datasetId}/media/${svgSha}`, svg, 'image/svg+xml');
    await t.database.db
      .insertInto('media_blobs')
      .values({
        dataset_id: datasetId,
        key: svgSha,
        size: svg.length,
        content_type: 'image/svg+xml',
        created_at: Date.now(),
      })
      .execute();
    for (const sha of [key.slice('blob:'.length), svgSha]) {
      const response = await admin.get(`/api/datasets/${datasetId}/media/${sha}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    }
  });
});

describe('the HTTP surface', () => {
  it('answers 415 to a form body on a JSON route, and keeps the support bundle form', async () => {
    const login = await admin.call({
      method: 'POST',
      url: '/api/login',
      body: 'email=ana%40example.com&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(login.statusCode).toBe(415);
    const bundle = await admin.call({
      method: 'POST',
      url: '/api/support/bundle',
      body: 'client_state=%7B%7D',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toBe('application/zip');
  });

  it('lets the web app connect to its own origin and the configured versions address only', async () => {
    const policy = (await admin.get('/api/health')).headers['content-security-policy'] as string;
    expect(policy).toMatch(/(^|;)connect-src 'self'(;|$)/);
    const configured = (await smallAdmin.get('/api/health')).headers[
      'content-security-policy'
    ] as string;
    expect(configured).toMatch(/(^|;)connect-src 'self' http:\/\/versions\.example:8080(;|$)/);
  });
});

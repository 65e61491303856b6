// Sweeps every API route: random bodies never yield a 500, anonymous callers get 401 on every
// non-public route, and members get 403 on every admin route.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  addUser,
  setUpInstance,
  startTestApp,
  testLicense,
  type TestApp,
} from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
let member: Client;
let memberId: string;
let datasetIds: string[];
beforeAll(async () => {
  t = await startTestApp();
  admin = await setUpInstance(t.app);
  ({ client: member, id: memberId } = await addUser(t.app, admin, { email: 'ben@example.com' }));
  // Licensed, with datasets of several task types, so random bodies reach the deep validation.
  await admin.post('/api/settings/license', { key: testLicense() });
  datasetIds = [];
  for (const [task_type, extra] of [
    ['classification', { class_names: ['cat', 'dog'] }],
    ['object_detection', {}],
    ['regression', { value_names: ['age'] }],
    ['automatic_speech_recognition', {}],
  ] as const) {
    const created = await admin.post('/api/datasets', {
      name: `fuzz ${task_type}`,
      task_type,
      ...extra,
    });
    datasetIds.push(created.json().id);
  }
  await admin.post(`/api/datasets/${datasetIds[0]}/samples`, {
    samples: [{ id: 'a', label: 'cat' }],
  });
});
afterAll(() => t.close());

const concrete = (url: string, id: string) =>
  url
    .replace(':id', id)
    .replace(':predictionSetId', id)
    .replace(':sha', 'a'.repeat(64))
    .replace(':base', 'b'.repeat(40));

/** Admin-only routes, with a body that would otherwise be valid. */
const adminRoutes = (id: string) =>
  [
    {
      method: 'POST',
      url: '/api/users',
      body: { email: 'new@example.com', name: 'New', role: 'member' },
    },
    { method: 'PUT', url: `/api/users/${id}`, body: { name: 'Renamed' } },
    { method: 'POST', url: `/api/users/${id}/reset-password-token`, body: undefined },
    { method: 'POST', url: '/api/settings/license', body: { key: 'x.y' } },
    { method: 'PUT', url: '/api/settings/license', body: { key: 'x.y' } },
  ] as const;

describe('every route', () => {
  it('is listed in the sweep (admin routes are known)', () => {
    const mutating = t.routes
      .filter((r) => r.method !== 'GET' && !r.public)
      .map((r) => `${r.method} ${r.url}`);
    const covered = adminRoutes(':id').map((r) => `${r.method} ${r.url}`);
    // Mutations any signed-in user may call (uploads need a license, not a role):
    const memberAllowed = [
      'PUT /api/profile/password',
      'POST /api/api_keys',
      'POST /api/api_keys/:id/rotate',
      'DELETE /api/api_keys/:id',
      'POST /api/support/bundle',
      'POST /api/datasets',
      'DELETE /api/dataset',
      'DELETE /api/datasets/:id',
      'POST /api/datasets/:id/media',
      'POST /api/datasets/:id/media/missing',
      'POST /api/datasets/:id/samples',
      'POST /api/datasets/:id/features',
      'PUT /api/datasets/:id/thumbnails',
      'PUT /api/datasets/:id/iou_threshold',
      'POST /api/datasets/:id/predictions',
      'POST /api/datasets/:id/predictions/:predictionSetId/items',
      'POST /api/datasets/:id/predictions/:predictionSetId/attributions',
      'POST /api/datasets/:id/predictions/:predictionSetId/features',
      // Deleting an attribution (license-gated, any role):
      'DELETE /api/datasets/:id/predictions/:predictionSetId/attributions',
      // Explorer reads with a body (never license-gated):
      'POST /api/datasets/:id/item_ids',
      'POST /api/datasets/:id/item_rows',
      'POST /api/datasets/:id/items',
      'POST /api/datasets/:id/histogram',
      'POST /api/datasets/:id/item_features',
      // Embeddings (points and settings are not license-gated; similar items is, for everyone):
      'PUT /api/datasets/:id/embeddings/settings',
      'POST /api/datasets/:id/embeddings/points',
      'POST /api/datasets/:id/embeddings/selection_aggregate',
      'POST /api/datasets/:id/similar_items',
      // Curation (license-gated for every signed-in user; no role difference):
      'POST /api/datasets/:id/subsets',
      'PUT /api/datasets/:id/subsets/:subsetId',
      'DELETE /api/datasets/:id/subsets/:subsetId',
      'PUT /api/actions',
      'POST /api/datasets/:id/history/:recordId/restore',
      'POST /api/datasets/:id/export',
      // Model performance: reads with a body, and the subset toggle (license-gated, any role):
      'POST /api/datasets/:id/predictions/:predictionSetId/performance/metadata',
      'POST /api/datasets/:id/predictions/:predictionSetId/performance/items_summary',
      'PUT /api/datasets/:id/subsets/:subsetId/performance',
      // Comparing two models (a computation: license-gated, any role):
      'POST /api/datasets/:id/comparison',
      // Health checks (license-gated, any role):
      'POST /api/datasets/:id/checks/run',
      'POST /api/datasets/:id/checks',
      'PUT /api/datasets/:id/checks/:checkId',
      'PUT /api/datasets/:id/checks/settings/:checkId',
      'DELETE /api/datasets/:id/checks/:checkId',
    ];
    expect(mutating.sort()).toEqual([...covered, ...memberAllowed].sort());
  });

  it('answers 401 to anonymous callers unless public', async () => {
    for (const route of t.routes.filter((r) => !r.public)) {
      const response = await new Client(t.app).call({
        method: route.method as 'GET',
        url: concrete(route.url, memberId),
        body: route.method === 'GET' ? undefined : {},
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(response.json()).toEqual({ description: expect.any(String), retriable: false });
    }
  });

  it('answers 403 to a member on every admin route', async () => {
    for (const route of adminRoutes(memberId)) {
      const response = await member.call({
        method: route.method,
        url: route.url,
        body: route.body,
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(response.json().description).toMatch(/permission/);
    }
  });

  it('answers 415 to a form body and 400 to a deeply nested one, on every route with a body', async () => {
    for (const route of t.routes.filter((r) => r.method !== 'GET')) {
      const call = (body: string, type: string) =>
        admin.call({
          method: route.method as 'POST',
          url: concrete(route.url, datasetIds[0]!),
          body,
          headers: { 'content-type': type },
        });
      const form = await call('a=1', 'application/x-www-form-urlencoded');
      // Only the support bundle download takes an HTML form post.
      if (route.url === '/api/support/bundle') expect(form.statusCode).toBe(200);
      else expect(form.statusCode, `${route.method} ${route.url}`).toBe(415);
      const deep = await call('['.repeat(10_000) + ']'.repeat(10_000), 'application/json');
      expect(deep.statusCode, `${route.method} ${route.url}`).toBe(400);
      expect(deep.json().description).toMatch(/levels deep/);
    }
  });

  it('never answers 500 to random JSON bodies, as admin or anonymous', async () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const body = fc.oneof(
      json,
      fc.record(
        {
          email: fc.oneof(fc.emailAddress(), fc.string(), json),
          password: fc.oneof(fc.string(), json),
          name: fc.oneof(fc.string(), json),
          role: fc.oneof(fc.constantFrom('admin', 'member', 'owner'), json),
          enabled: fc.oneof(fc.boolean(), json),
          key: fc.oneof(fc.string(), json),
          token: fc.oneof(fc.string(), json),
          company: fc.oneof(fc.string(), json),
          remember: fc.oneof(fc.boolean(), json),
          oldPassword: fc.string(),
          newPassword: fc.string(),
          client_state: json,
          data_level: fc.oneof(fc.constantFrom('image', 'image_object', 'audio'), json),
          metadata_id: fc.oneof(fc.constantFrom('label', 'split', 'card_index', 'nope'), json),
          format: fc.oneof(fc.constantFrom('rows', 'ids'), json),
          include_missing: fc.oneof(fc.boolean(), json),
          item_ids: fc.oneof(fc.array(fc.constantFrom('a', 'b', 'zz')), json),
          rows: fc.oneof(fc.array(fc.nat(5)), json),
          version: fc.oneof(fc.nat(5), json),
          sort: fc.oneof(
            fc.array(
              fc.record({
                name: fc.constantFrom('label', 'split', 'card_index', 'nope'),
                direction: fc.constantFrom('ascending', 'descending', 'up'),
              }),
            ),
            json,
          ),
          filter: fc.oneof(
            fc.record({
              type: fc.constantFrom('numeric', 'string', 'boolean', 'timestamp', 'history', 'and'),
              metadata_id: fc.constantFrom('label', 'split', 'card_index', 'nope'),
              op: fc.constantFrom('between', 'in', 'bool_equals', 'ts_equals', 'ts_between'),
              value: json,
              record_id: fc.string(),
              children: fc.array(json, { maxLength: 2 }),
            }),
            json,
          ),
        },
        { requiredKeys: [] },
      ),
      fc.string(), // not even JSON
    );
    const routes = t.routes.filter((r) => r.method !== 'GET' && !['/api/logout'].includes(r.url));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        body,
        fc.boolean(),
        fc.constantFrom(memberId, 'nope', '00000000-0000-4000-8000-000000000000', ...datasetIds),
        async (route, payload, asAdmin, id) => {
          const client = asAdmin ? admin : new Client(t.app);
          const raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
          const response = await client.call({
            method: route.method as 'POST',
            url: concrete(route.url, id),
            body: raw,
          });
          expect(response.statusCode, `${route.method} ${route.url} ${raw}`).toBeLessThan(500);
          if (response.statusCode >= 400) expect(response.json()).toHaveProperty('description');
          // The fuzzing must not lock the admin out.
          if (asAdmin && response.statusCode === 200 && route.url === '/api/profile/password')
            throw new Error('unexpected password change');
        },
      ),
      { numRuns: 600 },
    );
  });
});

describe('bad requests', () => {
  it('answers 400 naming invalid JSON', async () => {
    const response = await admin.call({ method: 'POST', url: '/api/users', body: '{"email": ' });
    expect(response.statusCode).toBe(400);
    expect(response.json().description).toMatch(/^The request body is not valid JSON/);
  });

  it('answers 413 with the limit', async () => {
    const small = await startTestApp({ LOUPE_BODY_LIMIT_MB: '1' });
    try {
      const response = await new Client(small.app).post('/api/login', {
        email: 'a@b.co',
        password: 'x'.repeat(2 * 1024 * 1024),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({
        description: 'The request body is larger than the limit of 1 MB. Send smaller batches.',
        retriable: false,
      });
    } finally {
      await small.close();
    }
  });

  it('answers 404 for unknown API routes', async () => {
    const response = await admin.get('/api/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      description: 'No route GET /api/nothing-here.',
      retriable: false,
    });
  });

  it('answers 415 for a body that is not JSON', async () => {
    const response = await admin.call({
      method: 'POST',
      url: '/api/users',
      body: 'x',
      headers: { 'content-type': 'application/xml' },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().description).toBe('Unsupported Content-Type: send application/json.');
  });
});

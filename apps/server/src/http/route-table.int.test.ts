// The server and the contracts' route table describe the same API: every entry is a route, every
// route an entry registered from the table (schemas, tags, summary, auth and error answers as it
// says), and the OpenAPI document the table generates is the server's. No route is registered by
// hand: a route added with app.get/app.post instead of registerRoute fails here.
import fastifySwagger from '@fastify/swagger';
import { ErrorBody, isRaw, routes, type RouteSpec } from '@loupe/contracts';
import Fastify from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteInfo } from '../app.js';
import { startTestApp, type TestApp } from '../testing/test-app.js';
import { isFromTable, registerRoute, typed } from './route-kit.js';

/** Routes that are not endpoints: the 405 guard of GET /api/logout, and this document itself. */
const NOT_ENDPOINTS = ['GET /api/logout', 'GET /api/openapi.json'];

const key = (method: string, path: string) => `${method} ${path}`;

/** How a registered route differs from its table entry; empty when it does not. */
function differences(info: RouteInfo, route: RouteSpec): string[] {
  const schema = (info.schema ?? {}) as Record<string, unknown>;
  const found: string[] = [];
  const same = (what: string, actual: unknown, expected: unknown) => {
    if (actual !== expected) found.push(what);
  };
  same('auth', info.public, route.auth === 'public');
  same('params', schema.params, route.params);
  same('query', schema.querystring, route.query);
  same('body', schema.body, isRaw(route.body) ? undefined : route.body);
  same('summary', schema.summary, route.summary);
  same('hidden', schema.hide, route.hidden || undefined);
  if (JSON.stringify(schema.tags) !== JSON.stringify(route.tags)) found.push('tags');
  const response = (schema.response ?? {}) as Record<string, unknown>;
  const expected: Record<string, unknown> = isRaw(route.responses) ? {} : { ...route.responses };
  for (const status of route.errors) expected[status] = route.errorBodies?.[status] ?? ErrorBody;
  if (Object.keys(response).sort().join() !== Object.keys(expected).sort().join())
    found.push('statuses');
  else
    for (const status of Object.keys(expected))
      same(`response ${status}`, response[status], expected[status]);
  return found;
}

/** An operation with every `$ref` replaced by the component it names. */
function dereference(value: unknown, components: Record<string, unknown>, depth = 0): unknown {
  if (depth > 50 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => dereference(item, components, depth + 1));
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    const name = ref.replace('#/components/schemas/', '');
    return dereference(components[name], components, depth + 1);
  }
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, dereference(v, components, depth + 1)]),
  );
}

interface OpenApi {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown> };
}

/** The OpenAPI document of an app that registers exactly the table. */
async function tableDocument(): Promise<OpenApi> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'table', version: '0' } },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  for (const { route } of routes) registerRoute(typed(app), route, () => undefined);
  await app.ready();
  const document = app.swagger() as unknown as OpenApi;
  await app.close();
  return document;
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('the route table and the server', () => {
  it('has a route for every entry of the table', () => {
    const missing = routes
      .filter(({ route }) => !t.app.hasRoute({ method: route.method, url: route.path }))
      .map(({ name, route }) => `${name} (${key(route.method, route.path)})`);
    expect(missing).toEqual([]);
  });

  it('has an entry in the table for every route of the API', () => {
    const table = new Set(routes.map(({ route }) => key(route.method, route.path)));
    const extra = t.routes
      .map((info) => key(info.method, info.url))
      .filter((k) => !table.has(k) && !NOT_ENDPOINTS.includes(k));
    expect(extra).toEqual([]);
  });

  it('registers every route from the table, as the table says', () => {
    const byKey = new Map(
      routes.map((entry) => [key(entry.route.method, entry.route.path), entry]),
    );
    const byHand: string[] = [];
    const wrong: string[] = [];
    for (const info of t.routes) {
      const entry = byKey.get(key(info.method, info.url));
      if (!entry) continue;
      if (!isFromTable(info.schema)) byHand.push(entry.name);
      const found = differences(info, entry.route);
      if (found.length > 0) wrong.push(`${entry.name}: ${found.join(', ')}`);
    }
    expect(wrong, 'registered with other schemas than the table').toEqual([]);
    expect(byHand, 'registered by hand: use registerRoute').toEqual([]);
  });

  it('documents every route as the table does', async () => {
    const server = t.app.swagger() as unknown as OpenApi;
    const table = await tableDocument();
    expect(Object.keys(table.paths).sort()).toEqual(Object.keys(server.paths).sort());
    for (const [path, operations] of Object.entries(server.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(
          dereference(table.paths[path]?.[method], table.components.schemas),
          `${method.toUpperCase()} ${path}`,
        ).toEqual(dereference(operation, server.components.schemas));
      }
    }
  });
});

// Test harness: a real app on a real database — a fresh SQLite file, or a fresh PostgreSQL
// schema when LOUPE_TEST_DB=postgres — with a controllable clock and a cookie-aware client that
// calls routes of the contracts' table with the typed client, or sends raw requests (malformed
// input, headers and cookies under test).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ApiError,
  api,
  createClient,
  type ApiClient,
  type CallArgs,
  type RouteOutput,
  type RouteSpec,
} from '@loupe/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type RouteInfo } from '../app.js';
import type { JobRunner } from '../jobs/job-runner.js';
import { loadConfig, type Config, type DatabaseConfig } from '../config.js';
import { migrateToLatest, openDatabase, type Database } from '../db/database.js';
import { issueLicense } from '../license/license-token.js';
import type { Services } from '../services.js';

export const testDialect = process.env.LOUPE_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
export const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh, empty database of the dialect under test, and how to drop it. */
export async function freshDatabaseConfig(
  dataDir: string,
): Promise<{ database: DatabaseConfig; drop: () => Promise<void> }> {
  if (testDialect === 'sqlite') {
    return { database: { kind: 'sqlite', path: join(dataDir, 'loupe.db') }, drop: async () => {} };
  }
  const schema = `loupe_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    database: { kind: 'postgres', url: postgresUrl, schema },
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

export class TestClock {
  constructor(public now = Date.now()) {}
  advance(ms: number): void {
    this.now += ms;
  }
  readonly read = () => this.now;
}

export const licenseKeys = (() => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
})();

export function testLicense(
  options: { company?: string; expiresInS?: number; nowMs?: number } = {},
): string {
  const now = options.nowMs ?? Date.now();
  return issueLicense(
    {
      license_id: 'lic-test',
      company_name: options.company ?? 'Acme',
      expiration_ts: Math.floor(now / 1000) + (options.expiresInS ?? 30 * 86_400),
    },
    licenseKeys.privateKey,
  );
}

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  routes: RouteInfo[];
  runner: JobRunner;
  config: Config;
  database: Database;
  clock: TestClock;
  close(): Promise<void>;
}

export async function startTestApp(
  env: Record<string, string> = {},
  logStream?: NodeJS.WritableStream,
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loupe-test-'));
  const { database: databaseConfig, drop } = await freshDatabaseConfig(dataDir);
  const config: Config = {
    ...loadConfig({
      LOUPE_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      LOUPE_LICENSE_PUBLIC_KEY: licenseKeys.publicKey,
      ...env,
    }),
    database: databaseConfig,
    webDir: env.LOUPE_WEB_DIR ?? join(dataDir, 'no-web'),
  };
  const database = openDatabase(config.database);
  await migrateToLatest(database);
  const clock = new TestClock();
  const { app, services, routes, runner } = await buildApp({
    config,
    database,
    clock: clock.read,
    ...(logStream ? { logStream } : {}),
  });
  await app.ready();
  return {
    app,
    services,
    routes,
    runner,
    config,
    database,
    clock,
    async close() {
      await app.close();
      await database.destroy();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A light-my-request answer as a fetch Response, for the typed client. */
function toResponse(response: LightMyRequestResponse): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const one of [value].flat()) headers.append(name, String(one));
  }
  const empty = [204, 205, 304].includes(response.statusCode);
  return new Response(empty ? null : new Uint8Array(response.rawPayload), {
    status: response.statusCode,
    headers,
  });
}

/**
 * A signed-in (or anonymous) caller that keeps its session cookie like a browser.
 * `call(api.users.create, { body })` goes through the typed client and answers the route's
 * response or throws ApiError; `call({ method, url, body })` sends a raw request and answers it
 * whatever its status.
 */
export class Client {
  cookie?: string;
  private readonly client: ApiClient;

  constructor(
    private readonly app: FastifyInstance,
    readonly headers: Record<string, string> = {},
  ) {
    this.client = createClient({
      fetch: async (url, init) => {
        const body = init.body instanceof Uint8Array ? Buffer.from(init.body) : init.body;
        if (
          body !== undefined &&
          body !== null &&
          typeof body !== 'string' &&
          !Buffer.isBuffer(body)
        )
          throw new Error('The test client sends JSON text or bytes only.');
        return toResponse(
          await this.send({
            method: init.method as Call['method'],
            url,
            ...(body !== undefined && body !== null ? { body } : {}),
            headers: init.headers as Record<string, string>,
          }),
        );
      },
    });
  }

  call(request: Call): Promise<LightMyRequestResponse>;
  call<R extends RouteSpec>(route: R, ...args: CallArgs<R>): Promise<RouteOutput<R>>;
  call(first: Call | RouteSpec, ...args: unknown[]): Promise<unknown> {
    if ('path' in first)
      return (this.client.call as (...all: unknown[]) => Promise<unknown>)(first, ...args);
    return this.send(first);
  }

  private async send({ method, url, body, headers }: Call): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method,
      url,
      headers: {
        ...this.headers,
        ...(this.cookie ? { cookie: `loupe_session=${this.cookie}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined
        ? {
            payload:
              typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
          }
        : {}),
    });
    const session = response.cookies.find((c) => c.name === 'loupe_session');
    if (session) this.cookie = session.value || undefined;
    return response;
  }

  get = (url: string) => this.call({ method: 'GET', url });
  post = (url: string, body?: unknown) => this.call({ method: 'POST', url, body });
  put = (url: string, body?: unknown) => this.call({ method: 'PUT', url, body });
}

/** The ApiError a typed call was refused with; fails the test when the call succeeded. */
export async function refused(call: Promise<unknown>): Promise<ApiError> {
  const outcome = await call.then(
    (answer) => ({ answer }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome))
    throw new Error(`Expected a refusal, got ${JSON.stringify(outcome.answer)}`);
  if (!(outcome.error instanceof ApiError)) throw outcome.error;
  return outcome.error;
}

export const ADMIN = { username: 'Ana Admin', email: 'ana@example.com', password: 'correct horse' };

/** Completes setup and answers the signed-in admin client. */
export async function setUpInstance(app: FastifyInstance): Promise<Client> {
  const admin = new Client(app);
  await admin.call(api.setup.complete, { body: { company: 'Acme Inc.', user: ADMIN } });
  return admin;
}

/** Invites a member, sets their password through a reset link, and signs them in. */
export async function addUser(
  app: FastifyInstance,
  admin: Client,
  {
    email,
    name = 'Ben Member',
    role = 'member',
    password = 'member password',
  }: { email: string; name?: string; role?: 'admin' | 'member'; password?: string },
): Promise<{ client: Client; id: string }> {
  const { id } = await admin.call(api.users.create, { body: { email, name, role } });
  const { token } = await admin.call(api.users.createResetToken, { params: { id } });
  await new Client(app).call(api.auth.resetPassword, { body: { token, newPassword: password } });
  const client = new Client(app);
  await client.call(api.auth.login, { body: { email, password, remember: false } });
  return { client, id };
}

/** A set-up, licensed instance and its signed-in admin: where most dataset tests start. */
export async function startLicensedApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; admin: Client }> {
  const t = await startTestApp(env);
  const admin = await setUpInstance(t.app);
  await admin.call(api.settings.submitLicense, {
    body: { key: testLicense({ nowMs: t.clock.now }) },
  });
  return { t, admin };
}

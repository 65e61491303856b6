import { api } from '@loupe/contracts';
import { unzipSync, strFromU8 } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../testing/test-app.js';
import { addUser, setUpInstance, startTestApp, type TestApp } from '../testing/test-app.js';
import { LogBuffer } from '../platform/log-buffer.js';
import { userActor } from '../users/actor.js';
import { UsersRepository } from '../users/users.repository.js';
import { SupportService } from './support.service.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  t = await startTestApp({ LOUPE_SECRET_KEY: 'super-secret-value' });
  admin = await setUpInstance(t.app);
});
afterEach(() => t.close());

const unzip = (body: Uint8Array) =>
  Object.fromEntries(
    Object.entries(unzipSync(new Uint8Array(body))).map(([name, data]) => [name, strFromU8(data)]),
  );
const bundle = (client: Client, client_state?: Record<string, unknown>) =>
  client.call(api.support.bundle, { body: { client_state } });

describe('POST /api/support/bundle', () => {
  it('answers a zip with version, redacted configuration, migrations, logs and the client state', async () => {
    const response = await bundle(admin, { theme: 'darkBlue', url: '/datasets' });
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="loupe-support-.+\.zip"$/,
    );
    const files = unzip(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([
      'client_state.json',
      'configuration.json',
      'migrations.json',
      'server.log',
      'version.json',
    ]);
    expect(JSON.parse(files['version.json']!).version).toMatch(/^\d+\.\d+\.\d+/);
    expect(JSON.parse(files['client_state.json']!)).toEqual({
      theme: 'darkBlue',
      url: '/datasets',
    });
    expect(JSON.parse(files['migrations.json']!)[0].executed_at).toBeTruthy();
    expect(files['configuration.json']).not.toContain('super-secret-value');
    expect(JSON.parse(files['configuration.json']!).secretKey).toBe('(removed)');
  });

  it('accepts an HTML form post and leaves server logs out for members', async () => {
    const { client: ben } = await addUser(t.app, admin, { email: 'ben@example.com' });
    // Raw: the form post of the web app's download link, not a JSON call.
    const response = await ben.call({
      method: 'POST',
      url: '/api/support/bundle',
      body: `client_state=${encodeURIComponent(JSON.stringify({ page: 'users' }))}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(200);
    const files = unzip(response.rawPayload);
    expect(files['server.log']).toBeUndefined();
    expect(JSON.parse(files['client_state.json']!)).toEqual({ page: 'users' });
  });

  it('holds no secret from the database address, the configuration, the logs or the browser', async () => {
    const { id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const member = (await new UsersRepository(t.database.db).findById(id))!;
    const secrets = ['hunter2', 'pg-ssl-pass', 'q-pass', 'k-1', 's-2', 'tok-3', 'log-pw', 'ls-4'];
    const config = {
      ...t.config,
      database: {
        kind: 'postgres' as const,
        url: 'postgres://loupe:hunter2@db.internal:5432/loupe?sslmode=require&sslpassword=pg-ssl-pass&password=q-pass&key=k-1&secret=s-2',
        schema: 'public',
      },
      // Settings added later are covered by their names, without a line here.
      futureApiToken: 'tok-3',
    };
    const logs = new LogBuffer();
    logs.write(JSON.stringify({ msg: 'connecting', url: 'postgres://u:log-pw@db/x' }));
    const support = new SupportService(t.database, config, logs, t.clock.read);
    const clientState = { env: { VITE_SENTRY_AUTH_TOKEN: 'ls-4', MODE: 'production' } };
    for (const actor of [userActor(member), userActor({ ...member, role: 'admin' as const })]) {
      const { zip } = await support.bundle(actor, clientState);
      const text = Object.values(unzip(Buffer.from(zip))).join('\n');
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/password=(?!\(removed\))/);
      const configuration = JSON.parse(unzip(Buffer.from(zip))['configuration.json']!);
      expect(configuration.database.url).toBe(
        'postgres://(removed)@db.internal:5432/loupe?sslmode=require&sslpassword=(removed)&password=(removed)&key=(removed)&secret=(removed)',
      );
      expect(configuration.futureApiToken).toBe('(removed)');
      expect(configuration.port).toBe(t.config.port);
      expect(text).toContain('"MODE": "production"');
    }
  });

  it('redacts a crafted client state in linear time', async () => {
    // Built to make a backtracking pattern quadratic: name-like runs with no '=' after them, 1.6 MB
    // each, over which a quadratic redaction would run for many minutes, far past the test's timeout.
    const crafted = 'password'.repeat(200_000);
    const result = await bundle(admin, { note: `${crafted} token=abc ${crafted}=x` });
    const state = unzip(new Uint8Array(await result.arrayBuffer()))['client_state.json']!;
    expect(state).not.toContain('token=abc');
    expect(state).toContain('token=(removed)');
  });
});

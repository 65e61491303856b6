import { unzipSync, strFromU8 } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../testing/test-app.js';
import { addUser, setUpInstance, startTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  t = await startTestApp({ LOUPE_SECRET_KEY: 'super-secret-value' });
  admin = await setUpInstance(t.app);
});
afterEach(() => t.close());

const unzip = (body: Buffer) =>
  Object.fromEntries(
    Object.entries(unzipSync(new Uint8Array(body))).map(([name, data]) => [name, strFromU8(data)]),
  );

describe('POST /api/support/bundle', () => {
  it('answers a zip with version, redacted configuration, migrations, logs and the client state', async () => {
    const response = await admin.post('/api/support/bundle', {
      client_state: { theme: 'darkBlue', url: '/datasets' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="loupe-support-.+\.zip"$/,
    );
    const files = unzip(response.rawPayload);
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
});

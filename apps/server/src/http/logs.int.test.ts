// Logs never carry secrets (passwords, session cookies, API keys, reset tokens) in either format;
// a request makes one debug line; a terminal gets readable lines, everything else JSON.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import {
  ADMIN,
  Client,
  addUser,
  setUpInstance,
  startTestApp,
  type TestApp,
} from '../testing/test-app.js';

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** An app whose log output is collected; `tty` makes the sink look like a terminal. */
async function logged(env: Record<string, string>, tty = false) {
  let text = '';
  const sink = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    }),
    tty ? { isTTY: true } : {},
  );
  const t = await startTestApp(env, sink);
  apps.push(t);
  // eslint-disable-next-line no-control-regex
  return { t, output: () => text.replace(/\u001b\[[0-9;]*m/g, '') };
}

/** Signs in, uses an API key, a reset token, a wrong password and a bearer token: the secrets. */
async function useSecrets(t: TestApp): Promise<string[]> {
  const admin = await setUpInstance(t.app);
  const { api_key } = (await admin.get('/api/settings/key')).json();
  await new Client(t.app, { 'x-api-key': api_key }).get('/api/users');
  const { id } = await addUser(t.app, admin, {
    email: 'ben@example.com',
    password: 'ben secret pw',
  });
  const { token } = (await admin.post(`/api/users/${id}/reset-password-token`)).json();
  await new Client(t.app).post('/api/login', {
    email: ADMIN.email,
    password: 'wrong but secret',
    remember: false,
  });
  await new Client(t.app).call({
    method: 'GET',
    url: '/api/users',
    headers: { authorization: 'Bearer abc.def', cookie: 'loupe_session=cookie-secret' },
  });
  // Code that logs an object holding secrets still gets them censored.
  t.app.log.info(
    { user: { password: 'logged-pw', token: 'logged-token' }, req: { headers: { cookie: 'c=1' } } },
    'logged with secrets',
  );
  return [
    ADMIN.password,
    'ben secret pw',
    'wrong but secret',
    api_key,
    token,
    admin.cookie!,
    'abc.def',
    'cookie-secret',
    'logged-pw',
    'logged-token',
  ];
}

describe('server logs', () => {
  it('record requests as JSON without passwords, cookies, API keys or tokens', async () => {
    const { t, output } = await logged({ LOG_LEVEL: 'trace' });
    const secrets = await useSecrets(t);
    const lines = output().trim().split('\n');
    expect(lines.every((line) => JSON.parse(line) !== undefined)).toBe(true); // not a terminal: JSON
    expect(output()).toContain('"url":"/api/login"'); // requests are logged…
    expect(output()).toContain('[redacted]');
    for (const secret of secrets) {
      expect(output(), `log contains ${secret.slice(0, 6)}…`).not.toContain(secret); // …their secrets are not
    }
  });

  it('write one debug line per request, and none at the default info level', async () => {
    const debug = await logged({ LOG_LEVEL: 'debug' });
    await new Client(debug.t.app).get('/api/state');
    const lines = debug
      .output()
      .split('\n')
      .filter((line) => line.includes('/api/state'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 20, res: { statusCode: 200 } });

    const info = await logged({ LOG_LEVEL: 'info' });
    for (let i = 0; i < 5; i++) await new Client(info.t.app).get('/api/state');
    expect(info.output()).not.toContain('/api/state');
  });

  it('write readable lines on a terminal, with the same secrets redacted', async () => {
    const { t, output } = await logged({ LOG_LEVEL: 'debug' }, true);
    const secrets = await useSecrets(t);
    const text = output();
    expect(text.trim().startsWith('{')).toBe(false);
    expect(text).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} DEBUG request completed POST \/api\/login 401 \d+ms/m,
    );
    expect(text).toMatch(/INFO {2}logged with secrets .*\[redacted\]/);
    for (const secret of secrets) {
      expect(text, `log contains ${secret.slice(0, 6)}…`).not.toContain(secret);
    }
  });

  it('write JSON on a terminal when LOG_FORMAT=json', async () => {
    const { t, output } = await logged({ LOG_LEVEL: 'debug', LOG_FORMAT: 'json' }, true);
    await new Client(t.app).get('/api/state');
    const lines = output().trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => typeof JSON.parse(line) === 'object')).toBe(true);
  });

  it('refuses an unknown LOG_FORMAT, naming it', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'fancy' })).toThrow(/LOG_FORMAT/);
  });
});

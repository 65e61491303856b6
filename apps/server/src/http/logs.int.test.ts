// Logs never carry secrets: passwords, session cookies, API keys, reset tokens.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  Client,
  addUser,
  setUpInstance,
  startTestApp,
  type TestApp,
} from '../testing/test-app.js';

let t: TestApp;
let logs = '';
beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs += chunk.toString();
      done();
    },
  });
  t = await startTestApp({ LOG_LEVEL: 'trace' }, sink);
});
afterAll(() => t.close());

describe('server logs', () => {
  it('record requests without passwords, cookies, API keys or tokens', async () => {
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
      headers: { authorization: 'Bearer abc.def' },
    });

    expect(logs).toContain('"url":"/api/login"'); // requests are logged…
    for (const secret of [
      ADMIN.password,
      'ben secret pw',
      'wrong but secret',
      api_key,
      token,
      admin.cookie!,
      'abc.def',
    ]) {
      expect(logs, `log contains ${secret.slice(0, 6)}…`).not.toContain(secret); // …their secrets are not
    }
  });
});

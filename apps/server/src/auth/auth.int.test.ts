import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../platform/clock.js';
import {
  ADMIN,
  Client,
  addUser,
  setUpInstance,
  startTestApp,
  type TestApp,
} from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  t = await startTestApp();
  admin = await setUpInstance(t.app);
});
afterEach(() => t.close());

const login = (client: Client, email = ADMIN.email, password = ADMIN.password, remember = false) =>
  client.post('/api/login', { email, password, remember });

describe('sign-in', () => {
  it('sets an HttpOnly SameSite=Lax browser-session cookie that the server ends after 24 hours', async () => {
    const client = new Client(t.app);
    const response = await login(client);
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe(ADMIN.email);
    const cookie = response.cookies.find((c) => c.name === 'loupe_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.maxAge).toBeUndefined();
    expect((await client.get('/api/users')).statusCode).toBe(200);

    t.clock.advance(24 * HOUR + 1000);
    expect((await client.get('/api/users')).statusCode).toBe(401);
  });

  it('remembers the session for 30 days with remember me', async () => {
    const client = new Client(t.app);
    const response = await login(client, ADMIN.email, ADMIN.password, true);
    const cookie = response.cookies.find((c) => c.name === 'loupe_session')!;
    expect(cookie.maxAge).toBeGreaterThan(30 * 86_400 - 60);
    expect(cookie.maxAge).toBeLessThanOrEqual(30 * 86_400);
    t.clock.advance(29 * DAY);
    expect((await client.get('/api/users')).statusCode).toBe(200);
    t.clock.advance(2 * DAY);
    expect((await client.get('/api/users')).statusCode).toBe(401);
  });

  it('answers every failure with the same 401, whatever was wrong', async () => {
    const { id } = await addUser(t.app, admin, {
      email: 'ben@example.com',
      password: 'ben password',
    });
    await admin.put(`/api/users/${id}`, { enabled: false });
    const failures = await Promise.all([
      login(new Client(t.app), ADMIN.email, 'wrong password'),
      login(new Client(t.app), 'nobody@example.com', 'whatever'),
      login(new Client(t.app), 'ben@example.com', 'ben password'), // disabled
    ]);
    for (const failure of failures) {
      expect(failure.statusCode).toBe(401);
      expect(failure.json()).toEqual({
        description: 'Incorrect email or password',
        retriable: false,
      });
      expect(failure.cookies).toHaveLength(0);
    }
  });

  it('accepts the email in any case', async () => {
    expect((await login(new Client(t.app), 'ANA@example.COM')).statusCode).toBe(200);
  });

  it('signs out with POST only: GET /api/logout answers 405 and keeps the session', async () => {
    const get = await admin.get('/api/logout');
    expect(get.statusCode).toBe(405);
    expect(get.json()).toEqual({ description: expect.any(String), retriable: false });
    expect(admin.cookie).toBeDefined();
    expect((await admin.get('/api/users')).statusCode).toBe(200);

    const session = admin.cookie;
    expect((await admin.post('/api/logout')).statusCode).toBe(200);
    expect(admin.cookie).toBeUndefined();
    expect((await admin.get('/api/users')).statusCode).toBe(401);
    // The old cookie is dead on the server too, not only forgotten by the browser.
    admin.cookie = session;
    expect((await admin.get('/api/users')).statusCode).toBe(401);
  });

  it('refuses anonymous calls with 401 and a description', async () => {
    const response = await new Client(t.app).get('/api/users');
    expect(response.statusCode).toBe(401);
    expect(response.json().description).toMatch(/not signed in/);
  });

  it('refuses state-changing requests from another site', async () => {
    const response = await admin.call({
      method: 'POST',
      url: '/api/users',
      body: { email: 'x@example.com', name: 'X', role: 'member' },
      headers: { origin: 'https://evil.example', host: 'localhost:80' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().description).toMatch(/Cross-site request refused/);
    const sameSite = await admin.call({
      method: 'POST',
      url: '/api/users',
      body: { email: 'x@example.com', name: 'X', role: 'member' },
      headers: { origin: 'http://localhost:80', host: 'localhost:80' },
    });
    expect(sameSite.statusCode).toBe(201);
  });
});

describe('password change', () => {
  it('needs the current password, then ends the other sessions and keeps this one', async () => {
    const other = new Client(t.app);
    await login(other);
    const wrong = await admin.put('/api/profile/password', {
      oldPassword: 'nope',
      newPassword: 'new password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().description).toBe('Current password is incorrect.');

    const ok = await admin.put('/api/profile/password', {
      oldPassword: ADMIN.password,
      newPassword: 'new password',
    });
    expect(ok.statusCode).toBe(200);
    expect((await admin.get('/api/users')).statusCode).toBe(200);
    expect((await other.get('/api/users')).statusCode).toBe(401);
    expect((await login(new Client(t.app))).statusCode).toBe(401);
    expect((await login(new Client(t.app), ADMIN.email, 'new password')).statusCode).toBe(200);
  });

  it('keeps the API keys unless asked to revoke them', async () => {
    const key = (await admin.get('/api/settings/key')).json().api_key as string;
    const sdk = new Client(t.app, { 'x-api-key': key });
    const change = (oldPassword: string, newPassword: string, revokeApiKeys?: boolean) =>
      admin.put('/api/profile/password', { oldPassword, newPassword, revokeApiKeys });

    expect((await change(ADMIN.password, 'second password')).statusCode).toBe(200);
    expect((await sdk.get('/api/users')).statusCode).toBe(200);

    expect((await change('second password', 'third password', true)).statusCode).toBe(200);
    expect((await sdk.get('/api/users')).statusCode).toBe(401);
    expect((await admin.get('/api/api_keys')).json().api_keys).toEqual([]);
  });

  it('validates the new password length', async () => {
    const response = await admin.put('/api/profile/password', {
      oldPassword: ADMIN.password,
      newPassword: 'short',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().description).toBe(
      'body.newPassword: New password must be at least 8 characters long.',
    );
  });
});

describe('password reset', () => {
  it('works once with a token valid 24 hours and ends existing sessions', async () => {
    const { client: ben, id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const { token, expires_ts } = (
      await admin.post(`/api/users/${id}/reset-password-token`)
    ).json();
    expect(expires_ts).toBe(Math.floor((t.clock.now + DAY) / 1000));

    const anonymous = new Client(t.app);
    expect(
      (await anonymous.put('/api/reset-password', { token, newPassword: 'brand new pw' }))
        .statusCode,
    ).toBe(200);
    expect((await ben.get('/api/users')).statusCode).toBe(401);
    const reused = await anonymous.put('/api/reset-password', {
      token,
      newPassword: 'another one',
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().description).toMatch(/invalid, was already used, or has expired/);
    expect((await login(new Client(t.app), 'ben@example.com', 'brand new pw')).statusCode).toBe(
      200,
    );
  });

  it("revokes the user's API keys unless told to keep them", async () => {
    const { client: ben, id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const key = (await ben.get('/api/settings/key')).json().api_key as string;
    const sdk = new Client(t.app, { 'x-api-key': key });
    const reset = async (body: Record<string, unknown>) => {
      const { token } = (await admin.post(`/api/users/${id}/reset-password-token`)).json();
      return new Client(t.app).put('/api/reset-password', { token, ...body });
    };

    expect((await reset({ newPassword: 'kept keys pw', revokeApiKeys: false })).statusCode).toBe(
      200,
    );
    expect((await sdk.get('/api/users')).statusCode).toBe(200);

    expect((await reset({ newPassword: 'revoked keys pw' })).statusCode).toBe(200);
    expect((await sdk.get('/api/users')).statusCode).toBe(401);
  });

  it('refuses an older token once a newer one was issued', async () => {
    const { id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const older = (await admin.post(`/api/users/${id}/reset-password-token`)).json().token;
    const newer = (await admin.post(`/api/users/${id}/reset-password-token`)).json().token;
    const anonymous = new Client(t.app);
    const refused = await anonymous.put('/api/reset-password', {
      token: older,
      newPassword: 'older token pw',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().description).toMatch(/invalid, was already used, or has expired/);
    expect(
      (await anonymous.put('/api/reset-password', { token: newer, newPassword: 'newer token pw' }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses an expired token', async () => {
    const { id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const { token } = (await admin.post(`/api/users/${id}/reset-password-token`)).json();
    t.clock.advance(DAY + 1);
    const response = await new Client(t.app).put('/api/reset-password', {
      token,
      newPassword: 'brand new pw',
    });
    expect(response.statusCode).toBe(400);
  });

  it('refuses an unknown token', async () => {
    const response = await new Client(t.app).put('/api/reset-password', {
      token: 'made-up',
      newPassword: 'brand new pw',
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('API keys', () => {
  it("creates the 'Development' key on first read, answers the same key after, and authenticates with it", async () => {
    const first = (await admin.get('/api/settings/key')).json();
    expect(first.name).toBe('Development');
    expect(first.api_key).toMatch(/^lp_/);
    expect((await admin.get('/api/settings/key')).json()).toEqual(first);

    const sdk = new Client(t.app, { 'x-api-key': first.api_key });
    const users = await sdk.get('/api/users');
    expect(users.statusCode).toBe(200);
    expect((await sdk.get('/api/state')).json().user.email).toBe(ADMIN.email);
  });

  it('refuses a wrong key and the key of a disabled user', async () => {
    expect(
      (await new Client(t.app, { 'x-api-key': 'lp_wrong' }).get('/api/users')).statusCode,
    ).toBe(401);
    const { client: ben, id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const { api_key } = (await ben.get('/api/settings/key')).json();
    await admin.put(`/api/users/${id}`, { enabled: false });
    const response = await new Client(t.app, { 'x-api-key': api_key }).get('/api/users');
    expect(response.statusCode).toBe(401);
  });

  it('stores no key or password in clear in the database', async () => {
    const { api_key } = (await admin.get('/api/settings/key')).json();
    const keys = await t.database.db.selectFrom('api_keys').selectAll().execute();
    const users = await t.database.db.selectFrom('users').selectAll().execute();
    const dump = JSON.stringify([keys, users]);
    expect(dump).not.toContain(api_key);
    expect(dump).not.toContain(ADMIN.password);
    expect(users[0]!.password_hash).toMatch(/^\$argon2id\$/);
  });
});

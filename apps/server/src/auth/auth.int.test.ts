import { api } from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../platform/clock.js';
import {
  ADMIN,
  Client,
  addUser,
  refused,
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

/** A raw sign-in, for the tests that look at the cookie the answer sets. */
const rawLogin = (
  client: Client,
  email = ADMIN.email,
  password = ADMIN.password,
  remember = false,
) => client.post('/api/login', { email, password, remember });

const login = (client: Client, email = ADMIN.email, password = ADMIN.password) =>
  client.call(api.auth.login, { body: { email, password } });

/** Whether the client's session (or key) is still signed in. */
const signedIn = (client: Client) =>
  client.call(api.users.list).then(
    () => true,
    (error: { status?: number }) => {
      if (error.status !== 401) throw error;
      return false;
    },
  );

const resetToken = async (id: string) =>
  (await admin.call(api.users.createResetToken, { params: { id } })).token;

describe('sign-in', () => {
  it('sets an HttpOnly SameSite=Lax browser-session cookie that the server ends after 24 hours', async () => {
    const client = new Client(t.app);
    const response = await rawLogin(client);
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe(ADMIN.email);
    const cookie = response.cookies.find((c) => c.name === 'loupe_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.maxAge).toBeUndefined();
    expect(await signedIn(client)).toBe(true);

    t.clock.advance(24 * HOUR + 1000);
    expect(await signedIn(client)).toBe(false);
  });

  it('remembers the session for 30 days with remember me', async () => {
    const client = new Client(t.app);
    const response = await rawLogin(client, ADMIN.email, ADMIN.password, true);
    const cookie = response.cookies.find((c) => c.name === 'loupe_session')!;
    expect(cookie.maxAge).toBeGreaterThan(30 * 86_400 - 60);
    expect(cookie.maxAge).toBeLessThanOrEqual(30 * 86_400);
    t.clock.advance(29 * DAY);
    expect(await signedIn(client)).toBe(true);
    t.clock.advance(2 * DAY);
    expect(await signedIn(client)).toBe(false);
  });

  it('answers every failure with the same 401, whatever was wrong', async () => {
    const { id } = await addUser(t.app, admin, {
      email: 'ben@example.com',
      password: 'ben password',
    });
    await admin.call(api.users.update, { params: { id }, body: { enabled: false } });
    const failures = await Promise.all([
      rawLogin(new Client(t.app), ADMIN.email, 'wrong password'),
      rawLogin(new Client(t.app), 'nobody@example.com', 'whatever'),
      rawLogin(new Client(t.app), 'ben@example.com', 'ben password'), // disabled
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
    const { user } = await login(new Client(t.app), 'ANA@example.COM');
    expect(user.email).toBe(ADMIN.email);
  });

  it('signs out with POST only: GET /api/logout answers 405 and keeps the session', async () => {
    // GET /api/logout is no endpoint of the table: it exists to refuse.
    const get = await admin.get('/api/logout');
    expect(get.statusCode).toBe(405);
    expect(get.json()).toEqual({ description: expect.any(String), retriable: false });
    expect(admin.cookie).toBeDefined();
    expect(await signedIn(admin)).toBe(true);

    const session = admin.cookie;
    expect(await admin.call(api.auth.logout)).toEqual({ ok: true });
    expect(admin.cookie).toBeUndefined();
    expect(await signedIn(admin)).toBe(false);
    // The old cookie is dead on the server too, not only forgotten by the browser.
    admin.cookie = session;
    expect(await signedIn(admin)).toBe(false);
  });

  it('refuses anonymous calls with 401 and a description', async () => {
    const error = await refused(new Client(t.app).call(api.users.list));
    expect(error.status).toBe(401);
    expect(error.description).toMatch(/not signed in/);
  });

  it('refuses state-changing requests from another site', async () => {
    const invite = (origin: string) =>
      admin.call(
        api.users.create,
        { body: { email: 'x@example.com', name: 'X', role: 'member' } },
        { headers: { origin, host: 'localhost:80' } },
      );
    const error = await refused(invite('https://evil.example'));
    expect(error.status).toBe(403);
    expect(error.description).toMatch(/Cross-site request refused/);
    expect((await invite('http://localhost:80')).email).toBe('x@example.com');
  });
});

describe('password change', () => {
  it('needs the current password, then ends the other sessions and keeps this one', async () => {
    const other = new Client(t.app);
    await login(other);
    const wrong = await refused(
      admin.call(api.auth.changePassword, {
        body: { oldPassword: 'nope', newPassword: 'new password' },
      }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.description).toBe('Current password is incorrect.');

    await admin.call(api.auth.changePassword, {
      body: { oldPassword: ADMIN.password, newPassword: 'new password' },
    });
    expect(await signedIn(admin)).toBe(true);
    expect(await signedIn(other)).toBe(false);
    await expect(login(new Client(t.app))).rejects.toMatchObject({ status: 401 });
    await login(new Client(t.app), ADMIN.email, 'new password');
  });

  it('keeps the API keys unless asked to revoke them', async () => {
    const key = (await admin.call(api.settings.developmentKey)).api_key;
    const sdk = new Client(t.app, { 'x-api-key': key });
    const change = (oldPassword: string, newPassword: string, revokeApiKeys?: boolean) =>
      admin.call(api.auth.changePassword, { body: { oldPassword, newPassword, revokeApiKeys } });

    await change(ADMIN.password, 'second password');
    expect(await signedIn(sdk)).toBe(true);

    await change('second password', 'third password', true);
    await expect(sdk.call(api.users.list)).rejects.toMatchObject({ status: 401 });
    expect((await admin.call(api.apiKeys.list)).api_keys).toEqual([]);
  });

  it('validates the new password length', async () => {
    const error = await refused(
      admin.call(api.auth.changePassword, {
        body: { oldPassword: ADMIN.password, newPassword: 'short' },
      }),
    );
    expect(error.status).toBe(400);
    expect(error.description).toBe(
      'body.newPassword: New password must be at least 8 characters long.',
    );
  });
});

describe('password reset', () => {
  it('works once with a token valid 24 hours and ends existing sessions', async () => {
    const { client: ben, id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const { token, expires_ts } = await admin.call(api.users.createResetToken, { params: { id } });
    expect(expires_ts).toBe(Math.floor((t.clock.now + DAY) / 1000));

    const anonymous = new Client(t.app);
    await anonymous.call(api.auth.resetPassword, { body: { token, newPassword: 'brand new pw' } });
    expect(await signedIn(ben)).toBe(false);
    const reused = await refused(
      anonymous.call(api.auth.resetPassword, { body: { token, newPassword: 'another one' } }),
    );
    expect(reused.status).toBe(400);
    expect(reused.description).toMatch(/invalid, was already used, or has expired/);
    await login(new Client(t.app), 'ben@example.com', 'brand new pw');
  });

  it("revokes the user's API keys unless told to keep them", async () => {
    const { client: ben, id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const key = (await ben.call(api.settings.developmentKey)).api_key;
    const sdk = new Client(t.app, { 'x-api-key': key });
    const reset = async (newPassword: string, revokeApiKeys?: boolean) =>
      new Client(t.app).call(api.auth.resetPassword, {
        body: { token: await resetToken(id), newPassword, revokeApiKeys },
      });

    await reset('kept keys pw', false);
    expect(await signedIn(sdk)).toBe(true);

    await reset('revoked keys pw');
    expect(await signedIn(sdk)).toBe(false);
  });

  it('refuses an older token once a newer one was issued', async () => {
    const { id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const older = await resetToken(id);
    const newer = await resetToken(id);
    const anonymous = new Client(t.app);
    const error = await refused(
      anonymous.call(api.auth.resetPassword, {
        body: { token: older, newPassword: 'older token pw' },
      }),
    );
    expect(error.status).toBe(400);
    expect(error.description).toMatch(/invalid, was already used, or has expired/);
    await anonymous.call(api.auth.resetPassword, {
      body: { token: newer, newPassword: 'newer token pw' },
    });
  });

  it('refuses an expired token', async () => {
    const { id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const token = await resetToken(id);
    t.clock.advance(DAY + 1);
    await expect(
      new Client(t.app).call(api.auth.resetPassword, {
        body: { token, newPassword: 'brand new pw' },
      }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('refuses an unknown token', async () => {
    await expect(
      new Client(t.app).call(api.auth.resetPassword, {
        body: { token: 'made-up', newPassword: 'brand new pw' },
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
});

describe('API keys', () => {
  it("creates the 'Development' key on first read, answers the same key after, and authenticates with it", async () => {
    const first = await admin.call(api.settings.developmentKey);
    expect(first.name).toBe('Development');
    expect(first.api_key).toMatch(/^lp_/);
    expect(await admin.call(api.settings.developmentKey)).toEqual(first);

    const sdk = new Client(t.app, { 'x-api-key': first.api_key });
    expect(await signedIn(sdk)).toBe(true);
    expect((await sdk.call(api.state.get)).user?.email).toBe(ADMIN.email);
  });

  it('refuses a wrong key and the key of a disabled user', async () => {
    expect(await signedIn(new Client(t.app, { 'x-api-key': 'lp_wrong' }))).toBe(false);
    const { client: ben, id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const { api_key } = await ben.call(api.settings.developmentKey);
    await admin.call(api.users.update, { params: { id }, body: { enabled: false } });
    expect(await signedIn(new Client(t.app, { 'x-api-key': api_key }))).toBe(false);
  });

  it('stores no key or password in clear in the database', async () => {
    const { api_key } = await admin.call(api.settings.developmentKey);
    const keys = await t.database.db.selectFrom('api_keys').selectAll().execute();
    const users = await t.database.db.selectFrom('users').selectAll().execute();
    const dump = JSON.stringify([keys, users]);
    expect(dump).not.toContain(api_key);
    expect(dump).not.toContain(ADMIN.password);
    expect(users[0]!.password_hash).toMatch(/^\$argon2id\$/);
  });
});

// API keys: listed without secrets, created and rotated with the secret shown once, revoked at
// once, managed from a session only, and never revived with their user.
import { api } from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../platform/clock.js';
import {
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

const withKey = (key: string) => new Client(t.app, { 'x-api-key': key });
const create = (client: Client, name: string) =>
  client.call(api.apiKeys.create, { body: { name } });
const revoke = (client: Client, id: string) => client.call(api.apiKeys.revoke, { params: { id } });
const rotate = (client: Client, id: string) => client.call(api.apiKeys.rotate, { params: { id } });
const keys = async () => (await admin.call(api.apiKeys.list)).api_keys;
const developmentKey = async (client: Client) =>
  (await client.call(api.settings.developmentKey)).api_key;

/** The status a call of GET /api/users answers with this key. */
const usersStatus = (key: string) =>
  withKey(key)
    .call(api.users.list)
    .then(
      () => 200,
      (error: { status: number }) => error.status,
    );

describe('API keys', () => {
  it('creates a named key whose secret is answered once, and lists keys without secrets', async () => {
    const development = await developmentKey(admin);
    t.clock.advance(1000); // listed oldest first
    const key = await create(admin, '  CI runner  ');
    expect(key).toEqual({
      id: expect.any(String),
      name: 'CI runner',
      created_at: t.clock.now,
      last_used_at: null,
      hint: `lp_…${key.api_key.slice(-4)}`,
      default: false,
      api_key: expect.stringMatching(/^lp_/),
    });
    expect(await usersStatus(key.api_key)).toBe(200);

    const listed = await keys();
    expect(listed.map((k) => k.name)).toEqual(['Development', 'CI runner']);
    expect(listed[0]).toMatchObject({ default: true, hint: `lp_…${development.slice(-4)}` });
    expect(JSON.stringify(listed)).not.toContain(key.api_key);
    expect(JSON.stringify(listed)).not.toContain(development);
    // Shown once: nothing the server keeps can give the named key back.
    const stored = await t.database.db.selectFrom('api_keys').selectAll().execute();
    expect(stored.find((row) => row.name === 'CI runner')!.key_ciphertext).toBe('');
  });

  it('refuses a taken name with 409 and a bad name with 400', async () => {
    await create(admin, 'CI');
    const taken = await refused(create(admin, 'CI'));
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({
      description: 'An API key with that name already exists.',
      retriable: false,
    });
    // Names are per user: another user may use the same one.
    const { client: ben } = await addUser(t.app, admin, { email: 'ben@example.com' });
    await create(ben, 'CI');

    for (const name of ['   ', 'x'.repeat(65), 42]) {
      // Raw: a number is no name the typed client would send.
      const bad = await admin.post('/api/api_keys', { name });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().description).toMatch(/^body\.name: /);
    }
    expect((await create(admin, 'x'.repeat(64))).name).toHaveLength(64);
  });

  it('revokes a key at once, and only the caller’s own', async () => {
    const key = await create(admin, 'CI');
    expect(await usersStatus(key.api_key)).toBe(200);

    const { client: ben } = await addUser(t.app, admin, { email: 'ben@example.com' });
    await expect(revoke(ben, key.id)).rejects.toMatchObject({ status: 404 });
    expect(await usersStatus(key.api_key)).toBe(200);

    expect(await revoke(admin, key.id)).toEqual({ ok: true });
    expect(await usersStatus(key.api_key)).toBe(401);
    await expect(revoke(admin, key.id)).rejects.toMatchObject({ status: 404 });
    expect(await keys()).toEqual([]);
  });

  it('rotates a key: same id and name, the old secret stops working at once', async () => {
    const key = await create(admin, 'CI');
    const rotated = await rotate(admin, key.id);
    expect(rotated).toMatchObject({ id: key.id, name: 'CI', default: false });
    expect(rotated.api_key).not.toBe(key.api_key);
    expect(await usersStatus(key.api_key)).toBe(401);
    expect(await usersStatus(rotated.api_key)).toBe(200);

    const { client: ben } = await addUser(t.app, admin, { email: 'ben@example.com' });
    await expect(rotate(ben, key.id)).rejects.toMatchObject({ status: 404 });
  });

  it("rotates and revokes the 'Development' key, which the SDK dialog then shows anew", async () => {
    const first = await developmentKey(admin);
    const [development] = await keys();
    const rotated = await rotate(admin, development!.id);
    expect(rotated.default).toBe(true);
    expect(await developmentKey(admin)).toBe(rotated.api_key);
    expect(await usersStatus(first)).toBe(401);

    await revoke(admin, development!.id);
    expect(await usersStatus(rotated.api_key)).toBe(401);
    const recreated = await developmentKey(admin);
    expect(recreated).not.toBe(rotated.api_key);
    expect(await usersStatus(recreated)).toBe(200);
  });

  it('is managed from a session only: a key cannot mint, rotate or revoke keys', async () => {
    const key = await create(admin, 'CI');
    const sdk = withKey(key.api_key);
    expect(await sdk.call(api.apiKeys.list)).toMatchObject({ api_keys: [{ name: 'CI' }] });
    for (const call of [
      () => create(sdk, 'persistence'),
      () => rotate(sdk, key.id),
      () => revoke(sdk, key.id),
    ]) {
      const error = await refused(call());
      expect(error.status).toBe(403);
      expect(error.description).toMatch(/signed-in session/);
    }
    expect(await usersStatus(key.api_key)).toBe(200);
  });

  it('refuses a malformed key id with 400 before asking for a session', async () => {
    const error = await refused(revoke(admin, 'not-a-uuid'));
    expect(error.status).toBe(400);
    expect(error.description).toMatch(/^params\.id: /);
  });

  it('records the last use at most once a minute', async () => {
    const key = await create(admin, 'CI');
    const lastUsed = async () => (await keys())[0]!.last_used_at;
    const start = t.clock.now;
    await usersStatus(key.api_key);
    expect(await lastUsed()).toBe(start);
    t.clock.advance(MINUTE - 1);
    await usersStatus(key.api_key);
    expect(await lastUsed()).toBe(start);
    t.clock.advance(2);
    await usersStatus(key.api_key);
    expect(await lastUsed()).toBe(start + MINUTE + 1);
  });

  it('does not revive a disabled user’s keys when the user is enabled again', async () => {
    const { client: ben, id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const development = await developmentKey(ben);
    const named = (await create(ben, 'CI')).api_key;
    await admin.call(api.users.update, { params: { id }, body: { enabled: false } });
    await admin.call(api.users.update, { params: { id }, body: { enabled: true } });
    for (const key of [development, named]) expect(await usersStatus(key)).toBe(401);
  });
});

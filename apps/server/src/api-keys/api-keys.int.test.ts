// API keys: listed without secrets, created and rotated with the secret shown once, revoked at
// once, managed from a session only, and never revived with their user.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../platform/clock.js';
import { Client, addUser, setUpInstance, startTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  t = await startTestApp();
  admin = await setUpInstance(t.app);
});
afterEach(() => t.close());

const withKey = (key: string) => new Client(t.app, { 'x-api-key': key });
const create = (client: Client, name: unknown) => client.post('/api/api_keys', { name });
const revoke = (client: Client, id: string) =>
  client.call({ method: 'DELETE', url: `/api/api_keys/${id}` });

describe('API keys', () => {
  it('creates a named key whose secret is answered once, and lists keys without secrets', async () => {
    const development = (await admin.get('/api/settings/key')).json().api_key as string;
    t.clock.advance(1000); // listed oldest first
    const created = await create(admin, '  CI runner  ');
    expect(created.statusCode).toBe(201);
    const key = created.json();
    expect(key).toEqual({
      id: expect.any(String),
      name: 'CI runner',
      created_at: t.clock.now,
      last_used_at: null,
      hint: `lp_…${key.api_key.slice(-4)}`,
      default: false,
      api_key: expect.stringMatching(/^lp_/),
    });
    expect((await withKey(key.api_key).get('/api/users')).statusCode).toBe(200);

    const listed = await admin.get('/api/api_keys');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().api_keys.map((k: { name: string }) => k.name)).toEqual([
      'Development',
      'CI runner',
    ]);
    expect(listed.json().api_keys[0]).toMatchObject({
      default: true,
      hint: `lp_…${development.slice(-4)}`,
    });
    expect(listed.body).not.toContain(key.api_key);
    expect(listed.body).not.toContain(development);
    // Shown once: nothing the server keeps can give the named key back.
    const stored = await t.database.db.selectFrom('api_keys').selectAll().execute();
    expect(stored.find((row) => row.name === 'CI runner')!.key_ciphertext).toBe('');
  });

  it('refuses a taken name with 409 and a bad name with 400', async () => {
    expect((await create(admin, 'CI')).statusCode).toBe(201);
    const taken = await create(admin, 'CI');
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      description: 'An API key with that name already exists.',
      retriable: false,
    });
    // Names are per user: another user may use the same one.
    const { client: ben } = await addUser(t.app, admin, { email: 'ben@example.com' });
    expect((await create(ben, 'CI')).statusCode).toBe(201);

    for (const name of ['   ', 'x'.repeat(65), 42]) {
      const bad = await create(admin, name);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().description).toMatch(/^body\.name: /);
    }
    expect((await create(admin, 'x'.repeat(64))).statusCode).toBe(201);
  });

  it('revokes a key at once, and only the caller’s own', async () => {
    const key = (await create(admin, 'CI')).json();
    const sdk = withKey(key.api_key);
    expect((await sdk.get('/api/users')).statusCode).toBe(200);

    const { client: ben } = await addUser(t.app, admin, { email: 'ben@example.com' });
    expect((await revoke(ben, key.id)).statusCode).toBe(404);
    expect((await sdk.get('/api/users')).statusCode).toBe(200);

    expect((await revoke(admin, key.id)).json()).toEqual({ ok: true });
    expect((await sdk.get('/api/users')).statusCode).toBe(401);
    expect((await revoke(admin, key.id)).statusCode).toBe(404);
    expect((await admin.get('/api/api_keys')).json().api_keys).toEqual([]);
  });

  it('rotates a key: same id and name, the old secret stops working at once', async () => {
    const key = (await create(admin, 'CI')).json();
    const rotated = await admin.post(`/api/api_keys/${key.id}/rotate`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json()).toMatchObject({ id: key.id, name: 'CI', default: false });
    expect(rotated.json().api_key).not.toBe(key.api_key);
    expect((await withKey(key.api_key).get('/api/users')).statusCode).toBe(401);
    expect((await withKey(rotated.json().api_key).get('/api/users')).statusCode).toBe(200);

    const { client: ben } = await addUser(t.app, admin, { email: 'ben@example.com' });
    expect((await ben.post(`/api/api_keys/${key.id}/rotate`)).statusCode).toBe(404);
  });

  it("rotates and revokes the 'Development' key, which the SDK dialog then shows anew", async () => {
    const first = (await admin.get('/api/settings/key')).json().api_key as string;
    const [development] = (await admin.get('/api/api_keys')).json().api_keys;
    const rotated = (await admin.post(`/api/api_keys/${development.id}/rotate`)).json();
    expect(rotated.default).toBe(true);
    expect((await admin.get('/api/settings/key')).json().api_key).toBe(rotated.api_key);
    expect((await withKey(first).get('/api/users')).statusCode).toBe(401);

    await revoke(admin, development.id);
    expect((await withKey(rotated.api_key).get('/api/users')).statusCode).toBe(401);
    const recreated = (await admin.get('/api/settings/key')).json().api_key as string;
    expect(recreated).not.toBe(rotated.api_key);
    expect((await withKey(recreated).get('/api/users')).statusCode).toBe(200);
  });

  it('is managed from a session only: a key cannot mint, rotate or revoke keys', async () => {
    const key = (await create(admin, 'CI')).json();
    const sdk = withKey(key.api_key);
    expect((await sdk.get('/api/api_keys')).statusCode).toBe(200);
    for (const response of [
      await create(sdk, 'persistence'),
      await sdk.post(`/api/api_keys/${key.id}/rotate`),
      await revoke(sdk, key.id),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().description).toMatch(/signed-in session/);
    }
    expect((await sdk.get('/api/users')).statusCode).toBe(200);
  });

  it('records the last use at most once a minute', async () => {
    const key = (await create(admin, 'CI')).json();
    const sdk = withKey(key.api_key);
    const lastUsed = async () =>
      (await admin.get('/api/api_keys')).json().api_keys[0].last_used_at as number | null;
    const start = t.clock.now;
    await sdk.get('/api/users');
    expect(await lastUsed()).toBe(start);
    t.clock.advance(MINUTE - 1);
    await sdk.get('/api/users');
    expect(await lastUsed()).toBe(start);
    t.clock.advance(2);
    await sdk.get('/api/users');
    expect(await lastUsed()).toBe(start + MINUTE + 1);
  });

  it('does not revive a disabled user’s keys when the user is enabled again', async () => {
    const { client: ben, id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const development = (await ben.get('/api/settings/key')).json().api_key as string;
    const named = (await create(ben, 'CI')).json().api_key as string;
    expect((await admin.put(`/api/users/${id}`, { enabled: false })).statusCode).toBe(200);
    expect((await admin.put(`/api/users/${id}`, { enabled: true })).statusCode).toBe(200);
    for (const key of [development, named]) {
      expect((await withKey(key).get('/api/users')).statusCode).toBe(401);
    }
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../testing/test-app.js';
import { addUser, setUpInstance, startTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
let adminId: string;
beforeEach(async () => {
  t = await startTestApp();
  admin = await setUpInstance(t.app);
  adminId = (await admin.get('/api/state')).json().user.id;
});
afterEach(() => t.close());

describe('users', () => {
  it('lets an admin invite a member, who defaults to the member role', async () => {
    const response = await admin.post('/api/users', { email: 'Ben@Example.com', name: 'Ben' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      email: 'ben@example.com',
      name: 'Ben',
      role: 'member',
      enabled: true,
      company_name: 'Acme Inc.',
    });
    const list = (await admin.get('/api/users')).json();
    expect(list.map((u: { email: string }) => u.email)).toEqual([
      'ana@example.com',
      'ben@example.com',
    ]);
  });

  it('answers 409 naming the email when it is taken', async () => {
    await admin.post('/api/users', { email: 'ben@example.com', name: 'Ben' });
    const again = await admin.post('/api/users', { email: 'BEN@example.com', name: 'Ben Two' });
    expect(again.statusCode).toBe(409);
    expect(again.json().description).toBe('A user with the email ben@example.com already exists.');
  });

  it('lets members read the list but not change it', async () => {
    const { client: ben, id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    expect((await ben.get('/api/users')).statusCode).toBe(200);
    const invite = await ben.post('/api/users', { email: 'c@example.com', name: 'C' });
    expect(invite.statusCode).toBe(403);
    expect(invite.json().description).toBe('You do not have permission to invite users');
    expect((await ben.put(`/api/users/${id}`, { name: 'Benjamin' })).json().description).toBe(
      'You do not have permission to edit users',
    );
    expect((await ben.post(`/api/users/${adminId}/reset-password-token`)).json().description).toBe(
      "You do not have permission to reset users' passwords",
    );
  });

  it('keeps the last enabled admin', async () => {
    const demote = await admin.put(`/api/users/${adminId}`, { role: 'member' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().description).toBe(
      'Cannot change role. This is the last remaining administrator.',
    );

    const { id: cleoId } = await addUser(t.app, admin, {
      email: 'cleo@example.com',
      role: 'admin',
    });
    expect((await admin.put(`/api/users/${adminId}`, { role: 'member' })).statusCode).toBe(200);
    // Ana is a member now: she can no longer edit anyone.
    expect((await admin.put(`/api/users/${cleoId}`, { role: 'member' })).statusCode).toBe(403);
  });

  it('does not let a user disable themself', async () => {
    await addUser(t.app, admin, { email: 'cleo@example.com', role: 'admin' });
    const response = await admin.put(`/api/users/${adminId}`, { enabled: false });
    expect(response.statusCode).toBe(409);
    expect(response.json().description).toBe('You cannot disable yourself as a user');
  });

  it('ends the sessions of a disabled user, refuses edits and reset links until re-enabled', async () => {
    const { client: ben, id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    // Ben's session was just looked up, so the server remembers it: disabling forgets it at once.
    expect((await ben.get('/api/users')).statusCode).toBe(200);
    const disabled = await admin.put(`/api/users/${id}`, { enabled: false });
    expect(disabled.json().enabled).toBe(false);
    expect((await ben.get('/api/users')).statusCode).toBe(401);

    const rename = await admin.put(`/api/users/${id}`, { name: 'Benjamin' });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().description).toBe('This user is disabled');
    expect((await admin.post(`/api/users/${id}/reset-password-token`)).json().description).toBe(
      'This user is disabled',
    );

    const enabled = await admin.put(`/api/users/${id}`, { enabled: true, name: 'Benjamin' });
    expect(enabled.json()).toMatchObject({ enabled: true, name: 'Benjamin' });
  });

  it('applies a role change to a signed-in session at once', async () => {
    const { client: ben, id } = await addUser(t.app, admin, {
      email: 'ben@example.com',
      role: 'admin',
    });
    expect(
      (await ben.post('/api/users', { email: 'c@example.com', name: 'C', role: 'member' }))
        .statusCode,
    ).toBe(201);
    expect((await admin.put(`/api/users/${id}`, { role: 'member' })).statusCode).toBe(200);
    expect(
      (await ben.post('/api/users', { email: 'd@example.com', name: 'D', role: 'member' }))
        .statusCode,
    ).toBe(403);
  });

  it('answers 404 for an unknown id and 400 for a malformed one or an empty change', async () => {
    const unknown = await admin.put('/api/users/00000000-0000-4000-8000-000000000000', {
      name: 'X',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().description).toBe(
      'No user with id 00000000-0000-4000-8000-000000000000.',
    );
    const malformed = await admin.put('/api/users/42', { name: 'X' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().description).toMatch(/^params\.id: /);
    const empty = await admin.put(`/api/users/${adminId}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().description).toContain('Nothing to update');
  });
});

import { api } from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../testing/test-app.js';
import {
  addUser,
  refused,
  setUpInstance,
  startTestApp,
  type TestApp,
} from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
let adminId: string;
beforeEach(async () => {
  t = await startTestApp();
  admin = await setUpInstance(t.app);
  adminId = (await admin.call(api.state.get)).user!.id;
});
afterEach(() => t.close());

const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('users', () => {
  it('lets an admin invite a member, who defaults to the member role', async () => {
    const user = await admin.call(api.users.create, {
      body: { email: 'Ben@Example.com', name: 'Ben' },
    });
    expect(user).toMatchObject({
      email: 'ben@example.com',
      name: 'Ben',
      role: 'member',
      enabled: true,
      company_name: 'Acme Inc.',
    });
    const list = await admin.call(api.users.list);
    expect(list.map((u) => u.email)).toEqual(['ana@example.com', 'ben@example.com']);
  });

  it('answers 409 naming the email when it is taken', async () => {
    await admin.call(api.users.create, { body: { email: 'ben@example.com', name: 'Ben' } });
    const again = await refused(
      admin.call(api.users.create, { body: { email: 'BEN@example.com', name: 'Ben Two' } }),
    );
    expect(again.status).toBe(409);
    expect(again.description).toBe('A user with the email ben@example.com already exists.');
  });

  it('lets members read the list but not change it', async () => {
    const { client: ben, id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    expect(await ben.call(api.users.list)).toHaveLength(2);
    await expect(
      ben.call(api.users.create, { body: { email: 'c@example.com', name: 'C' } }),
    ).rejects.toMatchObject({
      status: 403,
      description: 'You do not have permission to invite users',
    });
    await expect(
      ben.call(api.users.update, { params: { id }, body: { name: 'Benjamin' } }),
    ).rejects.toMatchObject({
      status: 403,
      description: 'You do not have permission to edit users',
    });
    await expect(
      ben.call(api.users.createResetToken, { params: { id: adminId } }),
    ).rejects.toMatchObject({
      status: 403,
      description: "You do not have permission to reset users' passwords",
    });
  });

  it('keeps the last enabled admin', async () => {
    await expect(
      admin.call(api.users.update, { params: { id: adminId }, body: { role: 'member' } }),
    ).rejects.toMatchObject({
      status: 409,
      description: 'Cannot change role. This is the last remaining administrator.',
    });

    const { id: cleoId } = await addUser(t.app, admin, {
      email: 'cleo@example.com',
      role: 'admin',
    });
    await admin.call(api.users.update, { params: { id: adminId }, body: { role: 'member' } });
    // Ana is a member now: she can no longer edit anyone.
    await expect(
      admin.call(api.users.update, { params: { id: cleoId }, body: { role: 'member' } }),
    ).rejects.toMatchObject({ status: 403 });
  });

  it('does not let a user disable themself', async () => {
    await addUser(t.app, admin, { email: 'cleo@example.com', role: 'admin' });
    await expect(
      admin.call(api.users.update, { params: { id: adminId }, body: { enabled: false } }),
    ).rejects.toMatchObject({ status: 409, description: 'You cannot disable yourself as a user' });
  });

  it('ends the sessions of a disabled user, refuses edits and reset links until re-enabled', async () => {
    const { client: ben, id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    // Ben's session was just looked up, so the server remembers it: disabling forgets it at once.
    await ben.call(api.users.list);
    const disabled = await admin.call(api.users.update, {
      params: { id },
      body: { enabled: false },
    });
    expect(disabled.enabled).toBe(false);
    await expect(ben.call(api.users.list)).rejects.toMatchObject({ status: 401 });

    await expect(
      admin.call(api.users.update, { params: { id }, body: { name: 'Benjamin' } }),
    ).rejects.toMatchObject({ status: 409, description: 'This user is disabled' });
    await expect(admin.call(api.users.createResetToken, { params: { id } })).rejects.toMatchObject({
      status: 409,
      description: 'This user is disabled',
    });

    const enabled = await admin.call(api.users.update, {
      params: { id },
      body: { enabled: true, name: 'Benjamin' },
    });
    expect(enabled).toMatchObject({ enabled: true, name: 'Benjamin' });
  });

  it('applies a role change to a signed-in session at once', async () => {
    const { client: ben, id } = await addUser(t.app, admin, {
      email: 'ben@example.com',
      role: 'admin',
    });
    await ben.call(api.users.create, {
      body: { email: 'c@example.com', name: 'C', role: 'member' },
    });
    await admin.call(api.users.update, { params: { id }, body: { role: 'member' } });
    await expect(
      ben.call(api.users.create, { body: { email: 'd@example.com', name: 'D', role: 'member' } }),
    ).rejects.toMatchObject({ status: 403 });
  });

  it('answers 404 for an unknown id and 400 for a malformed one or an empty change', async () => {
    await expect(
      admin.call(api.users.update, { params: { id: NOBODY }, body: { name: 'X' } }),
    ).rejects.toMatchObject({ status: 404, description: `No user with id ${NOBODY}.` });
    const malformed = await refused(
      admin.call(api.users.update, { params: { id: '42' }, body: { name: 'X' } }),
    );
    expect(malformed.status).toBe(400);
    expect(malformed.description).toMatch(/^params\.id: /);
    const empty = await refused(
      admin.call(api.users.update, { params: { id: adminId }, body: {} }),
    );
    expect(empty.status).toBe(400);
    expect(empty.description).toContain('Nothing to update');
  });
});

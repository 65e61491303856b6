import { api } from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, Client, refused, startTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(() => t.close());

const setup = (client: Client, company: string, user: typeof ADMIN) =>
  client.call(api.setup.complete, { body: { company, user } });

describe('POST /api/setup', () => {
  it('creates the first admin, completes setup and signs them in', async () => {
    const client = new Client(t.app);
    expect((await client.call(api.state.get)).setup_state).toBe('INITIAL');

    const { user } = await setup(client, '  Acme Inc.  ', { ...ADMIN, email: 'Ana@Example.com' });
    expect(user).toMatchObject({
      email: 'ana@example.com',
      name: ADMIN.username,
      role: 'admin',
      enabled: true,
      company_name: 'Acme Inc.',
    });

    const state = await client.call(api.state.get);
    expect(state.setup_state).toBe('COMPLETE');
    expect(state.user?.email).toBe('ana@example.com');
    expect(await client.call(api.users.list)).toHaveLength(1);
  });

  it('refuses a second setup with 409', async () => {
    await setup(new Client(t.app), 'Acme', ADMIN);
    const again = await refused(
      setup(new Client(t.app), 'Evil', { ...ADMIN, email: 'eve@example.com' }),
    );
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      description: 'Setup is already complete: sign in instead.',
      retriable: false,
    });
  });

  it('lets exactly one of two simultaneous setups win', async () => {
    const results = await Promise.allSettled(
      ['a', 'b', 'c'].map((n) =>
        setup(new Client(t.app), 'Acme', { ...ADMIN, email: `${n}@example.com` }),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost.map((r) => (r.reason as { status: number }).status)).toEqual([409, 409]);
    const admin = new Client(t.app);
    await admin.call(api.auth.login, {
      body: { email: won[0]!.value.user.email, password: ADMIN.password },
    });
    expect(await admin.call(api.users.list)).toHaveLength(1);
  });

  it("answers 'Invalid user config, setup failed' without a user", async () => {
    const error = await refused(
      new Client(t.app).call(api.setup.complete, { body: { company: 'Acme' } }),
    );
    expect(error.status).toBe(400);
    expect(error.description).toBe('Invalid user config, setup failed');
    expect((await new Client(t.app).call(api.state.get)).setup_state).toBe('INITIAL');
  });

  // Raw: malformed bodies on purpose, some of which the typed client would not send.
  it.each([
    [
      { company: 'Acme <script>', user: ADMIN },
      'body.company: Company name can include only letters, numbers, and the symbols ~!?@#$%^&*()_-,.\'"',
    ],
    [{ company: '   ', user: ADMIN }, 'body.company: Company Name is required.'],
    [
      { company: 'Acme', user: { ...ADMIN, username: 'R2-D2' } },
      'body.user.username: Name cannot include special characters.',
    ],
    [
      { company: 'Acme', user: { ...ADMIN, email: 'not-an-email' } },
      'body.user.email: Email must be valid.',
    ],
    [
      { company: 'Acme', user: { ...ADMIN, password: 'short' } },
      'body.user.password: New password must be at least 8 characters long.',
    ],
    [{ user: ADMIN }, 'body.company: Required'],
  ])('rejects %j with a description naming the field', async (body, description) => {
    const response = await new Client(t.app).post('/api/setup', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ description, retriable: false });
  });

  it('accepts names in any script and company symbols the product allows', async () => {
    const { user } = await setup(new Client(t.app), `Zoë & Co. #1 (ÅB) "quotes" ~!?@$%^*_-,.'`, {
      ...ADMIN,
      username: "Jean-Luc O'Brien, Jr. 山田 Ζωή",
    });
    expect(user.name).toBe("Jean-Luc O'Brien, Jr. 山田 Ζωή");
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, Client, startTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(() => t.close());

describe('POST /api/setup', () => {
  it('creates the first admin, completes setup and signs them in', async () => {
    const client = new Client(t.app);
    expect((await client.get('/api/state')).json().setup_state).toBe('INITIAL');

    const response = await client.post('/api/setup', {
      company: '  Acme Inc.  ',
      user: { ...ADMIN, email: 'Ana@Example.com' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().user).toMatchObject({
      email: 'ana@example.com',
      name: ADMIN.username,
      role: 'admin',
      enabled: true,
      company_name: 'Acme Inc.',
    });

    const state = (await client.get('/api/state')).json();
    expect(state.setup_state).toBe('COMPLETE');
    expect(state.user.email).toBe('ana@example.com');
    expect((await client.get('/api/users')).statusCode).toBe(200);
  });

  it('refuses a second setup with 409', async () => {
    await new Client(t.app).post('/api/setup', { company: 'Acme', user: ADMIN });
    const again = await new Client(t.app).post('/api/setup', {
      company: 'Evil',
      user: { ...ADMIN, email: 'eve@example.com' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      description: 'Setup is already complete: sign in instead.',
      retriable: false,
    });
  });

  it('lets exactly one of two simultaneous setups win', async () => {
    const results = await Promise.all(
      ['a', 'b', 'c'].map((n) =>
        new Client(t.app).post('/api/setup', {
          company: 'Acme',
          user: { ...ADMIN, email: `${n}@example.com` },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    const admin = new Client(t.app);
    const winner = results.find((r) => r.statusCode === 201)!.json().user.email;
    await admin.post('/api/login', { email: winner, password: ADMIN.password, remember: false });
    expect((await admin.get('/api/users')).json()).toHaveLength(1);
  });

  it("answers 'Invalid user config, setup failed' without a user", async () => {
    const response = await new Client(t.app).post('/api/setup', { company: 'Acme' });
    expect(response.statusCode).toBe(400);
    expect(response.json().description).toBe('Invalid user config, setup failed');
    expect((await new Client(t.app).get('/api/state')).json().setup_state).toBe('INITIAL');
  });

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
    const response = await new Client(t.app).post('/api/setup', {
      company: `Zoë & Co. #1 (ÅB) "quotes" ~!?@$%^*_-,.'`,
      user: { ...ADMIN, username: "Jean-Luc O'Brien, Jr. 山田 Ζωή" },
    });
    expect(response.statusCode).toBe(201);
  });
});

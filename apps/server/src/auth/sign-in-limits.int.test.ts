// Password guessing and reset-token guessing: growing delays that never lock an owner out, and no
// argon2 time spent on a bad reset token.
import { api } from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MINUTE } from '../platform/clock.js';
import { expectKeptAnswering, healthDuring } from '../testing/health-probe.js';
import {
  ADMIN,
  Client,
  addUser,
  setUpInstance,
  startTestApp,
  type TestApp,
} from '../testing/test-app.js';
import { LOGIN_LIMITS, RESET_LIMITS } from './login-limiter.js';
import type * as passwords from './passwords.js';
import { hashPassword } from './passwords.js';

vi.mock('./passwords.js', async (importOriginal) => {
  const original = await importOriginal<typeof passwords>();
  return { ...original, hashPassword: vi.fn(original.hashPassword) };
});

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  // Behind a trusted proxy, X-Forwarded-For names the caller's address.
  t = await startTestApp({ LOUPE_TRUST_PROXY: 'true' });
  admin = await setUpInstance(t.app);
});
afterEach(() => t.close());

const from = (address: string) => new Client(t.app, { 'x-forwarded-for': address });
// Raw sign-ins and resets: these tests read the Retry-After header of each refusal.
const login = (client: Client, password = ADMIN.password) =>
  client.post('/api/login', { email: ADMIN.email, password, remember: false });
const retryAfterMs = (response: { headers: Record<string, unknown> }) =>
  Number(response.headers['retry-after']) * 1000;

/** Fails `count` times from the client, waiting out each delay as told: answers the waits. */
async function fail(client: Client, count: number): Promise<number[]> {
  const waits: number[] = [];
  for (let i = 0; i < count; i++) {
    let response = await login(client, `wrong ${i}`);
    if (response.statusCode === 429) {
      waits.push(retryAfterMs(response));
      t.clock.advance(retryAfterMs(response));
      response = await login(client, `wrong ${i}`);
    }
    expect(response.statusCode).toBe(401);
  }
  return waits;
}

describe('sign-in limits', () => {
  it('lets the owner in from another address at once after 9 wrong passwords from one', async () => {
    await fail(from('203.0.113.9'), 9);
    expect((await login(from('198.51.100.7'))).statusCode).toBe(200);
  });

  it('makes one address wait longer after each failure, the right password too, then lets it in', async () => {
    const attacker = from('203.0.113.9');
    const waits = await fail(attacker, 12);
    const { free } = LOGIN_LIMITS.perEmailAndAddress;
    expect(waits).toEqual(Array.from({ length: 12 - free - 1 }, (_, i) => 1000 * 2 ** i));

    const held = await login(attacker);
    expect(held.statusCode).toBe(429);
    expect(held.json()).toEqual({
      description: 'Too many sign-in attempts. Try again in 5 minutes.',
      retriable: true,
    });
    t.clock.advance(retryAfterMs(held) - 1000);
    expect((await login(attacker)).statusCode).toBe(429);
    t.clock.advance(1000);
    expect((await login(attacker)).statusCode).toBe(200);
  });

  it('keeps an owner out for a few seconds at most when many addresses guess the account', async () => {
    const usual = from('198.51.100.7');
    expect((await login(usual)).statusCode).toBe(200);
    for (let i = 0; i < 40; i++) {
      const response = await login(from(`203.0.113.${i + 1}`), `wrong ${i}`);
      expect([401, 429]).toContain(response.statusCode);
      t.clock.advance(200);
    }
    // Where the owner signed in before, no wait at all.
    expect((await login(usual)).statusCode).toBe(200);

    // Guessing from many addresses at once keeps argon2 off the event loop: the server answers.
    const during = await healthDuring(t.app, () =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) => login(from(`203.0.113.${i + 41}`), `wrong ${i + 40}`)),
      ),
    );
    expectKeptAnswering(during);
    const elsewhere = from('192.0.2.44');
    const held = await login(elsewhere);
    expect(held.statusCode).toBe(429);
    expect(retryAfterMs(held)).toBeLessThanOrEqual(LOGIN_LIMITS.perEmail.capMs);
    expect(held.json().description).toMatch(
      /^Too many sign-in attempts\. Try again in \d seconds?\.$/,
    );
    t.clock.advance(retryAfterMs(held));
    expect((await login(elsewhere)).statusCode).toBe(200);
  });

  it('limits each address across accounts, and signing in to its own account resets nothing', async () => {
    const { free } = LOGIN_LIMITS.perAddress;
    const guesser = from('203.0.113.9');
    await addUser(t.app, admin, { email: 'eve@example.com', password: 'eve password' });
    for (let i = 0; i <= free; i++) {
      const response = await guesser.post('/api/login', {
        email: `user${i}@example.com`,
        password: 'guess',
        remember: false,
      });
      expect(response.statusCode).toBe(401);
    }
    const own = await guesser.post('/api/login', {
      email: 'eve@example.com',
      password: 'eve password',
      remember: false,
    });
    expect(own.statusCode).toBe(429);
    expect(own.headers['retry-after']).toBe('1');
    t.clock.advance(MINUTE);
    expect(
      (
        await guesser.post('/api/login', {
          email: 'eve@example.com',
          password: 'eve password',
          remember: false,
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('password reset limits', () => {
  const reset = (client: Client, token: string, newPassword = 'brand new pw') =>
    client.put('/api/reset-password', { token, newPassword });

  it('refuses a bad token before spending any time hashing the new password', async () => {
    vi.mocked(hashPassword).mockClear();
    const response = await reset(from('203.0.113.9'), 'made-up');
    expect(response.statusCode).toBe(400);
    expect(hashPassword).not.toHaveBeenCalled();

    const { id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const { token } = await admin.call(api.users.createResetToken, { params: { id } });
    vi.mocked(hashPassword).mockClear();
    expect((await reset(from('203.0.113.9'), token)).statusCode).toBe(200);
    expect(hashPassword).toHaveBeenCalledTimes(1);
  });

  it('answers 429 to an address that keeps sending bad tokens, and not to others', async () => {
    const guesser = from('203.0.113.9');
    for (let i = 0; i <= RESET_LIMITS.perAddress.free; i++) {
      expect((await reset(guesser, `guess-${i}`)).statusCode).toBe(400);
    }
    const limited = await reset(guesser, 'guess-again');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.json()).toEqual({
      description: 'Too many password reset attempts. Try again in 1 second.',
      retriable: true,
    });

    const { id } = await addUser(t.app, admin, { email: 'ben@example.com' });
    const { token } = await admin.call(api.users.createResetToken, { params: { id } });
    expect((await reset(from('198.51.100.7'), token)).statusCode).toBe(200);
  });
});

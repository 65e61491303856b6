import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY } from '../platform/clock.js';
import type { Client } from '../testing/test-app.js';
import {
  ADMIN,
  addUser,
  setUpInstance,
  startTestApp,
  testLicense,
  type TestApp,
} from '../testing/test-app.js';
import { systemActor } from '../users/actor.js';
import { issueLicense } from './license-token.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  t = await startTestApp();
  admin = await setUpInstance(t.app);
});
afterEach(() => t.close());

describe('license', () => {
  it('starts UNLICENSED, becomes LICENSED on submit, and EXPIRED when its time passes', async () => {
    expect((await admin.get('/api/settings/license')).json()).toEqual({
      state: 'UNLICENSED',
      key: '',
      expiration_ts: 0,
    });
    await expect(t.services.license.requireLicense('upload datasets')).rejects.toThrow(
      'A valid license is required to upload datasets.',
    );
    // The gate asks who acts: the server itself (seeding the demo) is not gated, users are.
    await expect(
      t.services.license.requireLicense('upload datasets', { actor: systemActor('demo') }),
    ).resolves.toBeUndefined();

    const key = testLicense({ company: 'Acme', expiresInS: 10 * 86_400, nowMs: t.clock.now });
    const submitted = await admin.post('/api/settings/license', { key });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json()).toMatchObject({
      state: 'LICENSED',
      key,
      company_name: 'Acme',
      license_id: 'lic-test',
    });
    expect((await admin.get('/api/state')).json().license).toEqual({
      company_name: 'Acme',
      license_id: 'lic-test',
    });
    await expect(t.services.license.requireLicense('upload datasets')).resolves.toBeUndefined();

    t.clock.advance(11 * DAY);
    // The browser session ended after 24 hours: sign in again.
    await admin.post('/api/login', {
      email: ADMIN.email,
      password: ADMIN.password,
      remember: false,
    });
    expect((await admin.get('/api/settings/license')).json().state).toBe('EXPIRED');
    await expect(t.services.license.requireLicense('upload datasets')).rejects.toMatchObject({
      status: 403,
    });

    const renewed = await admin.put('/api/settings/license', {
      key: testLicense({ nowMs: t.clock.now }),
    });
    expect(renewed.json().state).toBe('LICENSED');
  });

  it('uses submit for the first key and resubmit after', async () => {
    const early = await admin.put('/api/settings/license', { key: testLicense() });
    expect(early.statusCode).toBe(409);
    await admin.post('/api/settings/license', { key: testLicense() });
    expect((await admin.post('/api/settings/license', { key: testLicense() })).statusCode).toBe(
      409,
    );
  });

  it('rejects a key signed by someone else, a malformed key and an expired key', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const forged = issueLicense(
      {
        license_id: 'x',
        company_name: 'Evil',
        expiration_ts: Math.floor(Date.now() / 1000) + 1000,
      },
      privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    );
    const responses = await Promise.all([
      admin.post('/api/settings/license', { key: forged }),
      admin.post('/api/settings/license', { key: 'not a key' }),
      admin.post('/api/settings/license', { key: testLicense({ expiresInS: -60 }) }),
      admin.post('/api/settings/license', { key: '' }),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual([400, 400, 400, 400]);
    expect(responses[0]!.json().description).toBe(
      'The license key is not valid: its signature does not match.',
    );
    expect(responses[1]!.json().description).toMatch(/malformed/);
    expect(responses[2]!.json().description).toMatch(
      /^This license key expired on \d{4}-\d{2}-\d{2}\./,
    );
    expect(responses[3]!.json().description).toBe('body.key: License key is required.');
    expect((await admin.get('/api/settings/license')).json().state).toBe('UNLICENSED');
  });

  it('lets members read the license but not submit one', async () => {
    const { client: ben } = await addUser(t.app, admin, { email: 'ben@example.com' });
    expect((await ben.get('/api/settings/license')).statusCode).toBe(200);
    const response = await ben.post('/api/settings/license', { key: testLicense() });
    expect(response.statusCode).toBe(403);
    expect(response.json().description).toBe(
      'You do not have permission to submit a license key. Please contact your administrator.',
    );
  });
});

import { generateKeyPairSync } from 'node:crypto';
import { api } from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY } from '../platform/clock.js';
import type { Client } from '../testing/test-app.js';
import {
  ADMIN,
  addUser,
  refused,
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

const license = (client = admin) => client.call(api.settings.license);
const submit = (key: string, client = admin) =>
  client.call(api.settings.submitLicense, { body: { key } });
const replace = (key: string) => admin.call(api.settings.replaceLicense, { body: { key } });

describe('license', () => {
  it('starts UNLICENSED, becomes LICENSED on submit, and EXPIRED when its time passes', async () => {
    expect(await license()).toEqual({
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
    expect(await submit(key)).toMatchObject({
      state: 'LICENSED',
      key,
      company_name: 'Acme',
      license_id: 'lic-test',
    });
    expect((await admin.call(api.state.get)).license).toEqual({
      company_name: 'Acme',
      license_id: 'lic-test',
    });
    await expect(t.services.license.requireLicense('upload datasets')).resolves.toBeUndefined();

    t.clock.advance(11 * DAY);
    // The browser session ended after 24 hours: sign in again.
    await admin.call(api.auth.login, { body: { email: ADMIN.email, password: ADMIN.password } });
    expect((await license()).state).toBe('EXPIRED');
    await expect(t.services.license.requireLicense('upload datasets')).rejects.toMatchObject({
      status: 403,
    });

    expect((await replace(testLicense({ nowMs: t.clock.now }))).state).toBe('LICENSED');
  });

  it('uses submit for the first key and resubmit after', async () => {
    await expect(replace(testLicense())).rejects.toMatchObject({ status: 409 });
    await submit(testLicense());
    await expect(submit(testLicense())).rejects.toMatchObject({ status: 409 });
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
    const errors = await Promise.all(
      [forged, 'not a key', testLicense({ expiresInS: -60 }), ''].map((key) =>
        refused(submit(key)),
      ),
    );
    expect(errors.map((e) => e.status)).toEqual([400, 400, 400, 400]);
    expect(errors[0]!.description).toBe(
      'The license key is not valid: its signature does not match.',
    );
    expect(errors[1]!.description).toMatch(/malformed/);
    expect(errors[2]!.description).toMatch(/^This license key expired on \d{4}-\d{2}-\d{2}\./);
    expect(errors[3]!.description).toBe('body.key: License key is required.');
    expect((await license()).state).toBe('UNLICENSED');
  });

  it('lets members read the license but not submit one', async () => {
    const { client: ben } = await addUser(t.app, admin, { email: 'ben@example.com' });
    expect((await license(ben)).state).toBe('UNLICENSED');
    const error = await refused(submit(testLicense(), ben));
    expect(error.status).toBe(403);
    expect(error.description).toBe(
      'You do not have permission to submit a license key. Please contact your administrator.',
    );
  });
});

import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { api } from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY } from '../platform/clock.js';
import type { Client } from '../testing/test-app.js';
import {
  refused,
  setUpInstance,
  startTestApp,
  testLicense,
  type TestApp,
} from '../testing/test-app.js';
import { startEvaluation } from './evaluation.js';
import { issueLicense } from './license-token.js';
import { ensureLocalIssuer, localIssuerFiles } from './local-issuer.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  t = await startTestApp();
  admin = await setUpInstance(t.app);
});
afterEach(() => t.close());

const evaluate = () => startEvaluation(t.services.license, t.config.dataDir, t.clock.read);
const submit = (key: string) => admin.call(api.settings.submitLicense, { body: { key } });

describe('evaluation license', () => {
  it('makes a local issuer once and installs a 30-day evaluation key that unlocks uploads', async () => {
    const upload = () =>
      admin.call(api.datasets.create, { body: { name: 'Mine', task_type: 'classification' } });
    const unlicensed = await refused(upload());
    expect(unlicensed.status).toBe(403);
    expect(unlicensed.description).toContain('npm run license -- evaluate');

    const first = await evaluate();
    expect(first).toMatchObject({ outcome: 'installed', issuerCreated: true });
    const files = localIssuerFiles(t.config.dataDir);
    expect(statSync(files.privateKey).mode & 0o777).toBe(0o600);
    const privateKey = readFileSync(files.privateKey, 'utf8');

    const license = await admin.call(api.settings.license);
    expect(license).toMatchObject({
      state: 'LICENSED',
      company_name: 'Evaluation',
      evaluation: true,
    });
    expect(license.expiration_ts).toBe(Math.floor((t.clock.now + 30 * DAY) / 1000));
    expect((await upload()).name).toBe('Mine');

    // Running it again (every `npm start -- --demo`) changes nothing and makes no second issuer.
    const second = await evaluate();
    expect(second.outcome).toBe('licensed');
    expect(second.license.key).toBe(license.key);
    expect(readFileSync(files.privateKey, 'utf8')).toBe(privateKey);
    expect(ensureLocalIssuer(t.config.dataDir)).toEqual({ privateKey, created: false });

    // When the 30 days are over, evaluating again does not extend them.
    t.clock.advance(31 * DAY);
    expect((await evaluate()).outcome).toBe('expired');
    expect((await t.services.license.get()).state).toBe('EXPIRED');
  });

  it('leaves a production license alone', async () => {
    await submit(testLicense({ nowMs: t.clock.now }));
    const result = await evaluate();
    expect(result.outcome).toBe('licensed');
    expect(result.license).toMatchObject({ company_name: 'Acme' });
    expect(result.license.evaluation).toBeUndefined();
  });

  it('trusts the local issuer for evaluation keys only, and no other issuer', async () => {
    const { privateKey } = ensureLocalIssuer(t.config.dataDir);
    const expiration_ts = Math.floor(t.clock.now / 1000) + 10 * 86_400;
    const production = issueLicense(
      { license_id: 'x', company_name: 'Self', expiration_ts },
      privateKey,
    );
    const selfIssued = await refused(submit(production));
    expect(selfIssued.status).toBe(400);
    expect(selfIssued.description).toBe(
      "The license key is not valid: this instance's local issuer signs evaluation licenses only.",
    );

    const elsewhere = join(t.config.dataDir, 'elsewhere');
    mkdirSync(elsewhere);
    const other = ensureLocalIssuer(elsewhere);
    expect(other.privateKey).not.toBe(privateKey);
    const foreign = issueLicense(
      { license_id: 'y', company_name: 'Evaluation', expiration_ts, evaluation: true },
      other.privateKey,
    );
    expect((await refused(submit(foreign))).description).toBe(
      'The license key is not valid: its signature does not match.',
    );

    const evaluation = issueLicense(
      { license_id: 'z', company_name: 'Evaluation', expiration_ts, evaluation: true },
      privateKey,
    );
    expect(await submit(evaluation)).toMatchObject({ state: 'LICENSED', evaluation: true });
  });
});

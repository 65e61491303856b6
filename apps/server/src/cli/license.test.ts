import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { licensePublicKey, readLicense } from '../license/license-token.js';

const cli = (...args: string[]) =>
  execFileSync(
    process.execPath,
    ['--conditions=loupe-src', '--import', 'tsx', join(import.meta.dirname, 'license.ts'), ...args],
    {
      encoding: 'utf8',
    },
  );

describe('npm run license', () => {
  it('keygen prints a key pair; issue prints a key alone that verifies with the public key', () => {
    const pair = JSON.parse(cli('keygen')) as { publicKey: string; privateKey: string };
    expect(pair.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(pair.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const file = join(mkdtempSync(join(tmpdir(), 'loupe-lic-')), 'pair.json');
    writeFileSync(file, JSON.stringify(pair));

    const out = cli('issue', '--private-key', file, '--company', 'Acme Inc.', '--days', '30');
    expect(out.trim().split('\n')).toHaveLength(1);
    const check = readLicense(out.trim(), licensePublicKey(pair.publicKey));
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.payload.company_name).toBe('Acme Inc.');
    const days = (check.payload.expiration_ts - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    // The built-in issuer key does not accept a self-issued license.
    expect(readLicense(out.trim(), licensePublicKey(undefined)).ok).toBe(false);
  });

  it('exits 2 with usage on bad arguments', () => {
    expect(() => cli('issue', '--company', 'x', '--days', '3')).toThrow(
      /--private-key is required/,
    );
    expect(() => cli('frobnicate')).toThrow(/Unknown command 'frobnicate'/);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { createRepositories } from '../repositories.js';
import { licensePublicKey, readLicense } from '../license/license-token.js';
import { localIssuerFiles, localIssuerPublicKey } from '../license/local-issuer.js';

const cli = (...args: string[]) =>
  execFileSync(
    process.execPath,
    ['--conditions=loupe-src', '--import', 'tsx', join(import.meta.dirname, 'license.ts'), ...args],
    {
      encoding: 'utf8',
    },
  );

/** `evaluate` on a fresh SQLite instance in its own data directory. */
const evaluateIn = (dataDir: string) =>
  execFileSync(
    process.execPath,
    [
      '--conditions=loupe-src',
      '--import',
      'tsx',
      join(import.meta.dirname, 'license.ts'),
      'evaluate',
    ],
    {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, LOUPE_DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
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

  it('evaluate makes the local issuer once and installs a 30-day evaluation key', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'loupe-eval-'));
    expect(evaluateIn(dataDir)).toMatch(
      /^Installed a 30-day evaluation license \(until \d{4}-\d{2}-\d{2}\): uploads work now\.\n$/,
    );
    const files = localIssuerFiles(dataDir);
    expect(statSync(files.privateKey).mode & 0o777).toBe(0o600);
    const issuer = readFileSync(files.privateKey, 'utf8');

    const database = openDatabase({ kind: 'sqlite', path: join(dataDir, 'loupe.db') });
    try {
      const key = await createRepositories(database.db, database.dialect).settings.get(
        'license_key',
      );
      const check = readLicense(key ?? '', localIssuerPublicKey(dataDir)!);
      expect(check.ok && check.payload).toMatchObject({
        company_name: 'Evaluation',
        evaluation: true,
      });
      const days = ((check.ok ? check.payload.expiration_ts : 0) - Date.now() / 1000) / 86_400;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
    } finally {
      await database.destroy();
    }

    expect(evaluateIn(dataDir)).toMatch(/^The evaluation license is already installed/);
    expect(readFileSync(files.privateKey, 'utf8')).toBe(issuer);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('exits 2 with usage on bad arguments', () => {
    expect(() => cli('issue', '--company', 'x', '--days', '3')).toThrow(
      /--private-key is required/,
    );
    expect(() => cli('frobnicate')).toThrow(/Unknown command 'frobnicate'/);
  });
});

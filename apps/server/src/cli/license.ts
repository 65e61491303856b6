// `npm run license -- evaluate` installs a 30-day evaluation license into the instance of this
// environment (LOUPE_DATA_DIR, DATABASE_URL), server running or not.
// `npm run license -- keygen` prints a new Ed25519 key pair as JSON;
// `npm run license -- issue --private-key FILE --company NAME --days N [--id ID]` prints a
// license key alone on stdout. For self-issuers and tests (LOUPE_LICENSE_PUBLIC_KEY).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ensureDataDir, loadConfig } from '../config.js';
import { migrateToLatest, openDatabase } from '../db/database.js';
import { describeEvaluation, startEvaluation } from '../license/evaluation.js';
import {
  generateLicenseKeyPair,
  issueLicense,
  licensePublicKey,
} from '../license/license-token.js';
import { LicenseService } from '../license/license.service.js';
import { localIssuerPublicKey } from '../license/local-issuer.js';
import { systemClock } from '../platform/clock.js';
import { SettingsRepository } from '../settings/settings.repository.js';

const USAGE = `usage:
  npm run license -- evaluate
  npm run license -- keygen
  npm run license -- issue --private-key FILE --company NAME --days N [--id LICENSE_ID]`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

/** Exit code 0 when the instance is licensed afterwards, 1 when its license has expired. */
async function evaluate(): Promise<number> {
  const config = loadConfig();
  ensureDataDir(config);
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database);
    const license = new LicenseService(
      new SettingsRepository(database.db),
      licensePublicKey(config.licensePublicKey),
      systemClock,
      () => localIssuerPublicKey(config.dataDir),
    );
    const result = await startEvaluation(license, config.dataDir, systemClock);
    (result.outcome === 'expired' ? process.stderr : process.stdout).write(
      `${describeEvaluation(result)}\n`,
    );
    return result.outcome === 'expired' ? 1 : 0;
  } finally {
    await database.destroy();
  }
}

export function runLicenseCli(argv: string[]): void {
  const [command, ...rest] = argv;
  if (command === 'evaluate') {
    if (rest.length > 0) fail('evaluate takes no options.');
    evaluate().then(
      (code) => process.exit(code),
      (error: unknown) => fail(error instanceof Error ? error.message : String(error)),
    );
    return;
  }
  if (command === 'keygen') {
    process.stdout.write(`${JSON.stringify(generateLicenseKeyPair())}\n`);
    return;
  }
  if (command !== 'issue') fail(command ? `Unknown command '${command}'.` : 'Missing command.');
  const { values } = parseArgs({
    args: rest,
    options: {
      'private-key': { type: 'string' },
      company: { type: 'string' },
      days: { type: 'string' },
      id: { type: 'string' },
    },
    strict: true,
  });
  if (!values['private-key']) fail('--private-key is required.');
  if (values.company === undefined) fail('--company is required.');
  const days = Number(values.days);
  if (!values.days || !Number.isFinite(days) || days <= 0)
    fail('--days must be a positive number.');
  let privateKey: string;
  try {
    privateKey = readFileSync(values['private-key'], 'utf8');
  } catch {
    fail(`Cannot read the private key file ${values['private-key']}.`);
  }
  // keygen prints JSON; accept that file as it is, or a bare PEM.
  if (privateKey.trim().startsWith('{'))
    privateKey = (JSON.parse(privateKey) as { privateKey: string }).privateKey;
  const key = issueLicense(
    {
      license_id: values.id ?? randomUUID(),
      company_name: values.company,
      expiration_ts: Math.floor(Date.now() / 1000 + days * 86_400),
    },
    privateKey,
  );
  process.stdout.write(`${key}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    runLicenseCli(process.argv.slice(2));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

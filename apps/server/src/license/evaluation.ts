// The evaluation license: 30 days, signed by the local issuer, installed when the instance has
// no license. Shared by `npm run license -- evaluate` and `npm start -- --evaluation` / `--demo`.
import { randomUUID } from 'node:crypto';
import type { License } from '@loupe/contracts';
import { DAY, type Clock } from '../platform/clock.js';
import { issueLicense } from './license-token.js';
import type { LicenseService } from './license.service.js';
import { ensureLocalIssuer } from './local-issuer.js';

export const EVALUATION_DAYS = 30;
export const EVALUATION_COMPANY = 'Evaluation';

export type EvaluationOutcome =
  | { outcome: 'installed'; license: License; issuerCreated: boolean }
  /** A license is in force already: nothing changed. */
  | { outcome: 'licensed'; license: License }
  /** The license (evaluation or not) has expired: an evaluation does not extend it. */
  | { outcome: 'expired'; license: License };

export async function startEvaluation(
  license: LicenseService,
  dataDir: string,
  clock: Clock,
): Promise<EvaluationOutcome> {
  const current = await license.get();
  if (current.state === 'LICENSED') return { outcome: 'licensed', license: current };
  if (current.state === 'EXPIRED') return { outcome: 'expired', license: current };
  const { privateKey, created } = ensureLocalIssuer(dataDir);
  const key = issueLicense(
    {
      license_id: `evaluation-${randomUUID()}`,
      company_name: EVALUATION_COMPANY,
      expiration_ts: Math.floor((clock() + EVALUATION_DAYS * DAY) / 1000),
      evaluation: true,
    },
    privateKey,
  );
  return { outcome: 'installed', license: await license.install(key), issuerCreated: created };
}

/** One line for the terminal about what happened. */
export function describeEvaluation(result: EvaluationOutcome): string {
  const date = new Date(result.license.expiration_ts * 1000).toISOString().slice(0, 10);
  switch (result.outcome) {
    case 'installed':
      return `Installed a ${EVALUATION_DAYS}-day evaluation license (until ${date}): uploads work now.`;
    case 'licensed':
      return result.license.evaluation
        ? `The evaluation license is already installed (until ${date}); nothing changed.`
        : `This instance is already licensed to ${result.license.company_name || 'unlicensed'} (until ${date}); nothing changed.`;
    case 'expired':
      return `The license expired on ${date}; an evaluation does not extend it. Enter a current license key in Settings → License.`;
  }
}

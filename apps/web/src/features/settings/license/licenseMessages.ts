// What the License page says, by license state and admin rights (docs/product.md, Shell §4, §6).
import type { License } from '@loupe/contracts';
import { settingsStrings } from '../strings';

const strings = settingsStrings.license;

export function formatLicenseDate(seconds: number): string {
  return new Date(seconds * 1000).toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
}

/** 'Evaluation — 29 days left' for an evaluation license in force, else undefined. */
export function evaluationTag(
  license: Pick<License, 'state' | 'expiration_ts' | 'evaluation'>,
  nowMs = Date.now(),
): string | undefined {
  if (license.state !== 'LICENSED' || !license.evaluation) return undefined;
  const days = Math.max(1, Math.ceil((license.expiration_ts * 1000 - nowMs) / 86_400_000));
  return strings.evaluationTag(days);
}

export function licenseMessage(
  license: Pick<License, 'state' | 'expiration_ts' | 'company_name' | 'evaluation'>,
  admin: boolean,
): { type: 'success' | 'warning' | 'error'; text: string } {
  const date = formatLicenseDate(license.expiration_ts);
  switch (license.state) {
    case 'LICENSED':
      if (license.evaluation) return { type: 'warning', text: strings.evaluationText(date) };
      return {
        type: 'success',
        text: strings.licensedText(license.company_name || strings.unlicensedCompany, date),
      };
    case 'EXPIRED':
      return {
        type: 'error',
        text: admin ? strings.expiredAdmin(date) : strings.expiredMember(date),
      };
    case 'UNLICENSED':
      return { type: 'warning', text: admin ? strings.unlicensedAdmin : strings.unlicensedMember };
  }
}

/** Submit when unlicensed; resubmit when expired or licensed (docs/product.md, Shell §4). */
export function submitLabel(state: License['state']): string {
  return state === 'UNLICENSED' ? strings.submit : strings.resubmit;
}

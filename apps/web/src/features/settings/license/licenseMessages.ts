// What the License page says, by license state and admin rights (shell.md §4, §6).
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

export function licenseMessage(
  license: Pick<License, 'state' | 'expiration_ts' | 'company_name'>,
  admin: boolean,
): { type: 'success' | 'warning' | 'error'; text: string } {
  const date = formatLicenseDate(license.expiration_ts);
  switch (license.state) {
    case 'LICENSED':
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

/** Submit when unlicensed; resubmit when expired or licensed (shell.md §4). */
export function submitLabel(state: License['state']): string {
  return state === 'UNLICENSED' ? strings.submit : strings.resubmit;
}

import { expect, test } from 'vitest';
import { licenseMessage, submitLabel } from './licenseMessages';

const in2030 = Date.UTC(2030, 0, 15) / 1000;

test('submit when unlicensed, resubmit when expired or licensed', () => {
  expect(submitLabel('UNLICENSED')).toBe('Submit');
  expect(submitLabel('EXPIRED')).toBe('Resubmit');
  expect(submitLabel('LICENSED')).toBe('Resubmit');
});

test('messages depend on the state and on admin rights', () => {
  const licensed = { state: 'LICENSED' as const, expiration_ts: in2030, company_name: 'Acme' };
  expect(licenseMessage(licensed, false).text).toMatch(/^This instance is licensed to Acme until /);
  expect(licenseMessage({ ...licensed, company_name: '' }, true).text).toMatch(
    /licensed to unlicensed/,
  );
  const expired = { state: 'EXPIRED' as const, expiration_ts: in2030 };
  expect(licenseMessage(expired, true).text).toMatch(/submit a new license key/);
  expect(licenseMessage(expired, false).text).toMatch(/contact your instance administrator/);
  const none = { state: 'UNLICENSED' as const, expiration_ts: 0 };
  expect(licenseMessage(none, true)).toMatchObject({ type: 'warning' });
  expect(licenseMessage(none, true).text).toMatch(/Submit a license key/);
  expect(licenseMessage(none, false).text).toMatch(/contact your instance administrator/);
});

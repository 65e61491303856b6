// The instance license: state, submission, and the guard that licensed features call.
import type { KeyObject } from 'node:crypto';
import type { License } from '@loupe/contracts';
import type { Repositories } from '../db/repositories.js';
import { BadRequest, Conflict, Forbidden } from '../http/errors.js';
import type { Clock } from '../platform/clock.js';
import { denied, requireAdmin } from '../users/authorize.js';
import type { UserRow } from '../users/users.repository.js';
import { readLicense, type LicenseCheck } from './license-token.js';

export const licenseMessages = {
  required: (action: string) =>
    `A valid license is required to ${action}. An administrator can enter a license key in Settings → License.`,
  expiredRequired: (action: string) =>
    `The license has expired: renew it in Settings → License to ${action}.`,
  alreadyLicensed: 'A license key is already set: resubmit it (PUT) to replace it.',
  notYetLicensed: 'No license key is set yet: submit one (POST) first.',
  expiredKey: (date: string) => `This license key expired on ${date}. Enter a current key.`,
} as const;

export class LicenseService {
  /** The last stored key and its check: every upload asks, and an Ed25519 verify per request costs. */
  private verified: { key: string; check: LicenseCheck } | undefined;

  constructor(
    private readonly repos: Repositories,
    private readonly publicKey: KeyObject,
    private readonly clock: Clock,
  ) {}

  async get(): Promise<License> {
    const key = await this.repos.settings.get('license_key');
    if (!key) return { state: 'UNLICENSED', key: '', expiration_ts: 0 };
    if (this.verified?.key !== key)
      this.verified = { key, check: readLicense(key, this.publicKey) };
    const { check } = this.verified;
    // A stored key that no longer verifies (the public key changed) counts as no license.
    if (!check.ok) return { state: 'UNLICENSED', key, expiration_ts: 0 };
    const { payload } = check;
    const expired = payload.expiration_ts * 1000 <= this.clock();
    return {
      state: expired ? 'EXPIRED' : 'LICENSED',
      key,
      expiration_ts: payload.expiration_ts,
      company_name: payload.company_name,
      license_id: payload.license_id,
    };
  }

  /** `submit` sets the first key; `resubmit` replaces one (after expiry or for a renewal). */
  async submit(actor: UserRow, key: string, mode: 'submit' | 'resubmit'): Promise<License> {
    requireAdmin(actor, denied.submitLicense);
    const current = await this.get();
    if (mode === 'submit' && current.state !== 'UNLICENSED')
      throw new Conflict(licenseMessages.alreadyLicensed);
    if (mode === 'resubmit' && current.key === '')
      throw new Conflict(licenseMessages.notYetLicensed);
    const check = readLicense(key, this.publicKey);
    if (!check.ok) throw new BadRequest(check.reason);
    if (check.payload.expiration_ts * 1000 <= this.clock()) {
      const date = new Date(check.payload.expiration_ts * 1000).toISOString().slice(0, 10);
      throw new BadRequest(licenseMessages.expiredKey(date));
    }
    await this.repos.settings.set('license_key', key.trim());
    return this.get();
  }

  /** The guard licensed features call: 403 naming the action unless the instance is licensed. */
  async requireLicense(action: string): Promise<void> {
    const { state } = await this.get();
    if (state === 'LICENSED') return;
    throw new Forbidden(
      state === 'EXPIRED'
        ? licenseMessages.expiredRequired(action)
        : licenseMessages.required(action),
    );
  }
}

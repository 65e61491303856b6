// The instance license: state, submission, and the guard that licensed features call.
import type { KeyObject } from 'node:crypto';
import type { License } from '@loupe/contracts';
import type { Clock } from '../platform/clock.js';
import { BadRequest, Conflict, Forbidden } from '../platform/errors.js';
import type { Actor } from '../users/actor.js';
import { denied, requireAdmin } from '../users/authorize.js';
import { readLicense, type LicenseCheck } from './license-token.js';

/** Where the key is kept (the instance settings). */
export interface LicenseStore {
  get(key: 'license_key'): Promise<string | undefined>;
  set(key: 'license_key', value: string): Promise<void>;
}

export const licenseMessages = {
  required: (action: string) =>
    `A valid license is required to ${action}. An administrator can enter a license key in Settings → License.`,
  /** Appended to the 403s of an instance without any license (README.md, License). */
  evaluateHint:
    'To evaluate Loupe for 30 days, run `npm run license -- evaluate` where the server runs.',
  localIssuerNotEvaluation:
    "The license key is not valid: this instance's local issuer signs evaluation licenses only.",
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
    private readonly settings: LicenseStore,
    private readonly publicKey: KeyObject,
    private readonly clock: Clock,
    /** The local evaluation issuer's key (license/local-issuer.ts), read when a new key is checked. */
    private readonly localIssuer: () => KeyObject | undefined = () => undefined,
  ) {}

  /**
   * The issuer's key verifies any license; the local issuer's only evaluation licenses, so a
   * production-looking key still needs the issuer (or LOUPE_LICENSE_PUBLIC_KEY).
   */
  private check(key: string): LicenseCheck {
    const issued = readLicense(key, this.publicKey);
    if (issued.ok) return issued;
    const local = this.localIssuer();
    const evaluation = local ? readLicense(key, local) : undefined;
    if (!evaluation?.ok) return issued;
    if (!evaluation.payload.evaluation)
      return { ok: false, reason: licenseMessages.localIssuerNotEvaluation };
    return evaluation;
  }

  async get(): Promise<License> {
    const key = await this.settings.get('license_key');
    if (!key) return { state: 'UNLICENSED', key: '', expiration_ts: 0 };
    if (this.verified?.key !== key) this.verified = { key, check: this.check(key) };
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
      ...(payload.evaluation ? { evaluation: true } : {}),
    };
  }

  /** `submit` sets the first key; `resubmit` replaces one (after expiry or for a renewal). */
  async submit(actor: Actor, key: string, mode: 'submit' | 'resubmit'): Promise<License> {
    requireAdmin(actor, denied.submitLicense);
    const current = await this.get();
    if (mode === 'submit' && current.state !== 'UNLICENSED')
      throw new Conflict(licenseMessages.alreadyLicensed);
    if (mode === 'resubmit' && current.key === '')
      throw new Conflict(licenseMessages.notYetLicensed);
    return this.install(key);
  }

  /**
   * Checks and stores a key: the end of `submit`, and all of an evaluation's install
   * (license/evaluation.ts), which runs from the command line where there is no user.
   */
  async install(key: string): Promise<License> {
    const check = this.check(key.trim());
    if (!check.ok) throw new BadRequest(check.reason);
    if (check.payload.expiration_ts * 1000 <= this.clock()) {
      const date = new Date(check.payload.expiration_ts * 1000).toISOString().slice(0, 10);
      throw new BadRequest(licenseMessages.expiredKey(date));
    }
    await this.settings.set('license_key', key.trim());
    return this.get();
  }

  /**
   * The guard licensed features call: 403 naming the action unless the instance is licensed.
   * It asks who acts: the server itself (a system actor, seeding the demo) is not gated.
   * `message` replaces the text where the product has its own; an instance that never had a
   * license also hears how to start an evaluation.
   */
  async requireLicense(
    action: string,
    options: { actor?: Actor; message?: string } = {},
  ): Promise<void> {
    const { actor, message } = options;
    if (actor?.kind === 'system') return;
    const { state } = await this.get();
    if (state === 'LICENSED') return;
    if (state === 'EXPIRED')
      throw new Forbidden(message ?? licenseMessages.expiredRequired(action));
    throw new Forbidden(
      `${message ?? licenseMessages.required(action)} ${licenseMessages.evaluateHint}`,
    );
  }
}

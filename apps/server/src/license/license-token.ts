// License keys: base64url(JSON payload) + "." + base64url(Ed25519 signature over the first
// segment's ASCII bytes). The issuer holds the private key; instances verify with the public key.
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { LicensePayload } from '@loupe/contracts';

/** The issuer's public key built into every instance; LOUPE_LICENSE_PUBLIC_KEY overrides it. */
export const BUILT_IN_LICENSE_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEA5FBFbHd+iZ+B5axz+8HoHF3L04hyGvm4oih0ywc1Obk=
-----END PUBLIC KEY-----
`;

export function licensePublicKey(pem: string | undefined): KeyObject {
  const key = createPublicKey(pem ?? BUILT_IN_LICENSE_PUBLIC_KEY);
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error('The license public key must be an Ed25519 key');
  return key;
}

export function generateLicenseKeyPair(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export function issueLicense(payload: LicensePayload, privateKeyPem: string): string {
  const body = Buffer.from(JSON.stringify(LicensePayload.parse(payload))).toString('base64url');
  const signature = sign(null, Buffer.from(body), createPrivateKey(privateKeyPem));
  return `${body}.${signature.toString('base64url')}`;
}

export type LicenseCheck = { ok: true; payload: LicensePayload } | { ok: false; reason: string };

/** Checks the signature and shape; expiry is the caller's concern (an expired key is still genuine). */
export function readLicense(key: string, publicKey: KeyObject): LicenseCheck {
  const [body, signature, extra] = key.trim().split('.');
  if (!body || !signature || extra !== undefined) {
    return { ok: false, reason: 'The license key is malformed: expected two dot-separated parts.' };
  }
  let genuine: boolean;
  try {
    genuine = verify(null, Buffer.from(body), publicKey, Buffer.from(signature, 'base64url'));
  } catch {
    genuine = false;
  }
  if (!genuine)
    return { ok: false, reason: 'The license key is not valid: its signature does not match.' };
  try {
    const payload = LicensePayload.safeParse(
      JSON.parse(Buffer.from(body, 'base64url').toString('utf8')),
    );
    if (payload.success) return { ok: true, payload: payload.data };
  } catch {
    // fall through
  }
  return { ok: false, reason: 'The license key is not valid: its contents cannot be read.' };
}

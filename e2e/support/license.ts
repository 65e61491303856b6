// A throwaway Ed25519 key pair and license keys signed with it, for journeys that license the
// instance: base64url(payload) + "." + base64url(signature over the first segment's bytes).
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export interface LicenseIssuer {
  publicKeyPem: string;
  issue: (payload: { license_id: string; company_name: string; expiration_ts: number }) => string;
}

export function createLicenseIssuer(): LicenseIssuer {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    issue: (payload) => signLicense(payload, privateKey),
  };
}

function signLicense(payload: object, privateKey: KeyObject): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signature = sign(null, Buffer.from(body), privateKey).toString('base64url');
  return `${body}.${signature}`;
}

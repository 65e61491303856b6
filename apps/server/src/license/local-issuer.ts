// The local evaluation issuer: an Ed25519 key pair in the data directory that
// `npm run license -- evaluate` creates, so an instance can license itself for an evaluation.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateLicenseKeyPair } from './license-token.js';

export function localIssuerFiles(dataDir: string): { privateKey: string; publicKey: string } {
  return {
    privateKey: join(dataDir, 'license-issuer.key'),
    publicKey: join(dataDir, 'license-issuer.pub'),
  };
}

/** The local issuer's private key (PEM), made once: later calls reuse the files. */
export function ensureLocalIssuer(dataDir: string): { privateKey: string; created: boolean } {
  const files = localIssuerFiles(dataDir);
  let privateKey: string;
  let created = false;
  try {
    privateKey = readFileSync(files.privateKey, 'utf8');
  } catch {
    const pair = generateLicenseKeyPair();
    try {
      // 'wx': of two commands racing, the second keeps the first one's key.
      writeFileSync(files.privateKey, pair.privateKey, { mode: 0o600, flag: 'wx' });
      created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    privateKey = readFileSync(files.privateKey, 'utf8');
  }
  // The public half is what the server reads; rewrite it whenever it is missing or stale.
  const publicKey = createPublicKey(createPrivateKey(privateKey))
    .export({ type: 'spki', format: 'pem' })
    .toString();
  if (readOptional(files.publicKey) !== publicKey) writeFileSync(files.publicKey, publicKey);
  return { privateKey, created };
}

/** The local issuer's public key, when `evaluate` has made one and it is a usable Ed25519 key. */
export function localIssuerPublicKey(dataDir: string): KeyObject | undefined {
  const pem = readOptional(localIssuerFiles(dataDir).publicKey);
  if (!pem) return undefined;
  try {
    const key = createPublicKey(pem);
    return key.asymmetricKeyType === 'ed25519' ? key : undefined;
  } catch {
    return undefined;
  }
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

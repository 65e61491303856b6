// Encrypts secrets at rest (API keys, integration credentials) with AES-256-GCM under the
// instance secret: LOUPE_SECRET_KEY, or a key generated once into the data directory.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    // Any length of secret becomes a 256-bit key.
    this.key = createHash('sha256').update(secret).digest();
  }

  /** Reads LOUPE_SECRET_KEY, or the data directory's key file, creating it on first start. */
  static fromConfig(secret: string | undefined, dataDir: string): SecretBox {
    if (secret) return new SecretBox(secret);
    const file = join(dataDir, 'secret.key');
    if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
    return new SecretBox(readFileSync(file, 'utf8').trim());
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unreadable secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}

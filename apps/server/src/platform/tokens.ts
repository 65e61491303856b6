// Random tokens and their stored digests: the database keeps only SHA-256 of session, reset and
// API-key tokens, so a leaked database does not hand out sign-ins.
import { createHash, randomBytes } from 'node:crypto';

export function newToken(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

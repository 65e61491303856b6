// Password hashing with argon2id (OWASP's recommended parameters).
import { hash, verify, type Algorithm } from '@node-rs/argon2';

// Algorithm is an ambient const enum; 2 is its Argon2id member.
const ARGON2ID = 2 as Algorithm;
const options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

// Compared against when the email is unknown, so a miss costs as long as a wrong password.
let decoy: Promise<string> | undefined;

export async function verifyPassword(
  passwordHash: string | null,
  password: string,
): Promise<boolean> {
  if (!passwordHash) {
    decoy ??= hashPassword('decoy password that matches nothing');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

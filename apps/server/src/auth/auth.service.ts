// Signing in and out, sessions, API-key authentication, password change and reset.
import { randomUUID } from 'node:crypto';
import { messages } from '@loupe/contracts';
import type { Repositories, Transact } from '../db/repositories.js';
import { BadRequest, Forbidden, TooManyRequests, Unauthorized } from '../http/errors.js';
import { DAY, HOUR, type Clock } from '../platform/clock.js';
import type { SecretBox } from '../platform/secret-box.js';
import { digest, newToken } from '../platform/tokens.js';
import type { UserRow } from '../users/users.repository.js';
import type { LoginLimiter } from './login-limiter.js';
import { hashPassword, verifyPassword } from './passwords.js';

export const REMEMBERED_SESSION_MS = 30 * DAY;
export const BROWSER_SESSION_MS = 24 * HOUR;
export const DEVELOPMENT_KEY_NAME = 'Development';

export const authMessages = {
  incorrect: 'Incorrect email or password',
  wrongCurrentPassword: 'Current password is incorrect.',
  externallyManaged: 'This account is managed by an external provider: change its password there.',
  invalidResetToken:
    'This password reset link is invalid, was already used, or has expired. Ask an administrator for a new one.',
  tooManyAttempts: (minutes: number) =>
    `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
} as const;

export interface StartedSession {
  token: string;
  remember: boolean;
  expiresAt: number;
}

export class AuthService {
  constructor(
    private readonly repos: Repositories,
    private readonly transact: Transact,
    private readonly clock: Clock,
    private readonly limiter: LoginLimiter,
    private readonly secrets: SecretBox,
  ) {}

  async startSession(
    userId: string,
    remember: boolean,
    repos = this.repos,
  ): Promise<StartedSession> {
    const token = newToken();
    const now = this.clock();
    const expiresAt = now + (remember ? REMEMBERED_SESSION_MS : BROWSER_SESSION_MS);
    await repos.sessions.insert({
      id: digest(token),
      user_id: userId,
      remember: remember ? 1 : 0,
      created_at: now,
      expires_at: expiresAt,
    });
    return { token, remember, expiresAt };
  }

  /** Every failure answers the same 401, so nobody learns which emails have accounts. */
  async login(
    input: { email: string; password: string; remember: boolean },
    address: string,
  ): Promise<{ user: UserRow; session: StartedSession }> {
    const email = input.email.trim().toLowerCase();
    const now = this.clock();
    const wait = this.limiter.attempt(address, email, now);
    if (wait > 0) throw new TooManyRequests(authMessages.tooManyAttempts(Math.ceil(wait / 60_000)));
    const user = await this.repos.users.findByEmail(email);
    const matches = await verifyPassword(
      user?.auth_type === 'local' ? user.password_hash : null,
      input.password,
    );
    if (!user || !matches || user.enabled !== 1) {
      this.limiter.failed(email, now);
      throw new Unauthorized(authMessages.incorrect);
    }
    this.limiter.succeeded(email);
    await this.repos.sessions.deleteExpired(now);
    return { user, session: await this.startSession(user.id, input.remember) };
  }

  async logout(token: string | undefined): Promise<void> {
    if (token) await this.repos.sessions.delete(digest(token));
  }

  /** The enabled user a session cookie belongs to, if any. */
  async userForSession(token: string): Promise<UserRow | undefined> {
    const user = await this.repos.sessions.findUser(digest(token), this.clock());
    return user?.enabled === 1 ? user : undefined;
  }

  /** The enabled user an API key belongs to, if any. */
  async userForApiKey(key: string): Promise<UserRow | undefined> {
    const user = await this.repos.apiKeys.findUserByKeyHash(digest(key));
    return user?.enabled === 1 ? user : undefined;
  }

  /** The actor's 'Development' key, created on first read. */
  async developmentKey(actor: UserRow): Promise<{ name: string; api_key: string }> {
    let row = await this.repos.apiKeys.findByUserAndName(actor.id, DEVELOPMENT_KEY_NAME);
    if (!row) {
      const key = newToken('lp_');
      await this.repos.apiKeys.insertIfAbsent({
        id: randomUUID(),
        user_id: actor.id,
        name: DEVELOPMENT_KEY_NAME,
        key_hash: digest(key),
        key_ciphertext: this.secrets.seal(key),
        created_at: this.clock(),
      });
      row = await this.repos.apiKeys.findByUserAndName(actor.id, DEVELOPMENT_KEY_NAME);
    }
    return { name: DEVELOPMENT_KEY_NAME, api_key: this.secrets.open(row!.key_ciphertext) };
  }

  /** Changes the actor's password and ends their other sessions. */
  async changePassword(
    actor: UserRow,
    currentSessionToken: string | undefined,
    input: { oldPassword: string; newPassword: string },
  ): Promise<void> {
    if (actor.auth_type !== 'local') throw new Forbidden(authMessages.externallyManaged);
    if (!(await verifyPassword(actor.password_hash, input.oldPassword))) {
      throw new BadRequest(authMessages.wrongCurrentPassword);
    }
    const passwordHash = await hashPassword(input.newPassword);
    await this.transact(async (repos) => {
      await repos.users.update(actor.id, { password_hash: passwordHash }, this.clock());
      await repos.sessions.deleteForUser(
        actor.id,
        currentSessionToken ? digest(currentSessionToken) : undefined,
      );
    });
  }

  /** Redeems a single-use reset token; all the user's sessions end. */
  async resetPassword(input: { token: string; newPassword: string }): Promise<void> {
    if (input.newPassword.length < 8) throw new BadRequest(messages.newPasswordTooShort);
    const passwordHash = await hashPassword(input.newPassword);
    const now = this.clock();
    await this.transact(async (repos) => {
      const tokenHash = digest(input.token);
      const row = await repos.resetTokens.find(tokenHash);
      if (!row || row.used_at !== null || row.expires_at <= now) {
        throw new BadRequest(authMessages.invalidResetToken);
      }
      const user = await repos.users.findById(row.user_id);
      if (!user || user.enabled !== 1 || user.auth_type !== 'local') {
        throw new BadRequest(authMessages.invalidResetToken);
      }
      if (!(await repos.resetTokens.markUsed(tokenHash, now))) {
        throw new BadRequest(authMessages.invalidResetToken);
      }
      await repos.users.update(user.id, { password_hash: passwordHash }, now);
      await repos.sessions.deleteForUser(user.id);
    });
  }
}

// Signing in and out, sessions, API-key authentication, password change and reset.
import { messages } from '@loupe/contracts';
import type { ApiKeysRepository } from '../api-keys/api-keys.repository.js';
import type { Transact } from '../db/transact.js';
import { DAY, HOUR, MINUTE, type Clock } from '../platform/clock.js';
import { BadRequest, Forbidden, TooManyRequests, Unauthorized } from '../platform/errors.js';
import { digest, newToken } from '../platform/tokens.js';
import { apiKeyActor, requireUser, userActor, type Actor } from '../users/actor.js';
import type { UserRecord, UsersRepository } from '../users/users.repository.js';
import type { LoginLimiter, ResetLimiter } from './login-limiter.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { SessionCache } from './session-cache.js';
import type { ResetTokensRepository, SessionsRepository } from './sessions.repository.js';

export const REMEMBERED_SESSION_MS = 30 * DAY;
export const BROWSER_SESSION_MS = 24 * HOUR;
/** An API key's last use is written at most this often, not on every request. */
export const API_KEY_USE_RESOLUTION_MS = MINUTE;

/** "N seconds" under a minute, else whole minutes rounded up. */
function waitText(waitMs: number): string {
  if (waitMs < MINUTE) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    return `${seconds} second${seconds === 1 ? '' : 's'}`;
  }
  const minutes = Math.ceil(waitMs / MINUTE);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export const authMessages = {
  incorrect: 'Incorrect email or password',
  wrongCurrentPassword: 'Current password is incorrect.',
  externallyManaged: 'This account is managed by an external provider: change its password there.',
  invalidResetToken:
    'This password reset link is invalid, was already used, or has expired. Ask an administrator for a new one.',
  tooManyAttempts: (waitMs: number) =>
    `Too many sign-in attempts. Try again in ${waitText(waitMs)}.`,
  tooManyResetAttempts: (waitMs: number) =>
    `Too many password reset attempts. Try again in ${waitText(waitMs)}.`,
} as const;

export interface StartedSession {
  token: string;
  remember: boolean;
  expiresAt: number;
}

/** What signing in and out needs of the database. */
export interface AuthRepos {
  users: Pick<UsersRepository, 'findByEmail' | 'findById' | 'update'>;
  sessions: SessionsRepository;
  resetTokens: ResetTokensRepository;
  apiKeys: Pick<ApiKeysRepository, 'findByKeyHash' | 'touch' | 'deleteForUser'>;
}

export class AuthService {
  constructor(
    private readonly repos: AuthRepos,
    private readonly transact: Transact<AuthRepos>,
    private readonly clock: Clock,
    private readonly limiter: LoginLimiter,
    private readonly resetLimiter: ResetLimiter,
    private readonly sessionCache: SessionCache = new SessionCache(clock),
  ) {}

  async startSession(
    userId: string,
    remember: boolean,
    repos: Pick<AuthRepos, 'sessions'> = this.repos,
  ): Promise<StartedSession> {
    const token = newToken();
    const now = this.clock();
    const expiresAt = now + (remember ? REMEMBERED_SESSION_MS : BROWSER_SESSION_MS);
    await repos.sessions.insert({
      id: digest(token),
      user_id: userId,
      remember,
      created_at: now,
      expires_at: expiresAt,
    });
    return { token, remember, expiresAt };
  }

  /** Every failure answers the same 401, so nobody learns which emails have accounts. */
  async login(
    input: { email: string; password: string; remember: boolean },
    address: string,
  ): Promise<{ user: UserRecord; session: StartedSession }> {
    const email = input.email.trim().toLowerCase();
    const now = this.clock();
    const wait = this.limiter.waitFor(address, email, now);
    if (wait > 0) throw new TooManyRequests(authMessages.tooManyAttempts(wait), wait);
    const user = await this.repos.users.findByEmail(email);
    const matches = await verifyPassword(
      user?.auth_type === 'local' ? user.password_hash : null,
      input.password,
    );
    if (!user || !matches || !user.enabled) {
      this.limiter.failed(address, email, now);
      throw new Unauthorized(authMessages.incorrect);
    }
    this.limiter.succeeded(address, email, now);
    await this.repos.sessions.deleteExpired(now);
    return { user, session: await this.startSession(user.id, input.remember) };
  }

  async logout(token: string | undefined): Promise<void> {
    if (!token) return;
    this.sessionCache.forget(digest(token));
    await this.repos.sessions.delete(digest(token));
  }

  /** The enabled user a session cookie belongs to, if any. */
  private async userForSession(token: string): Promise<UserRecord | undefined> {
    const sessionDigest = digest(token);
    const cached = this.sessionCache.get(sessionDigest);
    if (cached) return cached;
    const user = await this.repos.sessions.findUser(sessionDigest, this.clock());
    if (!user?.enabled) return undefined;
    this.sessionCache.set(sessionDigest, user);
    return user;
  }

  /** The enabled user of a session cookie, as an actor, if any. */
  async actorForSession(token: string): Promise<Actor | undefined> {
    const user = await this.userForSession(token);
    return user && userActor(user);
  }

  /** The enabled user an API key belongs to, as an actor, if any; notes the key's use once a minute. */
  async actorForApiKey(key: string): Promise<Actor | undefined> {
    const found = await this.repos.apiKeys.findByKeyHash(digest(key));
    if (!found?.user.enabled) return undefined;
    const now = this.clock();
    const since = now - API_KEY_USE_RESOLUTION_MS;
    if (found.lastUsedAt === null || found.lastUsedAt < since) {
      await this.repos.apiKeys.touch(found.keyId, now, since);
    }
    return apiKeyActor(found.user, found.keyId);
  }

  /** Changes the actor's password and ends their other sessions; optionally revokes their keys. */
  async changePassword(
    actor: Actor,
    currentSessionToken: string | undefined,
    input: { oldPassword: string; newPassword: string; revokeApiKeys?: boolean },
  ): Promise<void> {
    const user = requireUser(actor);
    if (user.auth_type !== 'local') throw new Forbidden(authMessages.externallyManaged);
    if (!(await verifyPassword(user.password_hash, input.oldPassword))) {
      throw new BadRequest(authMessages.wrongCurrentPassword);
    }
    const passwordHash = await hashPassword(input.newPassword);
    await this.transact(async (repos) => {
      await repos.users.update(user.id, { password_hash: passwordHash }, this.clock());
      await repos.sessions.deleteForUser(
        user.id,
        currentSessionToken ? digest(currentSessionToken) : undefined,
      );
      if (input.revokeApiKeys) await repos.apiKeys.deleteForUser(user.id);
    });
    this.sessionCache.forgetUser(user.id);
  }

  /**
   * Redeems a single-use reset token; all the user's sessions end and, unless asked not to, their
   * API keys are revoked. The token is checked before the new password is hashed, so bad tokens
   * cost no argon2 time, and their failures are limited per address.
   */
  async resetPassword(
    input: { token: string; newPassword: string; revokeApiKeys?: boolean },
    address: string,
  ): Promise<void> {
    if (input.newPassword.length < 8) throw new BadRequest(messages.newPasswordTooShort);
    const wait = this.resetLimiter.waitFor(address, this.clock());
    if (wait > 0) throw new TooManyRequests(authMessages.tooManyResetAttempts(wait), wait);
    const tokenHash = digest(input.token);
    if (!(await this.redeemableUser(this.repos, tokenHash, this.clock()))) {
      this.resetLimiter.failed(address, this.clock());
      throw new BadRequest(authMessages.invalidResetToken);
    }
    const passwordHash = await hashPassword(input.newPassword);
    const userId = await this.transact(async (repos) => {
      const now = this.clock();
      // Checked again: the token may have been redeemed or expired while hashing.
      const user = await this.redeemableUser(repos, tokenHash, now);
      if (!user || !(await repos.resetTokens.markUsed(tokenHash, now))) {
        throw new BadRequest(authMessages.invalidResetToken);
      }
      await repos.resetTokens.voidUnusedForUser(user.id, now);
      await repos.users.update(user.id, { password_hash: passwordHash }, now);
      await repos.sessions.deleteForUser(user.id);
      if (input.revokeApiKeys ?? true) await repos.apiKeys.deleteForUser(user.id);
      return user.id;
    });
    this.sessionCache.forgetUser(userId);
  }

  /** The user an unused, unexpired token resets, while that user may still use a password. */
  private async redeemableUser(
    repos: Pick<AuthRepos, 'resetTokens' | 'users'>,
    tokenHash: string,
    now: number,
  ): Promise<UserRecord | undefined> {
    const row = await repos.resetTokens.find(tokenHash);
    if (!row || row.used_at !== null || row.expires_at <= now) return undefined;
    const user = await repos.users.findById(row.user_id);
    return user?.enabled && user.auth_type === 'local' ? user : undefined;
  }
}

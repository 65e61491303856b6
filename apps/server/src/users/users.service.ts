// Managing users: invite, edit, enable/disable, reset links; the last-admin and self rules.
import { randomUUID } from 'node:crypto';
import { isAdmin, type ResetPasswordToken, type User } from '@loupe/contracts';
import type { Transact } from '../db/transact.js';
import { DAY, type Clock } from '../platform/clock.js';
import { Conflict, NotFound } from '../platform/errors.js';
import { digest, newToken } from '../platform/tokens.js';
import { requireUser, type Actor } from './actor.js';
import { denied, requireAdmin } from './authorize.js';
import type { UserRecord, UsersRepository } from './users.repository.js';

export const RESET_TOKEN_LIFETIME_MS = DAY;

export const userMessages = {
  lastAdmin: 'Cannot change role. This is the last remaining administrator.',
  disableSelf: 'You cannot disable yourself as a user',
  disabled: 'This user is disabled',
  oauthReset: 'This account is managed by an external provider: its password cannot be reset here.',
} as const;

export function toUser(user: UserRecord, companyName: string): User {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    enabled: user.enabled,
    company_name: companyName,
    auth_type: user.auth_type,
  };
}

type CreateInput = { email: string; name: string; role: 'admin' | 'member' };
type UpdateInput = { name?: string; role?: 'admin' | 'member'; enabled?: boolean };

/**
 * What users need of the database; writes that must land together run in a transaction. Sessions,
 * reset tokens and API keys belong to the folders that build on users (auth, api-keys): they are
 * named here by what users asks of them.
 */
export interface UsersRepos {
  users: UsersRepository;
  settings: { get(key: 'company_name'): Promise<string | undefined> };
  sessions: { deleteForUser(userId: string): Promise<void> };
  resetTokens: {
    voidUnusedForUser(userId: string, now: number): Promise<void>;
    insert(token: {
      token_hash: string;
      user_id: string;
      created_at: number;
      expires_at: number;
      used_at: number | null;
    }): Promise<void>;
  };
  apiKeys: { deleteForUser(userId: string): Promise<void> };
}

export class UsersService {
  constructor(
    private readonly repos: Pick<UsersRepos, 'users' | 'settings'>,
    private readonly transact: Transact<UsersRepos>,
    private readonly clock: Clock,
    /** Sessions this process remembers: a changed or disabled user's are forgotten at once. */
    private readonly sessions: { forgetUser(userId: string): void },
  ) {}

  async companyName(): Promise<string> {
    return (await this.repos.settings.get('company_name')) ?? '';
  }

  async list(_actor: Actor): Promise<User[]> {
    const company = await this.companyName();
    return (await this.repos.users.list()).map((row) => toUser(row, company));
  }

  async create(actor: Actor, input: CreateInput): Promise<User> {
    requireAdmin(actor, denied.invite);
    const now = this.clock();
    const row: UserRecord = {
      id: randomUUID(),
      email: input.email,
      name: input.name,
      role: input.role,
      enabled: true,
      password_hash: null,
      auth_type: 'local',
      created_at: now,
      updated_at: now,
    };
    await this.transact(async (repos) => {
      if (await repos.users.findByEmail(input.email)) {
        throw new Conflict(`A user with the email ${input.email} already exists.`);
      }
      await repos.users.insert(row);
    });
    return toUser(row, await this.companyName());
  }

  async update(actor: Actor, id: string, input: UpdateInput): Promise<User> {
    requireAdmin(actor, denied.edit);
    const updated = await this.transact(async (repos) => {
      const target = await repos.users.findById(id);
      if (!target) throw new NotFound(`No user with id ${id}.`);
      const editsProfile = input.name !== undefined || input.role !== undefined;
      const staysEnabled = input.enabled ?? target.enabled;
      if (editsProfile && !staysEnabled) throw new Conflict(userMessages.disabled);
      if (input.enabled === false && target.id === requireUser(actor).id)
        throw new Conflict(userMessages.disableSelf);
      const losesAdmin =
        isAdmin({ role: target.role, enabled: target.enabled }) &&
        ((input.role !== undefined && input.role !== 'admin') || input.enabled === false);
      if (losesAdmin && (await repos.users.countEnabledAdmins()) <= 1) {
        throw new Conflict(userMessages.lastAdmin);
      }
      const now = this.clock();
      await repos.users.update(
        id,
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.role !== undefined ? { role: input.role } : {}),
          ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        },
        now,
      );
      // A disabled user's sessions end at once, and their API keys are revoked so that enabling
      // them again does not revive keys they may have handed out meanwhile.
      if (input.enabled === false) {
        await repos.sessions.deleteForUser(id);
        await repos.apiKeys.deleteForUser(id);
      }
      return (await repos.users.findById(id))!;
    });
    this.sessions.forgetUser(id);
    return toUser(updated, await this.companyName());
  }

  async createResetToken(actor: Actor, id: string): Promise<ResetPasswordToken> {
    requireAdmin(actor, denied.resetPassword);
    const target = await this.repos.users.findById(id);
    if (!target) throw new NotFound(`No user with id ${id}.`);
    if (!target.enabled) throw new Conflict(userMessages.disabled);
    if (target.auth_type !== 'local') throw new Conflict(userMessages.oauthReset);
    const token = newToken();
    const now = this.clock();
    const expiresAt = now + RESET_TOKEN_LIFETIME_MS;
    // Only the newest link works: an older one, perhaps sent somewhere wrong, stops here.
    await this.transact(async (repos) => {
      await repos.resetTokens.voidUnusedForUser(id, now);
      await repos.resetTokens.insert({
        token_hash: digest(token),
        user_id: id,
        created_at: now,
        expires_at: expiresAt,
        used_at: null,
      });
    });
    return { token, expires_ts: Math.floor(expiresAt / 1000) };
  }
}

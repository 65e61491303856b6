// SQL for sign-in sessions (stored by token digest) and password reset tokens.
import type { Kysely, Selectable } from 'kysely';
import type { DB, PasswordResetTokensTable, SessionsTable } from '../db/schema.js';
import { toUserRecord, type UserRecord } from '../users/users.repository.js';

export interface SessionRecord extends Omit<Selectable<SessionsTable>, 'remember'> {
  remember: boolean;
}
export type ResetTokenRecord = Selectable<PasswordResetTokensTable>;

export class SessionsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(session: SessionRecord): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({ ...session, remember: session.remember ? 1 : 0 })
      .execute();
  }

  /** The session's user when the session exists and has not expired. */
  async findUser(id: string, now: number): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .where('sessions.id', '=', id)
      .where('sessions.expires_at', '>', now)
      .executeTakeFirst();
    return row && toUserRecord(row);
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  async deleteForUser(userId: string, exceptId?: string): Promise<void> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptId) query = query.where('id', '!=', exceptId);
    await query.execute();
  }

  async deleteExpired(now: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  }
}

export class ResetTokensRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(row: ResetTokenRecord): Promise<void> {
    await this.db.insertInto('password_reset_tokens').values(row).execute();
  }

  find(tokenHash: string): Promise<ResetTokenRecord | undefined> {
    return this.db
      .selectFrom('password_reset_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** Spends every unused token of the user, so only a token issued after this can work. */
  async voidUnusedForUser(userId: string, now: number): Promise<void> {
    await this.db
      .updateTable('password_reset_tokens')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  }

  /** Marks the token used; false when it was already used (a concurrent redemption won). */
  async markUsed(tokenHash: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('password_reset_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

// SQL for sign-in sessions (stored by token digest) and password reset tokens.
import type { Kysely, Selectable } from 'kysely';
import type { DB, PasswordResetTokensTable, SessionsTable } from '../db/schema.js';
import type { UserRow } from '../users/users.repository.js';

export type SessionRow = Selectable<SessionsTable>;
export type ResetTokenRow = Selectable<PasswordResetTokensTable>;

export class SessionsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(row: SessionRow): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  /** The session's user when the session exists and has not expired. */
  findUser(id: string, now: number): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .where('sessions.id', '=', id)
      .where('sessions.expires_at', '>', now)
      .executeTakeFirst();
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

  async insert(row: ResetTokenRow): Promise<void> {
    await this.db.insertInto('password_reset_tokens').values(row).execute();
  }

  find(tokenHash: string): Promise<ResetTokenRow | undefined> {
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

// SQL for API keys: stored by digest, listed, given new secrets on rotation, revoked by deletion.
import type { Kysely, Selectable } from 'kysely';
import type { ApiKeysTable, DB } from '../db/schema.js';
import { toUserRecord, type UserRecord } from '../users/users.repository.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export class ApiKeysRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The user's keys, oldest first. */
  listForUser(userId: string): Promise<ApiKeyRow[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  findForUser(userId: string, id: string): Promise<ApiKeyRow | undefined> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findByUserAndName(userId: string, name: string): Promise<ApiKeyRow | undefined> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  /** Inserts unless the user already has a key of that name; true when it was inserted. */
  async insertIfAbsent(row: ApiKeyRow): Promise<boolean> {
    const result = await this.db
      .insertInto('api_keys')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'name']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Gives the key a new secret; the old digest stops matching at once. False when gone. */
  async replaceSecret(
    userId: string,
    id: string,
    secret: Pick<ApiKeyRow, 'key_hash' | 'key_ciphertext' | 'hint'>,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ ...secret, last_used_at: null })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('api_keys')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.db.deleteFrom('api_keys').where('user_id', '=', userId).execute();
  }

  /** The key's owner with the key's id and last use, for authentication. */
  async findByKeyHash(
    keyHash: string,
  ): Promise<{ user: UserRecord; keyId: string; lastUsedAt: number | null } | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .selectAll('users')
      .select(['api_keys.id as key_id', 'api_keys.last_used_at as key_last_used_at'])
      .where('api_keys.key_hash', '=', keyHash)
      .executeTakeFirst();
    if (!row) return undefined;
    const { key_id, key_last_used_at, ...user } = row;
    return { user: toUserRecord(user), keyId: key_id, lastUsedAt: key_last_used_at };
  }

  /** Records a use unless one was recorded since `since`: at most one write per key per period. */
  async touch(id: string, now: number, since: number): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
      .execute();
  }
}

// SQL for instance-wide settings (setup state, company, deployment id, license key) and API keys.
import type { Kysely, Selectable } from 'kysely';
import type { ApiKeysTable, DB } from '../db/schema.js';
import type { UserRow } from '../users/users.repository.js';

export type SettingKey = 'setup_state' | 'company_name' | 'deployment_id' | 'license_key';
export type ApiKeyRow = Selectable<ApiKeysTable>;

export class SettingsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async get(key: SettingKey): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value;
  }

  async set(key: SettingKey, value: string): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  /** Inserts the value unless the key exists; answers the stored value either way. */
  async getOrInit(key: SettingKey, value: string): Promise<string> {
    await this.db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await this.get(key)) ?? value;
  }

  /** Compare-and-set: true when the stored value was `from` and is now `to`. */
  async transition(key: SettingKey, from: string, to: string): Promise<boolean> {
    const result = await this.db
      .updateTable('settings')
      .set({ value: to })
      .where('key', '=', key)
      .where('value', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

export class ApiKeysRepository {
  constructor(private readonly db: Kysely<DB>) {}

  findByUserAndName(userId: string, name: string): Promise<ApiKeyRow | undefined> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  /** Inserts unless the user already has a key of that name (two first reads at once). */
  async insertIfAbsent(row: ApiKeyRow): Promise<void> {
    await this.db
      .insertInto('api_keys')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'name']).doNothing())
      .execute();
  }

  findUserByKeyHash(keyHash: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .selectAll('users')
      .where('api_keys.key_hash', '=', keyHash)
      .executeTakeFirst();
  }
}

// SQL for instance-wide settings (setup state, company, deployment id, license key).
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export type SettingKey = 'setup_state' | 'company_name' | 'deployment_id' | 'license_key';

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

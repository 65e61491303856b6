// SQL for users. Rows leave as UserRecords: `enabled` is a boolean above this file.
import type { Kysely, Selectable } from 'kysely';
import type { DB, UsersTable } from '../db/schema.js';

type UserRow = Selectable<UsersTable>;

export interface UserRecord extends Omit<UserRow, 'enabled'> {
  enabled: boolean;
}

/** A users row (also as joined by sessions and API keys) as a record. */
export function toUserRecord(row: UserRow): UserRecord {
  return { ...row, enabled: row.enabled === 1 };
}

export class UsersRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async list(): Promise<UserRecord[]> {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .orderBy('created_at')
      .orderBy('email')
      .execute();
    return rows.map(toUserRecord);
  }

  async findById(id: string): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toUserRecord(row);
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst();
    return row && toUserRecord(row);
  }

  async insert(user: UserRecord): Promise<void> {
    await this.db
      .insertInto('users')
      .values({ ...user, enabled: user.enabled ? 1 : 0 })
      .execute();
  }

  async update(
    id: string,
    changes: Partial<Pick<UserRecord, 'name' | 'role' | 'enabled' | 'password_hash'>>,
    now: number,
  ): Promise<void> {
    const { enabled, ...rest } = changes;
    await this.db
      .updateTable('users')
      .set({
        ...rest,
        ...(enabled !== undefined ? { enabled: enabled ? 1 : 0 } : {}),
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  async countEnabledAdmins(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('role', '=', 'admin')
      .where('enabled', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

// SQL for users.
import type { Kysely, Selectable } from 'kysely';
import type { DB, UsersTable } from '../db/schema.js';

export type UserRow = Selectable<UsersTable>;

export class UsersRepository {
  constructor(private readonly db: Kysely<DB>) {}

  list(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().orderBy('created_at').orderBy('email').execute();
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async insert(row: UserRow): Promise<void> {
    await this.db.insertInto('users').values(row).execute();
  }

  async update(
    id: string,
    changes: Partial<Pick<UserRow, 'name' | 'role' | 'enabled' | 'password_hash'>>,
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ ...changes, updated_at: now })
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

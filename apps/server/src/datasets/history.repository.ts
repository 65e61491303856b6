// SQL for a dataset's version history: one entry per kind of edit, grown while the same user
// keeps making it (datasets/history.ts decides when).
import type { Kysely, Selectable } from 'kysely';
import type { DB, HistoryRecordsTable } from '../db/schema.js';

export type HistoryEntry = Selectable<HistoryRecordsTable>;

export class HistoryRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Newest first. */
  list(datasetId: string): Promise<HistoryEntry[]> {
    return this.db
      .selectFrom('history_records')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .orderBy('created_at', 'desc')
      .execute();
  }

  latest(
    datasetId: string,
    operation: string,
    userId: string | null,
  ): Promise<HistoryEntry | undefined> {
    let query = this.db
      .selectFrom('history_records')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('operation_type', '=', operation);
    query = userId ? query.where('user_id', '=', userId) : query.where('user_id', 'is', null);
    return query.orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  }

  async insert(entry: HistoryEntry): Promise<void> {
    await this.db.insertInto('history_records').values(entry).execute();
  }

  async grow(id: string, items: number, now: number): Promise<void> {
    await this.db
      .updateTable('history_records')
      .set((eb) => ({ num_items: eb('num_items', '+', items), updated_at: now }))
      .where('id', '=', id)
      .execute();
  }
}

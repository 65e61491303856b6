// The rule of the version history: uploads by the same user within a few minutes grow one entry
// instead of adding many (docs/product.md, Datasets: version history).
import { randomUUID } from 'node:crypto';
import type { HistoryRecord } from '@loupe/contracts';
import { actorUserId, type Actor } from '../users/actor.js';
import type { HistoryEntry, HistoryItemState, HistoryRepository } from './history.repository.js';

/** Uploads by the same user within this window grow one history record instead of adding many. */
export const HISTORY_MERGE_MS = 10 * 60_000;

/** Adds to the actor's latest entry of the same operation when recent, else starts one; its id. */
export async function recordHistory(
  history: Pick<HistoryRepository, 'latest' | 'grow' | 'insert'>,
  entry: {
    datasetId: string;
    operation: HistoryRecord['operation_type'];
    dataLevel: string;
    items: number;
    actor: Actor;
    now: number;
  },
): Promise<string> {
  const { datasetId, operation, dataLevel, items, actor, now } = entry;
  const userId = actorUserId(actor);
  const latest = await history.latest(datasetId, operation, userId);
  if (latest && now - latest.updated_at < HISTORY_MERGE_MS) {
    await history.grow(latest.id, items, now);
    return latest.id;
  }
  const id = randomUUID();
  await history.insert({
    id,
    dataset_id: datasetId,
    operation_type: operation,
    data_level: dataLevel,
    num_items: items,
    user_id: userId,
    created_at: now,
    updated_at: now,
    restored_by: null,
  });
  return id;
}

export const DELETE_OPERATIONS: readonly string[] = ['sample:delete', 'object:delete'];

/**
 * A history entry as the API shows it. A delete record is restorable while it is not restored
 * and some of its items are still deleted; a record's items are deleted when none is live any
 * more (the history filter cannot select them).
 */
export function toHistoryRecord(
  entry: HistoryEntry,
  userName: string,
  items: HistoryItemState,
): HistoryRecord {
  const deletes = DELETE_OPERATIONS.includes(entry.operation_type);
  return {
    id: entry.id,
    timestamp: entry.created_at,
    num_items: entry.num_items,
    data_level: entry.data_level as HistoryRecord['data_level'],
    operation_type: entry.operation_type as HistoryRecord['operation_type'],
    user_name: userName,
    restorable: deletes && entry.restored_by === null && items.deleted,
    restored_by: entry.restored_by,
    items_deleted: !items.live,
  };
}

// The rule of the version history: uploads by the same user within a few minutes grow one entry
// instead of adding many (docs/product.md, Datasets: version history).
import { randomUUID } from 'node:crypto';
import type { HistoryRecord } from '@loupe/contracts';
import { actorUserId, type Actor } from '../users/actor.js';
import type { HistoryRepository } from './history.repository.js';

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
  });
  return id;
}

// What the version history offers on a record (docs/curation.md): Restore on a delete record
// whose items are still deleted, and 'Show items', the explorer filtered by the record at its data
// level, on a record whose items can still be shown (not a deletion, items not deleted since).
import type { Filter, HistoryRecord } from '@loupe/contracts';

const DELETIONS = new Set<HistoryRecord['operation_type']>(['sample:delete', 'object:delete']);

export const canShowItems = (record: HistoryRecord) =>
  !record.items_deleted && !DELETIONS.has(record.operation_type);

/**
 * The explorer at the record's data level, filtered by the record: the explorer reads `level`
 * and `filter` (JSON) from its URL query.
 */
export function showItemsLink(datasetId: string, record: HistoryRecord): string {
  const filter: Filter = { type: 'and', children: [{ type: 'history', record_id: record.id }] };
  const search = new URLSearchParams({ level: record.data_level, filter: JSON.stringify(filter) });
  return `/datasets/${encodeURIComponent(datasetId)}/explore?${search.toString()}`;
}

// The grid's selection (rows of the item table) as the items the curation actions act on: id,
// ground truth or prediction, and the sample it belongs to. Rows are looked up through the
// items call (by rows, ≤ 1000 a call); a large selection of samples takes the result's ids in one
// call instead (a sample is its own sample, and always a dataset item).
import type { DataLevel, ExploreItem } from '@loupe/contracts';
import type { ActionItem } from '../curation';

/** Rows an items call may name. */
export const ROWS_PER_ITEMS_CALL = 1000;
/** Above this many selected samples, the result's ids (one call) beat items calls. */
export const IDS_CALL_ABOVE = ROWS_PER_ITEMS_CALL;

/** The selected rows in result order (the order the grid shows them in). */
export function selectedInResultOrder(rows: Uint32Array, selected: ReadonlySet<number>): number[] {
  if (selected.size === 0) return [];
  const out: number[] = [];
  for (const row of rows) if (selected.has(row)) out.push(row);
  return out;
}

export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Whether a selection is looked up by the result's ids rather than items by rows. */
export const lookUpByIds = (dataLevel: DataLevel, count: number) =>
  dataLevel !== 'image_object' && count > IDS_CALL_ABOVE;

export const actionItem = (item: ExploreItem): ActionItem => ({
  id: item.id,
  type: item.type,
  sampleId: item.sample_id,
});

/** A sample-level item known only by its id. */
export const sampleActionItem = (id: string): ActionItem => ({ id, type: 'gt', sampleId: id });

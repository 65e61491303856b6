// What the selection performance sidebar asks the server (docs/product.md, Datasets §2, §8): the
// selected items when there is a selection, else the current filter within the current subset
// (with the explorer's comparison of two models, if any, whose per-item fields the filter may
// name; a selection of ids needs none). A selection above MAX_SELECTION_PERFORMANCE_ITEMS is not
// sent: the server would refuse it.
import {
  MAX_SELECTION_PERFORMANCE_ITEMS,
  type DataLevel,
  type ExploreComparison,
  type Filter,
  type ItemsSummaryRequest,
} from '@loupe/contracts';
import type { SelectionPerformanceRequest } from '../../../api/queries/selectionPerformance';

/** Which items the numbers are about. */
export type SummaryScope = 'selection' | 'filter' | 'subset' | 'all';

export type SummaryPlan =
  /** More items are selected than a summary may cover. */
  | { kind: 'too-many'; scope: 'selection' }
  /** The selection's ids are still being looked up. */
  | { kind: 'waiting'; scope: 'selection' }
  | { kind: 'ask'; scope: SummaryScope; request: SelectionPerformanceRequest };

export interface SummaryInput {
  dataLevel: DataLevel;
  /** The explorer's comparison of two models, if it is in one. */
  comparison?: ExploreComparison | undefined;
  filter: Filter | null;
  subsetId: string | null;
  selectedCount: number;
  /** The selected items' ids; null while they are being looked up. */
  selectedIds: readonly string[] | null;
}

export function planSummary({
  dataLevel,
  comparison,
  filter,
  subsetId,
  selectedCount,
  selectedIds,
}: SummaryInput): SummaryPlan {
  if (selectedCount > 0) {
    if (selectedCount > MAX_SELECTION_PERFORMANCE_ITEMS)
      return { kind: 'too-many', scope: 'selection' };
    if (selectedIds === null) return { kind: 'waiting', scope: 'selection' };
    const body: ItemsSummaryRequest = { data_level: dataLevel, item_ids: [...selectedIds] };
    return {
      kind: 'ask',
      scope: 'selection',
      request: { body, identity: { data_level: dataLevel, items: idsDigest(selectedIds) } },
    };
  }
  const body: ItemsSummaryRequest = {
    data_level: dataLevel,
    filter,
    ...(subsetId ? { subset_id: subsetId } : {}),
    ...(comparison ? { comparison } : {}),
  };
  const scope: SummaryScope = filter ? 'filter' : subsetId ? 'subset' : 'all';
  return { kind: 'ask', scope, request: { body, identity: body } };
}

/** 32-bit FNV-1a of a string, from a given offset basis. */
function fnv1a(text: string, basis: number): number {
  let hash = basis;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A digest of a set of ids that ignores their order (the same selection in another sort order
 * asks nothing new): the count, the sum of one hash and the exclusive or of another.
 */
export function idsDigest(ids: readonly string[]): string {
  let sum = 0;
  let xor = 0;
  for (const id of ids) {
    sum = (sum + fnv1a(id, 0x811c9dc5)) >>> 0;
    xor = (xor ^ fnv1a(id, 0x050c5d1f)) >>> 0;
  }
  return `${ids.length}:${sum.toString(36)}:${xor.toString(36)}`;
}

// The explorer's filter as the popover edits it (docs/product.md, Datasets §3 Filter, §4, §5): an 'and' of
// child filters, one per property plus at most one history record; numeric bounds and their
// validation; timestamp ranges; which history records can be filtered by.
import type { DataLevel, Filter, HistoryRecord } from '@loupe/contracts';
import { levelLabel } from './strings';

export type ChildFilter = Extract<
  Filter,
  { type: 'boolean' | 'numeric' | 'string' | 'timestamp' | 'history' }
>;
export type NumericChild = Extract<ChildFilter, { type: 'numeric' }>;
export type TimestampChild = Extract<ChildFilter, { type: 'timestamp' }>;

const CHILD_TYPES = new Set(['boolean', 'numeric', 'string', 'timestamp', 'history']);

/** The child filters of the explorer's 'and' filter; anything else is an error (§5). */
export function filterChildren(filter: Filter | null | undefined): ChildFilter[] {
  if (!filter) return [];
  if (filter.type !== 'and') throw new Error(`Unsupported filter type '${filter.type}'`);
  for (const child of filter.children) {
    if (!CHILD_TYPES.has(child.type)) throw new Error(`Unsupported filter type '${child.type}'`);
  }
  return filter.children as ChildFilter[];
}

/** The filter badge counts child filters. */
export const countFilters = (filter: Filter | null | undefined) => filterChildren(filter).length;

/** One child per property; the history record has its own slot. */
export const childKey = (child: ChildFilter) =>
  child.type === 'history' ? 'history' : child.metadata_id;

export function childFor(filter: Filter | null | undefined, key: string): ChildFilter | undefined {
  return filterChildren(filter).find((child) => childKey(child) === key);
}

function fromChildren(children: ChildFilter[]): Filter | null {
  return children.length === 0 ? null : { type: 'and', children };
}

export function withChild(filter: Filter | null | undefined, child: ChildFilter): Filter {
  const children = filterChildren(filter);
  const key = childKey(child);
  const index = children.findIndex((existing) => childKey(existing) === key);
  const next = index < 0 ? [...children, child] : children.map((c, i) => (i === index ? child : c));
  return { type: 'and', children: next };
}

export function withoutChild(filter: Filter | null | undefined, key: string): Filter | null {
  return fromChildren(filterChildren(filter).filter((child) => childKey(child) !== key));
}

/** Apply is enabled only when the draft differs from the applied filter. */
export function filtersEqual(a: Filter | null | undefined, b: Filter | null | undefined): boolean {
  return (
    JSON.stringify(fromChildren(filterChildren(a))) ===
    JSON.stringify(fromChildren(filterChildren(b)))
  );
}

// Numeric ----------------------------------------------------------------------------------------

// Products like 0.29 * 100 land a hair below the integer; snap them before flooring.
const snap = (value: number) => Math.round(value * 1e6) / 1e6;

/** Bounds rounded outward to two decimals (§5). */
export function roundBounds(min: number, max: number): [number, number] {
  return [Math.floor(snap(min * 100)) / 100, Math.ceil(snap(max * 100)) / 100];
}

/** The input step: one hundredth of the range (a range of zero steps by 0.01). */
export function numericStep(min: number, max: number): number {
  const range = max - min;
  return range > 0 ? range / 100 : 0.01;
}

export interface NumericErrors {
  from?: string;
  to?: string;
}

/**
 * From must be at least the minimum and at most To; To at most the maximum and at least From.
 * `bounds` are the rounded ones; an empty input is no error (that side is unbounded).
 */
export function validateNumericRange(
  from: number | null,
  to: number | null,
  [min, max]: [number, number],
  messages: { from: (min: string) => string; to: (max: string) => string },
): NumericErrors {
  const errors: NumericErrors = {};
  if (from !== null && (from < min || (to !== null && from > to)))
    errors.from = messages.from(String(min));
  if (to !== null && (to > max || (from !== null && to < from)))
    errors.to = messages.to(String(max));
  return errors;
}

export function numericFilter(
  metadataId: string,
  from: number | null,
  to: number | null,
): NumericChild {
  return { type: 'numeric', metadata_id: metadataId, op: 'between', value: [from, to] };
}

// Timestamp --------------------------------------------------------------------------------------

/** Equal start and end become an equals filter (§5). */
export function timestampFilter(metadataId: string, start: number, end: number): TimestampChild {
  if (start === end)
    return { type: 'timestamp', metadata_id: metadataId, op: 'ts_equals', value: start };
  return { type: 'timestamp', metadata_id: metadataId, op: 'ts_between', value: [start, end] };
}

const DAY_MS = 86_400_000;

/** Dates outside the property's range are disabled: a day is offered if it overlaps [min, max]. */
export function isDateOutside(dayStart: number, min: number | undefined, max: number | undefined) {
  if (min !== undefined && dayStart + DAY_MS <= min) return true;
  if (max !== undefined && dayStart > max) return true;
  return false;
}

// History ----------------------------------------------------------------------------------------

const DELETIONS = new Set<HistoryRecord['operation_type']>(['sample:delete', 'object:delete']);

/**
 * Why a history record cannot be filtered by, or null: deleted items are gone (a deletion, or a
 * record whose items were deleted since), and a record of another data level does not describe
 * the items shown (§5).
 */
export function historyDisabledReason(
  record: HistoryRecord,
  dataLevel: DataLevel,
  taskType: string,
  messages: { deleted: string; otherLevel: (level: string) => string },
): string | null {
  if (DELETIONS.has(record.operation_type) || record.items_deleted) return messages.deleted;
  if (record.data_level !== dataLevel) {
    return messages.otherLevel(levelLabel(record.data_level, taskType).toLowerCase());
  }
  return null;
}

// Grid geometry and selection (docs/product.md, Datasets §4, §9): columns from the width and the card
// size, the batches items are fetched in, and click/Shift+click selection over result positions.
import { ITEMS_BATCH } from '../../api/queries/explore';

/** Minimum card width at the default zoom; zooming lets it go down to 120 px (or up). */
export const DEFAULT_CARD_WIDTH = 192;
export const MIN_CARD_WIDTH = 120;
export const MAX_CARD_WIDTH = 384;
export const CARD_WIDTH_STEP = 24;
export const OVERSCAN_ROWS = 5;
/** Items per `items` call (the viewer's batch size, §9); the batches' query owns it. */
export { ITEMS_BATCH } from '../../api/queries/explore';

export function columnsFor(width: number, minCardWidth: number): number {
  return Math.max(1, Math.floor(width / Math.max(MIN_CARD_WIDTH, minCardWidth)));
}

export function clampCardWidth(width: number): number {
  if (!Number.isFinite(width)) return DEFAULT_CARD_WIDTH;
  return Math.min(MAX_CARD_WIDTH, Math.max(MIN_CARD_WIDTH, Math.round(width)));
}

/** The batches (start positions, multiples of ITEMS_BATCH) covering positions [first, last]. */
export function batchesFor(first: number, last: number, total: number): number[] {
  if (total <= 0 || last < first) return [];
  const lo = Math.max(0, first);
  const hi = Math.min(total - 1, last);
  const batches: number[] = [];
  for (let start = lo - (lo % ITEMS_BATCH); start <= hi; start += ITEMS_BATCH) batches.push(start);
  return batches;
}

/** Selected items as table rows (valid for one item-table version). */
export interface Selection {
  rows: ReadonlySet<number>;
  /** The position last clicked, the anchor of a Shift range. */
  anchor: number | null;
}

export const EMPTY_SELECTION: Selection = { rows: new Set(), anchor: null };

/** A click toggles the item; Shift+click selects every item between the anchor and it. */
export function clickSelect(
  selection: Selection,
  rows: Uint32Array,
  position: number,
  shift: boolean,
): Selection {
  const row = rows[position];
  if (row === undefined) return selection;
  const next = new Set(selection.rows);
  if (shift && selection.anchor !== null) {
    const [lo, hi] =
      selection.anchor < position ? [selection.anchor, position] : [position, selection.anchor];
    for (let i = lo; i <= Math.min(hi, rows.length - 1); i++) next.add(rows[i]!);
  } else if (next.has(row)) {
    next.delete(row);
  } else {
    next.add(row);
  }
  return { rows: next, anchor: position };
}

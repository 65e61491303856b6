// Which selected items the selection preview strip shows (docs/product.md, Datasets §9): min(length, 16)
// rounded down to whole rows of 4; when that is not everything, one slot gives way to '+N'.
export const PREVIEW_MAX = 16;
export const PREVIEW_ROW = 4;

export interface SelectionPreview {
  shown: number;
  /** The '+N' count; 0 when every item is shown. */
  more: number;
}

export function selectionPreview(length: number): SelectionPreview {
  const slots = Math.floor(Math.min(length, PREVIEW_MAX) / PREVIEW_ROW) * PREVIEW_ROW;
  // Fewer than a row, or exactly whole rows: everything fits and no indicator is needed.
  if (length <= slots || slots === 0) return { shown: length, more: 0 };
  const shown = slots - 1;
  return { shown, more: length - shown };
}

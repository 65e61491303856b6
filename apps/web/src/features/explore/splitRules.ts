// The split view's pane rule (docs/product.md, Datasets §2): the left pane takes 33 to 66 percent of the
// width, 50 by default, and a double click on the divider resets it.
export const SPLIT_MIN = 33;
export const SPLIT_MAX = 66;
export const SPLIT_DEFAULT = 50;
/** Keyboard step of the divider, in percent. */
export const SPLIT_STEP = 2;

export function clampSplit(percent: number): number {
  if (!Number.isFinite(percent)) return SPLIT_DEFAULT;
  return Math.min(SPLIT_MAX, Math.max(SPLIT_MIN, percent));
}

/** The left pane's share when the divider is dragged to `pointerX` inside a box. */
export function splitAt(pointerX: number, box: { left: number; width: number }): number {
  if (box.width <= 0) return SPLIT_DEFAULT;
  return clampSplit(((pointerX - box.left) / box.width) * 100);
}

// Which neighbours of the open item the viewer loads, and in which batches of rows they are
// fetched (docs/product.md, Datasets §4, §9: a window of 10 on each side, 120 rows per items call).

export const WINDOW_SIZE = 10;
export const BATCH_SIZE = 120;

/** Positions [start, end) of the window around `index` in a result of `total` items. */
export function windowRange(
  index: number,
  total: number,
  size: number = WINDOW_SIZE,
): [number, number] {
  if (total <= 0) return [0, 0];
  const clamped = Math.min(Math.max(index, 0), total - 1);
  return [Math.max(0, clamped - size), Math.min(total, clamped + size + 1)];
}

/** The batch a result position falls in. */
export function batchOf(position: number, batchSize: number = BATCH_SIZE): number {
  return Math.floor(position / batchSize);
}

/** Positions [start, end) of one batch. */
export function batchRange(
  batch: number,
  total: number,
  batchSize: number = BATCH_SIZE,
): [number, number] {
  return [batch * batchSize, Math.min(total, (batch + 1) * batchSize)];
}

/** The batches that together hold every position of the window around `index`. */
export function batchesForWindow(
  index: number,
  total: number,
  size: number = WINDOW_SIZE,
  batchSize: number = BATCH_SIZE,
): number[] {
  const [start, end] = windowRange(index, total, size);
  if (end <= start) return [];
  const batches: number[] = [];
  for (let b = batchOf(start, batchSize); b <= batchOf(end - 1, batchSize); b++) batches.push(b);
  return batches;
}

/** The 1-based 'n/total' counter. */
export function counterText(index: number, total: number): string {
  return `${Math.min(index + 1, total)}/${total}`;
}

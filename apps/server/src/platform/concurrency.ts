// Runs async work over items with at most `limit` in flight: sharp decodes on libuv's thread
// pool, so a few images in flight keep both cores busy while JavaScript does the statistics.
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  });
  await Promise.all(workers);
}

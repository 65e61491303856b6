// Keeps built item tables per (dataset, data level, prediction set) while the dataset's
// data_version stays the same; concurrent requests for one table share one build, and the
// least recently used tables go when the memory budget is exceeded.
import type { ExploreTable } from './item-table-loader.js';

interface Entry {
  version: number;
  promise: Promise<ExploreTable>;
  bytes: number;
}

/** A table `patch` made: which one, and its new version (settles when patched). */
export interface PatchedTable {
  level: string;
  predictionsId: string | null;
  table: Promise<ExploreTable>;
}

export class ItemTableCache {
  private readonly entries = new Map<string, Entry>();
  /** Tables built since start (for tests and the benchmark). */
  builds = 0;

  constructor(private readonly budgetBytes = 2 * 1024 ** 3) {}

  static key(datasetId: string, level: string, predictionsId: string | null): string {
    return `${datasetId}|${level}|${predictionsId ?? ''}`;
  }

  /**
   * The table for `key` at `version` (the dataset's data_version just read). A cached table of
   * that version or a newer one is current; anything older is rebuilt.
   */
  get(key: string, version: number, build: () => Promise<ExploreTable>): Promise<ExploreTable> {
    const hit = this.entries.get(key);
    if (hit && hit.version >= version) {
      this.entries.delete(key);
      this.entries.set(key, hit); // most recently used last
      return hit.promise;
    }
    this.builds++;
    const entry: Entry = { version, promise: build(), bytes: 0 };
    this.entries.delete(key);
    this.entries.set(key, entry);
    entry.promise.then(
      (table) => {
        entry.bytes = table.bytes;
        this.evict(key);
      },
      () => {
        // A failed build is not cached: the next request tries again.
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.promise;
  }

  /**
   * The table for `key` if one of `version` or newer is cached (or being built), without
   * building one.
   */
  peek(key: string, version: number): Promise<ExploreTable> | null {
    const hit = this.entries.get(key);
    return hit && hit.version >= version ? hit.promise : null;
  }

  /**
   * After a write that took the dataset from data_version `from` to `to` and changed values but
   * not rows (docs/curation.md): each table of version `from` becomes the table `patcherFor`
   * makes of it, at version `to`, instead of being rebuilt; a null patcher drops the table.
   * Tables of any other version are left alone (older ones rebuild on their next read).
   * Answers the patched tables.
   */
  patch(
    datasetId: string,
    from: number,
    to: number,
    patcherFor: (
      level: string,
      predictionsId: string | null,
    ) => ((table: ExploreTable) => ExploreTable) | null,
  ): PatchedTable[] {
    const patched: PatchedTable[] = [];
    for (const [key, hit] of [...this.entries]) {
      if (!key.startsWith(`${datasetId}|`) || hit.version !== from) continue;
      const [, level = '', predictions = ''] = key.split('|');
      const predictionsId = predictions === '' ? null : predictions;
      const patcher = patcherFor(level, predictionsId);
      if (!patcher) {
        this.entries.delete(key);
        continue;
      }
      const entry: Entry = { version: to, promise: hit.promise.then(patcher), bytes: hit.bytes };
      this.entries.set(key, entry);
      entry.promise.catch(() => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      });
      patched.push({ level, predictionsId, table: entry.promise });
    }
    return patched;
  }

  /** Drops every table of a dataset (it was deleted). */
  forget(datasetId: string): void {
    for (const key of [...this.entries.keys()])
      if (key.startsWith(`${datasetId}|`)) this.entries.delete(key);
  }

  private evict(keep: string): void {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.bytes;
    for (const [key, entry] of this.entries) {
      if (total <= this.budgetBytes) break;
      if (key === keep) continue;
      this.entries.delete(key);
      total -= entry.bytes;
    }
  }
}

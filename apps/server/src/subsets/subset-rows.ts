// A subset's items as rows of an explorer item table (a bitset), kept per table rows and subset
// change, so that paging, sorting and histograms inside a subset read its members once.
import { countRows, emptyBitset, type Bitset, type ItemTable } from '@loupe/analysis';

/** What a subset's rows are cached by: its id and its change stamp (strictly increasing). */
export interface SubsetStamp {
  id: string;
  updated_at: number;
}

export interface SubsetRows {
  /** The rows of the subset's live items (members not in the table are deleted items). */
  bits: Bitset;
  count: number;
}

interface Entry {
  length: number;
  updatedAt: number;
  rows: Promise<SubsetRows>;
}

/** Subsets kept per table: a bitset is table length / 8 bytes (125 kB at 1M items). */
const PER_TABLE = 32;

export class SubsetRowsCache {
  /**
   * Keyed by the table's ids array: a table rebuilt for a new data version has a new one, and a
   * table patched in place (label or split edits) keeps its rows and shares it.
   */
  private readonly tables = new WeakMap<readonly string[], Map<string, Entry>>();

  /**
   * The subset's rows in `table`; `members` reads its item ids when they are not cached, and
   * `rowOf` is the table's id → row index (the explorer keeps one per table).
   */
  rows(
    table: ItemTable,
    subset: SubsetStamp,
    members: () => Promise<string[]>,
    rowOf: () => Pick<ReadonlyMap<string, number>, 'get'>,
  ): Promise<SubsetRows> {
    let entries = this.tables.get(table.ids);
    if (!entries) {
      entries = new Map();
      this.tables.set(table.ids, entries);
    }
    const hit = entries.get(subset.id);
    entries.delete(subset.id);
    if (hit && hit.length === table.length && hit.updatedAt === subset.updated_at) {
      entries.set(subset.id, hit); // most recently used last
      return hit.rows;
    }
    const rows = members().then((ids) => {
      const index = rowOf();
      const bits = emptyBitset(table.length);
      for (const id of ids) {
        const row = index.get(id);
        if (row !== undefined) bits[row >>> 5]! |= 1 << (row & 31);
      }
      return { bits, count: countRows(bits) };
    });
    const entry: Entry = { length: table.length, updatedAt: subset.updated_at, rows };
    entries.set(subset.id, entry);
    const cached = entries;
    rows.catch(() => {
      // A failed read is not cached: the next request tries again.
      if (cached.get(subset.id) === entry) cached.delete(subset.id);
    });
    for (const key of cached.keys()) {
      if (cached.size <= PER_TABLE) break;
      cached.delete(key);
    }
    return rows;
  }
}

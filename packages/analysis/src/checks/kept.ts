// Search state kept between runs of a health check (docs/health-checks.md, "Reruns after
// items are added"): a check's costliest searches keep what they built by item id, so that when a
// new data version only adds (or deletes) items, only the new items are searched. The state is
// plain typed arrays, strings and numbers (the server writes it to a file); these helpers match
// it to the rows of the current data.

import { rowIndex } from '../query/id-index.js';
import { GrowingArray } from '../growing.js';

/** What a kept state is made of (the server writes any record of these to a file). */
export type KeptValue =
  Float32Array | Float64Array | Int32Array | Uint32Array | Uint8Array | string[] | number | string;

/** What every kept state holds (positions: indexes into `ids`). */
export interface KeptState {
  [key: string]: KeptValue;
  /** The state's layout; a state of another layout is not used. */
  format: number;
  /** The search's settings; a state of other settings is not used. */
  settings: string;
  ids: string[];
  digests: Uint32Array;
  /** 1 where the position is a live item (0: deleted or changed since). */
  alive: Uint8Array;
  /** Live positions when the state was built, and positions added or lost since. */
  built: number;
  changed: number;
}

/**
 * The state is used while the items added and deleted since it was built are at most this share
 * of the items it was built on; past that a full run builds it again (the searches' structures,
 * fitted to the data they were built on, would fit the data less and less well).
 */
export const KEPT_REBUILD_SHARE = 0.25;

/**
 * A digest of each row's vector (and `extra` per row): a kept row whose digest changed is taken
 * as deleted and its new content as added.
 */
export function rowDigest(data: Float32Array, d: number, row: number, extra = 0): number {
  const words = new Uint32Array(data.buffer, data.byteOffset + row * d * 4, d);
  let h = 0x811c9dc5 ^ extra;
  for (let k = 0; k < d; k++) {
    h = Math.imul(h ^ words[k]!, 0x01000193);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

export interface KeptMatch {
  /** Per kept position: the current row it stands for, −1 when deleted or changed. */
  rowOf: Int32Array;
  /** Per current row: its kept position, −1 when new (or changed). */
  positionOf: Int32Array;
  /** Kept positions alive before that are not now (deleted, changed, no longer used). */
  lost: number;
  /** Kept positions alive before. */
  alive: number;
}

/**
 * Matches the kept positions (ids, digests, alive flags) to the current rows: a position stands
 * for the row of its id when that row is `usable` now and its digest is the same.
 */
export function matchKept(
  ids: readonly string[],
  usable: Uint8Array,
  digestOf: (row: number) => number,
  keptIds: readonly string[],
  keptDigests: Uint32Array,
  keptAlive: Uint8Array,
): KeptMatch {
  const rowById = rowIndex({ ids, length: ids.length });
  const rowOf = new Int32Array(keptIds.length).fill(-1);
  const positionOf = new Int32Array(ids.length).fill(-1);
  let lost = 0;
  let alive = 0;
  for (let p = 0; p < keptIds.length; p++) {
    if (!keptAlive[p]) continue;
    alive++;
    const row = rowById.get(keptIds[p]!);
    if (
      row === undefined ||
      !usable[row] ||
      positionOf[row]! >= 0 ||
      digestOf(row) !== keptDigests[p]
    ) {
      lost++;
      continue;
    }
    rowOf[p] = row;
    positionOf[row] = p;
  }
  return { rowOf, positionOf, lost, alive };
}

/** A kept state opened on the current rows: how they match, and what to search. */
export interface OpenedKept {
  match: KeptMatch;
  /** The usable rows without a kept position (new or changed), ascending. */
  added: number[];
  /** The state's `changed` once the added rows are in and the lost ones out. */
  changed: number;
}

/**
 * Opens `previous` on the current rows when it can be used: its layout and settings are these,
 * its arrays agree, and the rows added and lost since it was built stay within
 * KEPT_REBUILD_SHARE of those it was built on. Null: run the search in full.
 */
export function openKept(
  previous: KeptState,
  format: number,
  settings: string,
  ids: readonly string[],
  usable: Uint8Array,
  digestOf: (row: number) => number,
): OpenedKept | null {
  if (previous.format !== format || previous.settings !== settings) return null;
  if (previous.ids.length !== previous.digests.length) return null;
  if (previous.ids.length !== previous.alive.length) return null;
  const match = matchKept(ids, usable, digestOf, previous.ids, previous.digests, previous.alive);
  const added: number[] = [];
  for (let row = 0; row < ids.length; row++)
    if (usable[row] && match.positionOf[row]! < 0) added.push(row);
  const changed = previous.changed + match.lost + added.length;
  return changed <= KEPT_REBUILD_SHARE * previous.built ? { match, added, changed } : null;
}

/** Typed arrays grown by appending (the kept structures while they are built). */
export class GrowingInt32 extends GrowingArray<Int32Array> {
  constructor() {
    super(new Int32Array(1024));
  }
}

export class GrowingFloat64 extends GrowingArray<Float64Array> {
  constructor() {
    super(new Float64Array(1024));
  }
}

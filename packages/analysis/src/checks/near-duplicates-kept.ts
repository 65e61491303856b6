// The near-duplicate search kept between runs (docs/health-checks.md, "Reruns after items are
// added"): the LSH tables' trees (each split's plane, median and spill margin; each leaf's
// members) and every verified pair, by item. On a rerun where items were only added or deleted,
// the new items descend the kept trees exactly as a full run's rows do, are verified against the
// leaves they reach (and each other), and join those leaves; the kept pairs stay, less those of
// deleted items. Every pair reported is still measured exactly.
import { createRandom, type Random } from '../random.js';
import { GrowingFloat64, GrowingInt32, type KeptMatch, type KeptState } from './kept.js';

/** Hyperplanes per table at most (bits of the bucket key). */
export const MAX_BITS = 64;
/** Layout of NearDuplicateState; a state of another layout is not used. */
export const NEAR_DUPLICATE_STATE_FORMAT = 1;
/** A kept state holds at most this many pairs per row (beyond: not kept, reruns are full runs). */
export const MAX_KEPT_PAIRS_PER_ROW = 8;

const LEAF = 0;
const ALONG = 1;
const SPLIT = 2;

/** What a near-duplicate search keeps (positions: indexes into `ids`). */
export interface NearDuplicateState extends KeptState {
  /** Mean of the unit rows the tables are centred on, and the bits of the root keys. */
  mean: Float64Array;
  base: number;
  /** Per table and root key: the node (−1: no row had that key). */
  roots: Int32Array;
  kind: Uint8Array;
  plane: Int32Array;
  median: Float64Array;
  margin: Float64Array;
  low: Int32Array;
  high: Int32Array;
  /** Leaves: their members' range in `members` (LEAF) or `alongMembers` (ALONG). */
  start: Int32Array;
  end: Int32Array;
  members: Int32Array;
  /** Members of leaves compared along the last plane, ordered by their position on it. */
  alongMembers: Int32Array;
  alongPosition: Float64Array;
  /** Verified feature pairs (a < b) and their cosine distances. */
  pairA: Int32Array;
  pairB: Int32Array;
  pairDistance: Float64Array;
}

/** A table's MAX_BITS + 1 hyperplanes (drawn in order from `random`) and their offsets. */
export function tablePlanes(
  random: Random,
  d: number,
  mean: Float64Array,
): { planes: Float32Array; offsets: Float64Array } {
  const planes = new Float32Array((MAX_BITS + 1) * d);
  for (let k = 0; k < planes.length; k++) planes[k] = random.normal();
  const offsets = new Float64Array(MAX_BITS + 1);
  for (let p = 0; p <= MAX_BITS; p++) {
    let s = 0;
    for (let k = 0; k < d; k++) s += planes[p * d + k]! * mean[k]!;
    offsets[p] = s;
  }
  return { planes, offsets };
}

export function projector(
  data: Float32Array,
  d: number,
  inverseNorm: Float64Array,
  { planes, offsets }: { planes: Float32Array; offsets: Float64Array },
) {
  return (i: number, p: number): number => {
    let s = 0;
    const oi = i * d;
    const op = p * d;
    for (let k = 0; k < d; k++) s += data[oi + k]! * planes[op + k]!;
    return s * inverseNorm[i]! - offsets[p]!;
  };
}

/** The trees of a full run's tables, as they are built (rows are recorded as positions). */
export class LshRecorder {
  readonly kind: number[] = [];
  readonly plane: number[] = [];
  readonly median: number[] = [];
  readonly margin: number[] = [];
  readonly low: number[] = [];
  readonly high: number[] = [];
  readonly start: number[] = [];
  readonly end: number[] = [];
  readonly members = new GrowingInt32();
  readonly alongMembers = new GrowingInt32();
  readonly alongPosition = new GrowingFloat64();
  roots = new Int32Array(0);
  mean: Float64Array = new Float64Array(0);
  base = 0;

  constructor(private readonly positionOf: Int32Array) {}

  begin(tables: number, base: number, mean: Float64Array): void {
    this.base = base;
    this.mean = mean;
    this.roots = new Int32Array(tables << base).fill(-1);
  }

  private node(kind: number): number {
    this.kind.push(kind);
    this.plane.push(-1);
    this.median.push(0);
    this.margin.push(0);
    this.low.push(-1);
    this.high.push(-1);
    this.start.push(0);
    this.end.push(0);
    return this.kind.length - 1;
  }

  leaf(rows: Int32Array): number {
    const node = this.node(LEAF);
    this.start[node] = this.members.length;
    for (const row of rows) this.members.push(this.positionOf[row]!);
    this.end[node] = this.members.length;
    return node;
  }

  /** `rows` in the order of `positions`, ascending. */
  along(rows: ArrayLike<number>, positions: ArrayLike<number>): number {
    const node = this.node(ALONG);
    this.start[node] = this.alongMembers.length;
    for (let x = 0; x < rows.length; x++) {
      this.alongMembers.push(this.positionOf[rows[x]!]!);
      this.alongPosition.push(positions[x]!);
    }
    this.end[node] = this.alongMembers.length;
    return node;
  }

  split(plane: number, median: number, margin: number): number {
    const node = this.node(SPLIT);
    this.plane[node] = plane;
    this.median[node] = median;
    this.margin[node] = margin;
    return node;
  }

  children(node: number, low: number, high: number): void {
    this.low[node] = low;
    this.high[node] = high;
  }
}

/** The state of a full run from its recorder, positions = the rows searched, in order. */
export function stateOf(
  recorder: LshRecorder,
  settings: string,
  ids: string[],
  digests: Uint32Array,
  pairs: { a: number[]; b: number[]; distance: number[] },
): NearDuplicateState {
  return {
    format: NEAR_DUPLICATE_STATE_FORMAT,
    settings,
    ids,
    digests,
    alive: new Uint8Array(ids.length).fill(1),
    built: ids.length,
    changed: 0,
    mean: recorder.mean,
    base: recorder.base,
    roots: recorder.roots,
    kind: Uint8Array.from(recorder.kind),
    plane: Int32Array.from(recorder.plane),
    median: Float64Array.from(recorder.median),
    margin: Float64Array.from(recorder.margin),
    low: Int32Array.from(recorder.low),
    high: Int32Array.from(recorder.high),
    start: Int32Array.from(recorder.start),
    end: Int32Array.from(recorder.end),
    members: recorder.members.toArray(),
    alongMembers: recorder.alongMembers.toArray(),
    alongPosition: recorder.alongPosition.toArray(),
    pairA: Int32Array.from(pairs.a),
    pairB: Int32Array.from(pairs.b),
    pairDistance: Float64Array.from(pairs.distance),
  };
}

export interface KeptSearch {
  state: NearDuplicateState;
  match: KeptMatch;
  /** Current rows searched: usable rows without a kept position, in row order. */
  added: Int32Array;
  ids: readonly string[];
  digestOf: (row: number) => number;
  data: Float32Array;
  d: number;
  inverseNorm: Float64Array;
  seed: number;
  tables: number;
  window: number;
  threshold: number;
  /** Cosine distance of two rows, +∞ once it is over `limit`. */
  distanceUpTo: (a: number, b: number, limit: number) => number;
  /** Every pair within the threshold (current rows), kept or found, once each. */
  note: (a: number, b: number, distance: number) => void;
}

/**
 * Searches the added rows in the kept trees, reports the kept pairs still alive and the new ones,
 * and returns the state grown by the added rows (null when it would hold too many pairs).
 */
export function searchKept(search: KeptSearch): NearDuplicateState | null {
  const { state, match, added, ids, data, d, inverseNorm, window, threshold } = search;
  const kept = state.ids.length;
  const total = kept + added.length;
  const rowOf = new Int32Array(total);
  rowOf.set(match.rowOf);
  added.forEach((row, x) => (rowOf[kept + x] = row));

  const pairA: number[] = [];
  const pairB: number[] = [];
  const pairDistance: number[] = [];
  const record = (a: number, b: number, distance: number) => {
    pairA.push(Math.min(a, b));
    pairB.push(Math.max(a, b));
    pairDistance.push(distance);
    search.note(rowOf[a]!, rowOf[b]!, distance);
  };
  for (let x = 0; x < state.pairA.length; x++) {
    const a = state.pairA[x]!;
    const b = state.pairB[x]!;
    if (rowOf[a]! >= 0 && rowOf[b]! >= 0) record(a, b, state.pairDistance[x]!);
  }
  // Pairs of an added row: each verified once, whichever tables propose it.
  const seen = new Set<number>();
  const verify = (p: number, q: number) => {
    const rq = rowOf[q]!;
    if (rq < 0 || q === p) return;
    const key = Math.min(p, q) * total + Math.max(p, q);
    if (seen.has(key)) return;
    seen.add(key);
    const distance = search.distanceUpTo(rowOf[p]!, rq, threshold);
    if (distance <= threshold) record(p, q, distance);
  };

  const kind = Array.from(state.kind);
  const start = Array.from(state.start);
  const end = Array.from(state.end);
  const roots = state.roots.slice();
  const appended = new Map<number, number[]>();
  const appendedAlong = new Map<number, { position: number; at: number }[]>();
  const alongPosition = state.alongPosition;
  const random = createRandom(search.seed);
  const base = state.base;
  for (let t = 0; t < search.tables; t++) {
    const project = projector(data, d, inverseNorm, tablePlanes(random, d, state.mean));
    const visit = (node: number, p: number, row: number): void => {
      if (kind[node] === SPLIT) {
        const position = project(row, state.plane[node]!);
        const median = state.median[node]!;
        const margin = state.margin[node]!;
        if (position <= median + margin) visit(state.low[node]!, p, row);
        if (position > median - margin) visit(state.high[node]!, p, row);
        return;
      }
      if (kind[node] === LEAF) {
        for (let x = start[node]!; x < end[node]!; x++) verify(p, state.members[x]!);
        const more = appended.get(node) ?? [];
        for (const q of more) verify(p, q);
        more.push(p);
        appended.set(node, more);
        return;
      }
      // Compared along the last plane with the `window` members on either side.
      const position = project(row, MAX_BITS);
      let lo = start[node]!;
      let hi = end[node]!;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (alongPosition[mid]! < position) lo = mid + 1;
        else hi = mid;
      }
      for (let x = Math.max(start[node]!, lo - window); x < Math.min(end[node]!, lo + window); x++)
        verify(p, state.alongMembers[x]!);
      const more = appendedAlong.get(node) ?? [];
      for (const { at } of more) verify(p, at);
      more.push({ position, at: p });
      appendedAlong.set(node, more);
    };
    for (let x = 0; x < added.length; x++) {
      const row = added[x]!;
      let code = 0;
      for (let p = 0; p < base; p++) if (project(row, p) > 0) code |= 1 << p;
      const key = (t << base) | (code >>> 0);
      if (roots[key]! < 0) {
        // No kept row had this key: a new leaf.
        kind.push(LEAF);
        start.push(0);
        end.push(0);
        roots[key] = kind.length - 1;
      }
      visit(roots[key]!, kept + x, row);
    }
  }

  if (pairA.length > MAX_KEPT_PAIRS_PER_ROW * total) return null;
  const alive = new Uint8Array(total);
  for (let p = 0; p < total; p++) alive[p] = rowOf[p]! >= 0 ? 1 : 0;
  // The leaves again, without the members no longer alive and with the added ones.
  const nodes = kind.length;
  const grow = <T extends Int32Array | Float64Array>(array: T, fill: number): T => {
    const bigger = new (array.constructor as new (n: number) => T)(nodes).fill(fill);
    bigger.set(array);
    return bigger as T;
  };
  const members = new GrowingInt32();
  const alongMembers = new GrowingInt32();
  const alongPositions = new GrowingFloat64();
  const newStart = new Int32Array(nodes);
  const newEnd = new Int32Array(nodes);
  for (let node = 0; node < nodes; node++) {
    if (kind[node] === LEAF) {
      newStart[node] = members.length;
      for (let x = start[node]!; x < end[node]!; x++)
        if (alive[state.members[x]!]) members.push(state.members[x]!);
      for (const q of appended.get(node) ?? []) members.push(q);
      newEnd[node] = members.length;
    } else if (kind[node] === ALONG) {
      const all: { position: number; at: number }[] = [];
      for (let x = start[node]!; x < end[node]!; x++)
        if (alive[state.alongMembers[x]!])
          all.push({ position: alongPosition[x]!, at: state.alongMembers[x]! });
      all.push(...(appendedAlong.get(node) ?? []));
      all.sort((a, b) => a.position - b.position);
      newStart[node] = alongMembers.length;
      for (const { position, at } of all) {
        alongMembers.push(at);
        alongPositions.push(position);
      }
      newEnd[node] = alongMembers.length;
    }
  }
  const addedIds = Array.from(added, (row) => ids[row]!);
  const digests = new Uint32Array(total);
  digests.set(state.digests);
  added.forEach((row, x) => (digests[kept + x] = search.digestOf(row)));
  return {
    ...state,
    ids: [...state.ids, ...addedIds],
    digests,
    alive,
    changed: state.changed + match.lost + added.length,
    roots,
    kind: Uint8Array.from(kind),
    plane: grow(state.plane, -1),
    median: grow(state.median, 0),
    margin: grow(state.margin, 0),
    low: grow(state.low, -1),
    high: grow(state.high, -1),
    start: newStart,
    end: newEnd,
    members: members.toArray(),
    alongMembers: alongMembers.toArray(),
    alongPosition: alongPositions.toArray(),
    pairA: Int32Array.from(pairA),
    pairB: Int32Array.from(pairB),
    pairDistance: Float64Array.from(pairDistance),
  };
}

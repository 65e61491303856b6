// Near-duplicates (docs/health-checks.md, "Duplicates"): pairs of rows whose feature vectors are
// within a cosine distance, or whose 64-bit perceptual hashes are within a Hamming distance,
// joined into groups. Below EXACT_BELOW vectors every pair is compared; above, random-hyperplane
// LSH proposes the pairs (approximate), and every proposed pair is verified exactly. The hash
// pairs are exact (pigeonhole multi-index) unless a chunk's bucket is too large to compare whole.
import { createRandom } from '../random.js';
import { openKept, rowDigest } from './kept.js';
import {
  LshRecorder,
  MAX_BITS,
  MAX_KEPT_PAIRS_PER_ROW,
  NEAR_DUPLICATE_STATE_FORMAT,
  projector,
  searchKept,
  stateOf,
  tablePlanes,
  type NearDuplicateState,
} from './near-duplicates-kept.js';
import { UnionFind, type DuplicateGroups } from './union-find.js';

export type { NearDuplicateState } from './near-duplicates-kept.js';

/** Up to this many vectors every pair is compared (8 M dot products at most). */
export const EXACT_BELOW = 4096;
/** LSH tables: each independently proposes pairs, so more find more (see the docs' recall). */
export const LSH_TABLES = 12;
/** A bucket up to this size compares all its pairs; larger ones are split further. */
export const LSH_BUCKET_SIZE = 256;
/** Where splitting cannot help (identical rows), rows are compared with this many neighbours. */
export const LSH_WINDOW = 32;
/** Rows within this many near-pair distances (√(2·threshold)) of a split go to both sides … */
export const LSH_SPILL_MARGIN = 1;
/** … but at most this share of a bucket's rows. */
const SPILL = 0.2;
/** A perceptual-hash bucket larger than this is compared within a window (approximate). */
export const HASH_BUCKET_CAP = 4096;

export interface NearDuplicateOptions {
  /** Cosine distance (1 − cos) at or below which two vectors are near-duplicates. */
  threshold: number;
  /** 1 where the row has a vector (default: every row). Zero vectors never match. */
  present?: Uint8Array;
  /** 16-hex-digit perceptual hashes per row (null: none) … */
  hashes?: readonly (string | null | undefined)[];
  /** … and the Hamming distance at or below which two rows are near-duplicates (0–32). */
  hashDistance?: number;
  seed?: number;
  exactBelow?: number;
  tables?: number;
  bucketSize?: number;
  window?: number;
  /** LSH_SPILL_MARGIN by default; 0 splits without spilling. */
  spill?: number;
  /** Every near pair found (a < b), possibly more than once; for tests and measurements. */
  onPair?: (a: number, b: number, distance: number, via: 'feature' | 'hash') => void;
  /**
   * Keep the LSH search for the next run (near-duplicates-kept.ts): `ids` name the rows; with
   * `previous` (the state of an earlier run, same settings) only the rows it does not hold are
   * searched, when it can be used (rows added and deleted since it was built at most
   * KEPT_REBUILD_SHARE of it). The result's `state` is what to keep (null: nothing to keep).
   */
  keep?: { ids: readonly string[]; previous?: NearDuplicateState | null };
}

export interface NearDuplicateResult extends DuplicateGroups {
  /**
   * Per row: cosine distance to its nearest near-duplicate found (for a pair found by hash, the
   * distance of their vectors); NaN when none is known.
   */
  distance: Float64Array;
  /** Whether some pairs may have been missed (LSH, or a perceptual-hash bucket too large). */
  approximate: boolean;
  /** With `keep`: the state for the next run (null: none, e.g. few enough rows to compare all). */
  state?: NearDuplicateState | null;
  /** With `keep`: how many rows were searched (all usable rows on a full run). */
  searched?: number;
}

/**
 * Near-duplicate groups of `rows` = data.length / dimension vectors (row-major): pairs within
 * `threshold` cosine distance or within `hashDistance` bits of perceptual hash, joined
 * transitively (union-find). Work is bounded whatever the data: per LSH table at most
 * 2 · rows · max(bucketSize, window) verified pairs (identical rows: rows · window).
 */
export function nearDuplicateGroups(
  data: Float32Array,
  dimension: number,
  options: NearDuplicateOptions,
): NearDuplicateResult {
  if (!Number.isInteger(dimension) || dimension < 1) throw new Error('dimension must be ≥ 1');
  if (data.length % dimension !== 0) throw new Error('data is not rows × dimension');
  const n = data.length / dimension;
  const { threshold, present, hashes, onPair } = options;
  if (!(threshold >= 0)) throw new Error('threshold must be a cosine distance ≥ 0');
  const union = new UnionFind(n);
  const distance = new Float64Array(n).fill(Number.NaN);
  const d = dimension;

  const inverseNorm = new Float64Array(n);
  const usable: number[] = [];
  for (let i = 0; i < n; i++) {
    if (present && !present[i]) continue;
    let s = 0;
    for (let k = i * d, end = k + d; k < end; k++) s += data[k]! * data[k]!;
    if (s > 0 && Number.isFinite(s)) {
      inverseNorm[i] = 1 / Math.sqrt(s);
      usable.push(i);
    }
  }
  // ‖â − b̂‖² / 2 = 1 − cos on the unit vectors, summed in blocks so a pair stops as soon as it
  // is over `limit`: most pairs an LSH bucket proposes are, and after a fraction of the dimensions.
  const distanceUpTo = (a: number, b: number, limit: number): number => {
    const sa = inverseNorm[a]!;
    const sb = inverseNorm[b]!;
    const oa = a * d;
    const ob = b * d;
    const bound = 2 * limit;
    let sum = 0;
    for (let k = 0; k < d;) {
      for (const end = Math.min(d, k + 16); k < end; k++) {
        const diff = data[oa + k]! * sa - data[ob + k]! * sb;
        sum += diff * diff;
      }
      if (sum > bound) return Number.POSITIVE_INFINITY;
    }
    return sum / 2;
  };
  const cosineDistance = (a: number, b: number) => distanceUpTo(a, b, Number.POSITIVE_INFINITY);
  const note = (a: number, b: number, dist: number, via: 'feature' | 'hash') => {
    union.union(a, b);
    if (!(distance[a]! <= dist)) distance[a] = dist;
    if (!(distance[b]! <= dist)) distance[b] = dist;
    onPair?.(Math.min(a, b), Math.max(a, b), dist, via);
  };
  const verify = (a: number, b: number) => {
    const dist = distanceUpTo(a, b, threshold);
    if (dist <= threshold) note(a, b, dist, 'feature');
  };

  let approximate = false;
  const rows = Int32Array.from(usable);
  const { keep } = options;
  let state: NearDuplicateState | null = null;
  let searched = rows.length;
  if (rows.length <= (options.exactBelow ?? EXACT_BELOW)) {
    for (let x = 0; x < rows.length; x++)
      for (let y = x + 1; y < rows.length; y++) verify(rows[x]!, rows[y]!);
  } else {
    approximate = true;
    const settings: LshSettings = {
      threshold,
      spill: options.spill ?? LSH_SPILL_MARGIN,
      seed: options.seed ?? 1,
      tables: options.tables ?? LSH_TABLES,
      bucketSize: Math.max(2, options.bucketSize ?? LSH_BUCKET_SIZE),
      window: Math.max(1, options.window ?? LSH_WINDOW),
    };
    const settingsKey = JSON.stringify([d, settings, MAX_BITS]);
    const digestOf = (row: number) => rowDigest(data, d, row);
    const previous = keep?.previous;
    const usableRows = new Uint8Array(keep && previous ? n : 0);
    if (keep && previous) for (const row of rows) usableRows[row] = 1;
    const opened =
      keep && previous
        ? openKept(
            previous,
            NEAR_DUPLICATE_STATE_FORMAT,
            settingsKey,
            keep.ids,
            usableRows,
            digestOf,
          )
        : null;
    if (keep && previous && opened) {
      const { match } = opened;
      const added = Int32Array.from(opened.added);
      state = searchKept({
        state: previous,
        match,
        added,
        ids: keep.ids,
        digestOf,
        data,
        d,
        inverseNorm,
        seed: settings.seed,
        tables: settings.tables,
        window: settings.window,
        threshold,
        distanceUpTo,
        note: (a, b, dist) => note(a, b, dist, 'feature'),
      });
      searched = added.length;
    } else {
      // Pairs are verified several times (once per table proposing them): kept once each.
      const positionOf = new Int32Array(n).fill(-1);
      rows.forEach((row, p) => (positionOf[row] = p));
      const recorder = keep ? new LshRecorder(positionOf) : undefined;
      const found = new Map<number, number>();
      lshPairs(
        data,
        d,
        rows,
        inverseNorm,
        keep
          ? (a, b) => {
              const dist = distanceUpTo(a, b, threshold);
              if (dist > threshold) return;
              note(a, b, dist, 'feature');
              const key = Math.min(positionOf[a]!, positionOf[b]!) * rows.length;
              found.set(key + Math.max(positionOf[a]!, positionOf[b]!), dist);
            }
          : verify,
        settings,
        recorder,
      );
      if (keep && recorder && found.size <= MAX_KEPT_PAIRS_PER_ROW * rows.length) {
        const pairs = { a: [] as number[], b: [] as number[], distance: [] as number[] };
        for (const [key, dist] of found) {
          pairs.a.push(Math.floor(key / rows.length));
          pairs.b.push(key % rows.length);
          pairs.distance.push(dist);
        }
        const ids = Array.from(rows, (row) => keep.ids[row]!);
        const digests = Uint32Array.from(rows, digestOf);
        state = stateOf(recorder, settingsKey, ids, digests, pairs);
      }
    }
  }

  if (hashes && options.hashDistance !== undefined && options.hashDistance >= 0) {
    const hashWindowed = hashPairs(hashes.slice(0, n), options.hashDistance, (a, b) => {
      const hasVectors = inverseNorm[a]! > 0 && inverseNorm[b]! > 0;
      note(a, b, hasVectors ? cosineDistance(a, b) : Number.NaN, 'hash');
    });
    approximate ||= hashWindowed;
  }

  return {
    ...union.groups(),
    distance,
    approximate,
    ...(keep ? { state, searched } : {}),
  };
}

interface LshSettings {
  threshold: number;
  spill: number;
  seed: number;
  tables: number;
  bucketSize: number;
  window: number;
}

/**
 * Proposes pairs by random-hyperplane LSH on the mean-centred unit vectors (centring spreads
 * descriptors that all point one way, such as histograms, over the hyperplanes). Each table
 * keys rows by the signs of `base` projections (buckets of about `bucketSize` where the data is
 * even), then splits any bucket over `bucketSize` at the median of its projections on one more
 * random direction — a random-projection tree, so dense regions get deeper — and sends rows near
 * the median to both halves (spill, at most 20 % of a bucket and m rows per table), so a near pair
 * is seldom cut apart. A bucket that cannot be split (identical rows) or runs out of directions
 * is compared along one more projection, each row with its next `window` rows.
 */
function lshPairs(
  data: Float32Array,
  d: number,
  rows: Int32Array,
  inverseNorm: Float64Array,
  verify: (a: number, b: number) => void,
  { threshold, spill, seed, tables, bucketSize, window }: LshSettings,
  recorder?: LshRecorder,
): void {
  const m = rows.length;
  const mean = new Float64Array(d);
  for (const i of rows) {
    const scale = inverseNorm[i]!;
    for (let k = 0; k < d; k++) mean[k]! += data[i * d + k]! * scale;
  }
  for (let k = 0; k < d; k++) mean[k]! /= m;
  const base = Math.max(1, Math.min(20, Math.floor(Math.log2(m / bucketSize))));
  const random = createRandom(seed);
  // A pair within the threshold is at most √(2·threshold) apart as unit vectors, and its
  // projections on a Gaussian direction differ by about that much.
  const spillMargin = spill * Math.sqrt(2 * threshold);
  recorder?.begin(tables, base, mean);

  for (let t = 0; t < tables; t++) {
    // MAX_BITS + 1 hyperplanes: the last orders rows of a bucket that cannot be split.
    const project = projector(data, d, inverseNorm, tablePlanes(random, d, mean));

    // Spilled rows are compared twice; a table spills at most m rows in all.
    let spillBudget = m;
    const codes = new Uint32Array(m);
    for (let x = 0; x < m; x++) {
      let code = 0;
      for (let p = 0; p < base; p++) if (project(rows[x]!, p) > 0) code |= 1 << p;
      codes[x] = code >>> 0;
    }
    const order = countingSort(codes, 1 << base);
    for (let start = 0; start < m;) {
      let end = start + 1;
      while (end < m && codes[order[end]!] === codes[order[start]!]) end++;
      const bucket = new Int32Array(end - start);
      for (let x = start; x < end; x++) bucket[x - start] = rows[order[x]!]!;
      const node = compareBucket(bucket, base);
      if (recorder) recorder.roots[(t << base) | codes[order[start]!]!] = node;
      start = end;
    }

    /** The node recorded for the bucket (−1 without a recorder). */
    function compareBucket(bucket: Int32Array, plane: number): number {
      const size = bucket.length;
      if (size <= bucketSize) {
        for (let x = 0; x < size; x++)
          for (let y = x + 1; y < size; y++) verify(bucket[x]!, bucket[y]!);
        return recorder ? recorder.leaf(bucket) : -1;
      }
      if (plane >= MAX_BITS) return compareAlong(bucket);
      // Split at the median projection (each side about half), and put rows closer to it than
      // a near pair's projections usually differ on both sides (at most SPILL of the rows).
      const position = new Float64Array(size);
      for (let x = 0; x < size; x++) position[x] = project(bucket[x]!, plane);
      const median = select(Float64Array.from(position), size >> 1);
      const gaps = Float64Array.from(position, (p) => Math.abs(p - median));
      let margin = Math.min(spillMargin, select(gaps, Math.floor(size * SPILL)));
      let spilled = 0;
      for (let x = 0; x < size; x++) if (Math.abs(position[x]! - median) < margin) spilled++;
      if (spilled > spillBudget) margin = 0;
      else spillBudget -= spilled;
      let low = 0;
      let high = 0;
      for (let x = 0; x < size; x++) {
        if (position[x]! <= median + margin) low++;
        if (position[x]! > median - margin) high++;
      }
      // Rows all but identical along the way: no split helps, compare neighbours.
      if (low === size || high === size) return compareAlong(bucket);
      const lows = new Int32Array(low);
      const highs = new Int32Array(high);
      for (let x = 0, a = 0, b = 0; x < size; x++) {
        if (position[x]! <= median + margin) lows[a++] = bucket[x]!;
        if (position[x]! > median - margin) highs[b++] = bucket[x]!;
      }
      const node = recorder ? recorder.split(plane, median, margin) : -1;
      const lowNode = compareBucket(lows, plane + 1);
      const highNode = compareBucket(highs, plane + 1);
      recorder?.children(node, lowNode, highNode);
      return node;
    }

    function compareAlong(bucket: Int32Array): number {
      const position = new Float64Array(bucket.length);
      for (let x = 0; x < bucket.length; x++) position[x] = project(bucket[x]!, MAX_BITS);
      const sorted = Array.from(bucket.keys()).sort((a, b) => position[a]! - position[b]!);
      for (let x = 0; x < sorted.length; x++)
        for (let y = x + 1; y <= x + window && y < sorted.length; y++)
          verify(bucket[sorted[x]!]!, bucket[sorted[y]!]!);
      if (!recorder) return -1;
      return recorder.along(
        sorted.map((x) => bucket[x]!),
        sorted.map((x) => position[x]!),
      );
    }
  }
}

/** The k-th smallest value (0-based) of `values`, which it reorders (quickselect, Hoare). */
function select(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k]!;
}

/** Positions 0..codes.length−1 ordered by code (stable), codes < buckets. */
function countingSort(codes: Uint32Array, buckets: number): Int32Array {
  const starts = new Int32Array(buckets + 1);
  for (const code of codes) starts[code + 1]!++;
  for (let b = 0; b < buckets; b++) starts[b + 1]! += starts[b]!;
  const order = new Int32Array(codes.length);
  for (let x = 0; x < codes.length; x++) order[starts[codes[x]!]!++] = x;
  return order;
}

const HEX16 = /^[0-9a-f]{16}$/i;

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Bits [start, end) of the 64-bit hash (hi: bits 63–32, lo: 31–0), end − start ≤ 32. */
function chunkOf(hi: number, lo: number, start: number, end: number): number {
  let value = 0;
  for (let bit = start; bit < end; bit++) {
    const word = bit < 32 ? lo : hi;
    value = value * 2 + ((word >>> (bit & 31)) & 1);
  }
  return value;
}

/**
 * Pairs of rows whose perceptual hashes differ in at most `maxDistance` bits, each reported once:
 * split the 64 bits into maxDistance + 1 chunks (at least 2); a pair within maxDistance agrees on
 * at least one chunk (pigeonhole), so comparing rows that share a chunk's value finds every pair.
 * A bucket over HASH_BUCKET_CAP rows is compared within a window of its rows ordered by hash,
 * which bounds the work; returns whether that happened (the pairs are then approximate).
 */
export function hashPairs(
  hashes: readonly (string | null | undefined)[],
  maxDistance: number,
  onPair: (a: number, b: number) => void,
  cap = HASH_BUCKET_CAP,
): boolean {
  if (!Number.isInteger(maxDistance) || maxDistance < 0 || maxDistance > 32)
    throw new Error('The hash distance must be an integer from 0 to 32');
  const hi = new Uint32Array(hashes.length);
  const lo = new Uint32Array(hashes.length);
  const valid: number[] = [];
  hashes.forEach((hash, i) => {
    if (!hash || !HEX16.test(hash)) return;
    hi[i] = parseInt(hash.slice(0, 8), 16) >>> 0;
    lo[i] = parseInt(hash.slice(8), 16) >>> 0;
    valid.push(i);
  });
  const chunks = Math.max(2, maxDistance + 1);
  const bounds = Array.from({ length: chunks + 1 }, (_, c) => Math.round((64 * c) / chunks));
  const within = (a: number, b: number) =>
    popcount32((hi[a]! ^ hi[b]!) >>> 0) + popcount32((lo[a]! ^ lo[b]!) >>> 0) <= maxDistance;
  let windowed = false;
  for (let c = 0; c < chunks; c++) {
    const keys = new Float64Array(valid.length);
    valid.forEach((i, x) => (keys[x] = chunkOf(hi[i]!, lo[i]!, bounds[c]!, bounds[c + 1]!)));
    const order = Array.from(valid.keys()).sort((a, b) => keys[a]! - keys[b]! || a - b);
    // Counted in the first chunk they agree on only.
    const firstShared = (a: number, b: number) => {
      for (let e = 0; e < c; e++) {
        const [s, t] = [bounds[e]!, bounds[e + 1]!];
        if (chunkOf(hi[a]!, lo[a]!, s, t) === chunkOf(hi[b]!, lo[b]!, s, t)) return false;
      }
      return true;
    };
    for (let start = 0; start < order.length;) {
      let end = start + 1;
      while (end < order.length && keys[order[end]!] === keys[order[start]!]) end++;
      const bucket = order.slice(start, end).map((x) => valid[x]!);
      if (bucket.length > cap) {
        windowed = true;
        bucket.sort((a, b) => hi[a]! - hi[b]! || lo[a]! - lo[b]! || a - b);
        for (let x = 0; x < bucket.length; x++)
          for (let y = x + 1; y <= x + LSH_WINDOW && y < bucket.length; y++)
            if (within(bucket[x]!, bucket[y]!) && firstShared(bucket[x]!, bucket[y]!))
              onPair(Math.min(bucket[x]!, bucket[y]!), Math.max(bucket[x]!, bucket[y]!));
      } else {
        for (let x = 0; x < bucket.length; x++)
          for (let y = x + 1; y < bucket.length; y++)
            if (within(bucket[x]!, bucket[y]!) && firstShared(bucket[x]!, bucket[y]!))
              onPair(Math.min(bucket[x]!, bucket[y]!), Math.max(bucket[x]!, bucket[y]!));
      }
      start = end;
    }
  }
  return windowed;
}

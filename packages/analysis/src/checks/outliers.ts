// Outliers within a split (docs/health-checks.md, "Outliers"): an item's score is its mean cosine
// distance to its k nearest neighbours in the same split; items whose log score is more than z
// robust standard deviations above the split's median log score are outliers. Small splits are searched exactly; a large split is
// searched against a random sample of reference items in a PCA projection (approximate).

import { allNearestNeighbours } from '../embeddings/neighbours/exact.js';
import {
  COLUMN_MULTIPLE,
  createKernels,
  createMemory,
  VECTOR_MULTIPLE,
} from '../embeddings/linalg/kernels.js';
import { createRandom } from '../random.js';
import { openKept, rowDigest, type KeptState } from './kept.js';
import {
  projectRowsWith,
  projectUnitRows,
  type Projection,
  type ProjectionFit,
} from './projection.js';
import { robustSpread } from './robust.js';

export const OUTLIER_DEFAULT_K = 10;
export const OUTLIER_DEFAULT_SENSITIVITY = 5;
/**
 * Scores are judged on a log scale, log(score + shift) with shift the split's median score (at
 * least this): neighbour distances are right-skewed (a cluster's edge scores several times its
 * centre) and the log of the tail is close to normal; the shift keeps near-duplicates (scores
 * near 0) from spreading out on the log scale.
 */
export const OUTLIER_MIN_SHIFT = 1e-6;
/**
 * Floor of the robust spread of the log scores: scores that take few distinct values (more than
 * half equal) have a MAD near 0, which would flag every item a little above the median. With
 * the default sensitivity an outlier then scores at least e · (median + shift) − shift, about
 * 4.4 times the median score.
 */
export const OUTLIER_MIN_LOG_SPREAD = 0.2;
/** A split too large for the exact search is searched against this many random references. */
export const OUTLIER_REFERENCE_COUNT = 2048;
/** Coordinates of the approximate search: PCA components plus one for the residual's length. */
export const OUTLIER_PROJECTION_DIMENSION = 32;
/** Rows the PCA of the approximate search is fitted on (a random sample). */
/** A split needs this many scored items for a median and a spread to mean anything. */
const MIN_GROUP_SIZE = 3;

export interface OutlierInput {
  /** n × dimension, row-major. */
  vectors: Float32Array;
  dimension: number;
  /** 1 where the row has a vector (default: all); rows without one are not scored. */
  present?: Uint8Array;
  /** The group (split) of each row; any integer, −1 (no split) being a group of its own. */
  groups: Int32Array;
}

export interface OutlierOptions {
  /** Neighbours per item (default OUTLIER_DEFAULT_K). */
  k?: number;
  /** z: how many robust standard deviations above the median an outlier's log score is. */
  sensitivity?: number;
  /** References of the approximate search (default OUTLIER_REFERENCE_COUNT); see exactSearchLimit. */
  referenceCount?: number;
  /** Coordinates of the approximate search (default OUTLIER_PROJECTION_DIMENSION). */
  projectionDimension?: number;
  seed?: number;
  /**
   * Keep the large splits' search for the next run (OutlierState): `ids` name the rows; with
   * `previous` (an earlier run's state, same settings) only the rows it does not hold are
   * scored, when it can be used. The result's `state` is what to keep.
   */
  keep?: { ids: readonly string[]; previous?: OutlierState | null };
}

/** Layout of OutlierState; a state of another layout is not used. */
export const OUTLIER_STATE_FORMAT = 1;

/**
 * What the outlier search of the large splits keeps between runs (positions index `ids`): the
 * projection, each large split's references (positions and projected coordinates) and every
 * scored row's score. On a rerun where every reference is still there unchanged and the rows
 * added and deleted are at most KEPT_REBUILD_SHARE of those kept, only the added rows are
 * projected and scored against the kept references: the scores are those a full run drawing the
 * same references would give. Each split's median, spread and threshold are computed again from
 * all scores; small splits (searched exactly) are searched again in full.
 */
export interface OutlierState extends KeptState {
  group: Int32Array;
  scores: Float64Array;
  mean: Float32Array;
  directions: Float32Array;
  refGroups: Int32Array;
  /** refGroups.length + 1 bounds into refPositions (and refCoords, times the coordinates). */
  refStart: Int32Array;
  refPositions: Int32Array;
  refCoords: Float32Array;
}

export interface OutlierGroup {
  group: number;
  /** Items scored. */
  size: number;
  /**
   * Median and robust standard deviation (robustSpread, floored at OUTLIER_MIN_LOG_SPREAD) of
   * log(score + shift), see OUTLIER_MIN_SHIFT.
   */
  median: number;
  spread: number;
  /** Items scoring above this are outliers. */
  threshold: number;
  exact: boolean;
}

export interface OutlierResult {
  /** Mean cosine distance to the k nearest neighbours in the row's group; NaN where not scored. */
  scores: Float64Array;
  /** 1 where the row is an outlier of its group. */
  outlier: Uint8Array;
  /** Rows scored. */
  checked: number;
  groups: OutlierGroup[];
  /** True when any group was searched against a sample of references. */
  approximate: boolean;
  /** With `keep`: the state for the next run (null: none, no split large enough). */
  state?: OutlierState | null;
  /** With `keep`: rows of the large splits scored (all of them on a full run). */
  searched?: number;
}

function checkOptions(options: OutlierOptions): Required<Omit<OutlierOptions, 'seed' | 'keep'>> {
  const k = options.k ?? OUTLIER_DEFAULT_K;
  const sensitivity = options.sensitivity ?? OUTLIER_DEFAULT_SENSITIVITY;
  const referenceCount = options.referenceCount ?? OUTLIER_REFERENCE_COUNT;
  const projectionDimension = options.projectionDimension ?? OUTLIER_PROJECTION_DIMENSION;
  if (!Number.isInteger(k) || k < 1) throw new Error('k must be a positive integer');
  if (!(sensitivity >= 0)) throw new Error('sensitivity must be a non-negative number');
  if (!Number.isInteger(referenceCount) || referenceCount <= k) {
    throw new Error('referenceCount must be an integer larger than k');
  }
  if (!Number.isInteger(projectionDimension) || projectionDimension < 2) {
    throw new Error('projectionDimension must be an integer of at least 2');
  }
  return { k, sensitivity, referenceCount, projectionDimension };
}

/** Outlier scores and flags of every row within its group (see the module comment). */
export function neighbourOutliers(
  input: OutlierInput,
  options: OutlierOptions = {},
): OutlierResult {
  const { vectors, dimension: d, groups } = input;
  const { k, sensitivity, referenceCount, projectionDimension } = checkOptions(options);
  if (!Number.isInteger(d) || d < 1) throw new Error('dimension must be a positive integer');
  if (vectors.length % d !== 0) throw new Error('vectors must hold a multiple of dimension values');
  const n = vectors.length / d;
  if (groups.length !== n) throw new Error('groups must hold one entry per row');
  if (input.present && input.present.length !== n) {
    throw new Error('present must hold one entry per row');
  }
  const members = groupMembers(groups, input.present);
  const scores = new Float64Array(n).fill(NaN);
  const outlier = new Uint8Array(n);
  const random = createRandom(options.seed ?? 0);

  const exactLimit = exactSearchLimit(d, referenceCount, projectionDimension);
  const large = [...members.values()].filter((rows) => rows.length > exactLimit);
  const { keep } = options;
  const settings = JSON.stringify([d, k, referenceCount, projectionDimension, options.seed ?? 0]);
  const digestOf = (row: number) => rowDigest(vectors, d, row, groups[row]!);
  const kept =
    keep?.previous && large.length > 0
      ? keptSearch(keep.previous, settings, keep.ids, members, exactLimit, digestOf)
      : null;
  const projection =
    large.length > 0 && !kept
      ? projectUnitRows(vectors, d, large, projectionDimension, random)
      : null;
  const recorded = keep && projection ? new OutlierRecorder() : null;

  const result: OutlierGroup[] = [];
  let checked = 0;
  let searched = 0;
  for (const [group, rows] of members) {
    if (rows.length < MIN_GROUP_SIZE) continue;
    const neighbours = Math.min(k, rows.length - 1);
    const exact = rows.length <= exactLimit;
    let groupScores: Float64Array;
    if (exact) groupScores = exactScores(vectors, d, rows, neighbours);
    else if (kept) {
      const scored = kept.score(group, rows, vectors, d, projectionDimension, neighbours);
      groupScores = scored.scores;
      searched += scored.searched;
    } else {
      const refRows = pickReferences(rows, Math.min(referenceCount, rows.length), random);
      groupScores = referenceScores(projection!, rows, neighbours, refRows);
      recorded?.group(group, rows, groupScores, refRows, projection!);
      searched += rows.length;
    }
    const shift = Math.max(robustSpread(groupScores).median, OUTLIER_MIN_SHIFT);
    const logs = robustSpread(groupScores.map((score) => Math.log(score + shift)));
    const { median } = logs;
    const spread = Math.max(logs.spread, OUTLIER_MIN_LOG_SPREAD);
    const threshold = Math.exp(median + sensitivity * spread) - shift;
    for (let i = 0; i < rows.length; i++) {
      scores[rows[i]!] = groupScores[i]!;
      if (groupScores[i]! > threshold) outlier[rows[i]!] = 1;
    }
    checked += rows.length;
    result.push({ group, size: rows.length, median, spread, threshold, exact });
  }
  result.sort((a, b) => a.group - b.group);
  let state: OutlierState | null = null;
  if (kept) state = kept.state(keep!.ids, digestOf);
  else if (recorded && keep)
    state = recorded.state(settings, keep.ids, digestOf, projectionDimension, projection!.fit);
  return {
    scores,
    outlier,
    checked,
    groups: result,
    approximate: result.some((g) => !g.exact),
    ...(keep ? { state, searched } : {}),
  };
}

/** The large groups' references and scores of a full run, as they are computed. */
class OutlierRecorder {
  private readonly rows: number[] = [];
  private readonly groupOfRows: number[] = [];
  private readonly scores: number[] = [];
  private readonly refGroups: number[] = [];
  private readonly refRows: Int32Array[] = [];
  private readonly refCoords: Float32Array[] = [];

  group(
    group: number,
    rows: Int32Array,
    scores: Float64Array,
    refRows: Int32Array,
    projection: Projection,
  ) {
    rows.forEach((row, i) => {
      this.rows.push(row);
      this.groupOfRows.push(group);
      this.scores.push(scores[i]!);
    });
    const { c, data } = projection;
    const coords = new Float32Array(refRows.length * c);
    refRows.forEach((row, i) => coords.set(data.subarray(row * c, (row + 1) * c), i * c));
    this.refGroups.push(group);
    this.refRows.push(refRows);
    this.refCoords.push(coords);
  }

  state(
    settings: string,
    ids: readonly string[],
    digestOf: (row: number) => number,
    c: number,
    fit: ProjectionFit | undefined,
  ): OutlierState {
    const positionOf = new Map<number, number>();
    this.rows.forEach((row, p) => positionOf.set(row, p));
    const refStart = new Int32Array(this.refGroups.length + 1);
    this.refRows.forEach((refs, g) => (refStart[g + 1] = refStart[g]! + refs.length));
    const refPositions = new Int32Array(refStart[this.refGroups.length]!);
    const refCoords = new Float32Array(refPositions.length * c);
    this.refRows.forEach((refs, g) => {
      refs.forEach((row, i) => (refPositions[refStart[g]! + i] = positionOf.get(row)!));
      refCoords.set(this.refCoords[g]!, refStart[g]! * c);
    });
    return {
      format: OUTLIER_STATE_FORMAT,
      settings,
      ids: this.rows.map((row) => ids[row]!),
      digests: Uint32Array.from(this.rows, digestOf),
      alive: new Uint8Array(this.rows.length).fill(1),
      built: this.rows.length,
      changed: 0,
      group: Int32Array.from(this.groupOfRows),
      scores: Float64Array.from(this.scores),
      mean: fit?.mean ?? new Float32Array(0),
      directions: fit?.directions ?? new Float32Array(0),
      refGroups: Int32Array.from(this.refGroups),
      refStart,
      refPositions,
      refCoords,
    };
  }
}

/**
 * A kept state matched to the current rows, or null when it cannot be used (other settings, a
 * reference deleted or changed, a large split without references, too many changes).
 */
function keptSearch(
  previous: OutlierState,
  settings: string,
  ids: readonly string[],
  members: Map<number, Int32Array>,
  exactLimit: number,
  digestOf: (row: number) => number,
) {
  const usable = new Uint8Array(ids.length);
  for (const rows of members.values())
    if (rows.length > exactLimit) for (const row of rows) usable[row] = 1;
  const opened = openKept(previous, OUTLIER_STATE_FORMAT, settings, ids, usable, digestOf);
  if (!opened) return null;
  const { match } = opened;
  const refsOf = new Map<number, number>();
  previous.refGroups.forEach((group, g) => refsOf.set(group, g));
  for (const [group, rows] of members) {
    if (rows.length <= exactLimit) continue;
    const g = refsOf.get(group);
    if (g === undefined) return null;
    for (let x = previous.refStart[g]!; x < previous.refStart[g + 1]!; x++)
      if (match.rowOf[previous.refPositions[x]!]! < 0) return null;
  }
  const fit: ProjectionFit | null =
    previous.directions.length > 0
      ? { mean: previous.mean, directions: previous.directions }
      : null;
  const addedRows: number[] = [];
  const addedScores: number[] = [];
  return {
    /** Scores of a large group's rows: kept ones, and the added ones against the kept references. */
    score(
      group: number,
      rows: Int32Array,
      vectors: Float32Array,
      d: number,
      c: number,
      k: number,
    ): { scores: Float64Array; searched: number } {
      const g = refsOf.get(group)!;
      const scores = new Float64Array(rows.length);
      const fresh: number[] = [];
      rows.forEach((row, i) => {
        const p = match.positionOf[row]!;
        if (p >= 0) scores[i] = previous.scores[p]!;
        else fresh.push(i);
      });
      if (fresh.length === 0) return { scores, searched: 0 };
      const coords = new Float32Array(fresh.length * c);
      projectRowsWith(
        vectors,
        d,
        fresh.map((i) => rows[i]!),
        c,
        fit,
        coords,
        (x) => x,
      );
      const from = previous.refStart[g]!;
      const to = previous.refStart[g + 1]!;
      const found = scoreAgainst(
        fresh.length,
        (x, out, at) => out.set(coords.subarray(x * c, (x + 1) * c), at),
        () => false,
        previous.refCoords.subarray(from * c, to * c),
        c,
        k,
      );
      fresh.forEach((i, x) => {
        scores[i] = found[x]!;
        addedRows.push(rows[i]!);
        addedScores.push(found[x]!);
      });
      return { scores, searched: fresh.length };
    },
    /** The state grown by the rows scored. */
    state(currentIds: readonly string[], digest: (row: number) => number): OutlierState {
      const total = previous.ids.length + addedRows.length;
      const alive = new Uint8Array(total);
      for (let p = 0; p < previous.ids.length; p++) alive[p] = match.rowOf[p]! >= 0 ? 1 : 0;
      alive.fill(1, previous.ids.length);
      const grow = <T extends Uint32Array | Int32Array | Float64Array>(
        array: T,
        more: number[],
      ): T => {
        const bigger = new (array.constructor as new (n: number) => T)(total);
        bigger.set(array);
        bigger.set(more, previous.ids.length);
        return bigger;
      };
      const groupOfRow = new Map<number, number>();
      for (const [group, rows] of members) for (const row of rows) groupOfRow.set(row, group);
      return {
        ...previous,
        ids: [...previous.ids, ...addedRows.map((row) => currentIds[row]!)],
        digests: grow(previous.digests, addedRows.map(digest)),
        alive,
        changed: previous.changed + match.lost + addedRows.length,
        group: grow(
          previous.group,
          addedRows.map((row) => groupOfRow.get(row)!),
        ),
        scores: grow(previous.scores, addedScores),
      };
    },
  };
}

/**
 * Largest split searched exactly: the exact search costs m · d / 2 multiply-adds per item (each
 * pair once), the approximate one referenceCount · projectionDimension, so up to this size the
 * exact search costs no more per item and the whole check stays within n · referenceCount ·
 * projectionDimension multiply-adds (≈ 668 items for the 196-dimensional image descriptor).
 */
export function exactSearchLimit(
  dimension: number,
  referenceCount = OUTLIER_REFERENCE_COUNT,
  projectionDimension = OUTLIER_PROJECTION_DIMENSION,
): number {
  return Math.floor((2 * referenceCount * projectionDimension) / dimension);
}

function groupMembers(
  groups: Int32Array,
  present: Uint8Array | undefined,
): Map<number, Int32Array> {
  const counts = new Map<number, number>();
  for (let i = 0; i < groups.length; i++) {
    if (present && !present[i]) continue;
    counts.set(groups[i]!, (counts.get(groups[i]!) ?? 0) + 1);
  }
  const members = new Map<number, Int32Array>();
  const filled = new Map<number, number>();
  for (const [group, count] of counts) {
    members.set(group, new Int32Array(count));
    filled.set(group, 0);
  }
  for (let i = 0; i < groups.length; i++) {
    if (present && !present[i]) continue;
    const group = groups[i]!;
    const at = filled.get(group)!;
    members.get(group)![at] = i;
    filled.set(group, at + 1);
  }
  return members;
}

/** Mean cosine distance of each row to its k nearest other rows of the group, by brute force. */
function exactScores(vectors: Float32Array, d: number, rows: Int32Array, k: number): Float64Array {
  const m = rows.length;
  const data = new Float32Array(m * d);
  for (let i = 0; i < m; i++) data.set(vectors.subarray(rows[i]! * d, rows[i]! * d + d), i * d);
  const { distances } = allNearestNeighbours(data, k, { dimension: d, metric: 'cosine' });
  const scores = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let sum = 0;
    for (let c = 0; c < k; c++) sum += distances[i * k + c]!;
    scores[i] = sum / k;
  }
  return scores;
}

/** Query rows per call of the dot-product kernel. */
const QUERY_BLOCK = 256;

/** The first `referenceCount` of `rows` shuffled (partial Fisher–Yates): a group's references. */
function pickReferences(
  rows: Int32Array,
  referenceCount: number,
  random: ReturnType<typeof createRandom>,
): Int32Array {
  const m = rows.length;
  const order = Int32Array.from(rows);
  for (let i = 0; i < referenceCount; i++) {
    const j = i + Math.floor(random.next() * (m - i));
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  return order.slice(0, referenceCount);
}

/**
 * Mean approximate cosine distance (half the squared projected distance) of each row to its k
 * nearest among `referenceCount` random rows of the group, itself excluded. The dot products
 * of a block of rows with every reference run in the PCA's WebAssembly SIMD kernel (float32
 * products, ≈ 7× the TypeScript loop); distances and the k nearest are then taken in float64.
 */
function referenceScores(
  projection: Projection,
  rows: Int32Array,
  k: number,
  refRows: Int32Array,
): Float64Array {
  const { c, data } = projection;
  const isReference = new Uint8Array(data.length / c);
  for (const row of refRows) isReference[row] = 1;
  const refs = new Float32Array(refRows.length * c);
  refRows.forEach((row, i) => refs.set(data.subarray(row * c, (row + 1) * c), i * c));
  return scoreAgainst(
    rows.length,
    (i, out, at) => out.set(data.subarray(rows[i]! * c, (rows[i]! + 1) * c), at),
    (i) => isReference[rows[i]!] === 1,
    refs,
    c,
    k,
  );
}

/**
 * Mean half squared distance of `count` query rows (written by `fill` as c coordinates) to their
 * k nearest of the references (`refs`, c coordinates each), the row itself excluded when
 * `isReference(i)`.
 */
function scoreAgainst(
  count: number,
  fill: (i: number, out: Float32Array, at: number) => void,
  isReference: (i: number) => boolean,
  refs: Float32Array,
  c: number,
  k: number,
): Float64Array {
  const m = count;
  const referenceCount = refs.length / c;
  // Kernel memory: a block of query rows (even count), the references (a multiple of
  // VECTOR_MULTIPLE; padding rows are zeros at infinite norm, never chosen), the products.
  const dp = roundUp(c, COLUMN_MULTIPLE);
  const r = roundUp(referenceCount, VECTOR_MULTIPLE);
  const queryBytes = QUERY_BLOCK * dp * 4;
  const refBytes = r * dp * 4;
  const memory = createMemory(queryBytes + refBytes + QUERY_BLOCK * r * 4);
  const kernels = createKernels(memory);
  const floats = new Float32Array(memory.buffer);
  const refAt = queryBytes / 4;
  const outAt = (queryBytes + refBytes) / 4;
  const refNorms = new Float64Array(r).fill(Infinity);
  for (let i = 0; i < referenceCount; i++) {
    let norm = 0;
    for (let j = 0; j < c; j++) {
      const v = refs[i * c + j]!;
      floats[refAt + i * dp + j] = v;
      norm += v * v;
    }
    refNorms[i] = norm;
  }

  // k + 1 nearest kept, so that the row itself (when it is a reference) can be dropped.
  const best = new SmallestValues(k + 1);
  const scores = new Float64Array(m);
  const query = new Float32Array(c);
  for (let start = 0; start < m; start += QUERY_BLOCK) {
    const count = Math.min(QUERY_BLOCK, m - start);
    floats.fill(0, 0, QUERY_BLOCK * dp);
    for (let t = 0; t < count; t++) {
      fill(start + t, query, 0);
      floats.set(query, t * dp);
    }
    kernels.project(0, count, dp, queryBytes, r, outAt * 4);
    for (let t = 0; t < count; t++) {
      let queryNorm = 0;
      for (let j = 0; j < c; j++) queryNorm += floats[t * dp + j]! * floats[t * dp + j]!;
      best.clear();
      const products = outAt + t * r;
      for (let i = 0; i < r; i++) {
        const distance = queryNorm + refNorms[i]! - 2 * floats[products + i]!;
        if (distance < best.bound) best.offer(distance);
      }
      // A reference's distance to itself is 0 (up to rounding), the smallest kept: drop it.
      const from = isReference(start + t) ? 1 : 0;
      let sum = 0;
      for (let j = from; j < from + k; j++) sum += Math.max(0, best.values[j]!) / 2;
      scores[start + t] = sum / k;
    }
  }
  return scores;
}

function roundUp(value: number, multiple: number): number {
  return Math.ceil(value / multiple) * multiple;
}

/** The `size` smallest values offered, ascending (insertion into a short sorted array). */
class SmallestValues {
  readonly values: Float64Array;
  count = 0;
  /** A value must be below this to get in. */
  bound = Infinity;

  constructor(readonly size: number) {
    this.values = new Float64Array(size);
  }

  clear(): void {
    this.count = 0;
    this.bound = Infinity;
  }

  offer(value: number): void {
    const { values, size } = this;
    let i = this.count < size ? this.count++ : size - 1;
    while (i > 0 && values[i - 1]! > value) {
      values[i] = values[i - 1]!;
      i--;
    }
    values[i] = value;
    if (this.count === size) this.bound = values[size - 1]!;
  }
}

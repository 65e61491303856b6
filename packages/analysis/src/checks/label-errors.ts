// Likely label errors (docs/health-checks.md, "Label quality"): confident learning (Northcutt,
// Jiang & Chuang, 2021) over out-of-sample class probabilities, and the same procedure over
// similarity-weighted votes of each item's nearest neighbours on a feature when there are none.
import { createAnnIndex, loadAnnIndex, type AnnIndex } from '../embeddings/neighbours/ann.js';
import { allNearestNeighbours } from '../embeddings/neighbours/exact.js';
import { createRandom } from '../random.js';
import { openKept, rowDigest, type KeptMatch, type KeptState } from './kept.js';
import { projectRowsWith, projectUnitRows, type ProjectionFit } from './projection.js';

export interface LabelIssues {
  /** Rows looked at: labelled, with finite probabilities. */
  checked: number;
  /** Flagged rows, ascending. */
  rows: Int32Array;
  /** Per flagged row: the class of largest probability (never the row's label). */
  suggested: Int32Array;
  /** Per row: the probability of its label (self-confidence); NaN for rows not checked. */
  labelQuality: Float32Array;
  /** Per class: t_j, the mean probability of j over the rows labelled j (NaN: no such row). */
  thresholds: Float64Array;
  /** classes × classes, row-major: rows labelled i (row) whose confident class is j (column). */
  confidentJoint: Int32Array;
  /**
   * classes × classes: round(n · Q[i][j]) off the diagonal (0 on it), Q the calibrated joint —
   * how many rows labelled i are taken as really being j.
   */
  pruneCounts: Int32Array;
}

/**
 * Slack on the thresholds: a probability counts as confident from t_j − 1e-6, so that rows all
 * carrying the same probability are not lost to the rounding of their mean.
 */
export const THRESHOLD_SLACK = 1e-6;

/**
 * Confident learning on `probabilities` (n × classes, row-major, out-of-sample: each row from a
 * model that did not train on it) and `labels` (n; −1 = unlabelled, skipped; rows with a
 * non-finite probability are skipped too):
 * 1. t_j = mean p_j over the rows labelled j;
 * 2. confident joint C[i][j]: rows labelled i whose classes with p ≥ t include j as the one of
 *    largest p (rows with no such class are not counted);
 * 3. calibrated so each row of C sums to the number of rows labelled i; Q = that / n;
 * 4. prune by noise rate: for each i ≠ j, the round(n · Q[i][j]) rows labelled i of largest
 *    margin p_j − p_i (ties: lower row first) are issues;
 * 5. an issue whose largest probability is its own label's is dropped (as cleanlab does).
 * Cost: O(n · classes) plus, per class i, a sort of its rows for each j with a count.
 */
export function findLabelIssues(
  probabilities: Float32Array,
  labels: Int32Array,
  classes: number,
): LabelIssues {
  if (!Number.isInteger(classes) || classes < 1) {
    throw new RangeError(`classes must be a positive integer, got ${classes}`);
  }
  const n = labels.length;
  if (probabilities.length !== n * classes) {
    throw new RangeError(
      `probabilities must hold labels.length × classes = ${n * classes} values, got ${probabilities.length}`,
    );
  }
  const C = classes;
  const p = probabilities;
  const use = new Uint8Array(n);
  const labelQuality = new Float32Array(n).fill(Number.NaN);
  const sums = new Float64Array(C);
  const counts = new Int32Array(C);
  let checked = 0;
  for (let i = 0; i < n; i++) {
    const y = labels[i]!;
    if (y === -1) continue;
    if (!Number.isInteger(y) || y < 0 || y >= C) {
      throw new RangeError(`labels[${i}] = ${y} is not a class index in [0, ${C}) or −1`);
    }
    let finite = true;
    for (let j = 0, o = i * C; j < C; j++) if (!Number.isFinite(p[o + j]!)) finite = false;
    if (!finite) continue;
    use[i] = 1;
    checked++;
    const own = p[i * C + y]!;
    labelQuality[i] = own;
    sums[y] = sums[y]! + own;
    counts[y] = counts[y]! + 1;
  }
  const thresholds = new Float64Array(C);
  for (let j = 0; j < C; j++) thresholds[j] = counts[j]! > 0 ? sums[j]! / counts[j]! : Number.NaN;

  const confidentJoint = new Int32Array(C * C);
  for (let i = 0; i < n; i++) {
    if (!use[i]) continue;
    const o = i * C;
    let best = -1;
    let bestP = -Infinity;
    for (let j = 0; j < C; j++) {
      const pj = p[o + j]!;
      // NaN thresholds (classes nobody carries) compare false: never confident.
      if (pj >= thresholds[j]! - THRESHOLD_SLACK && pj > bestP) {
        best = j;
        bestP = pj;
      }
    }
    if (best >= 0) {
      const cell = labels[i]! * C + best;
      confidentJoint[cell] = confidentJoint[cell]! + 1;
    }
  }

  const pruneCounts = new Int32Array(C * C);
  for (let i = 0; i < C; i++) {
    let rowSum = 0;
    for (let j = 0; j < C; j++) rowSum += confidentJoint[i * C + j]!;
    if (rowSum === 0) continue;
    for (let j = 0; j < C; j++) {
      if (j === i) continue;
      // n · Q[i][j] = C[i][j] · n_i / Σ_j C[i][j] (Q's total is n, as every calibrated row sums to n_i).
      pruneCounts[i * C + j] = Math.round((confidentJoint[i * C + j]! * counts[i]!) / rowSum);
    }
  }

  // Rows grouped by label (a counting sort keeps each group in row order).
  const start = new Int32Array(C + 1);
  for (let j = 0; j < C; j++) start[j + 1] = start[j]! + counts[j]!;
  const byLabel = new Int32Array(checked);
  const fill = start.slice(0, C);
  for (let i = 0; i < n; i++) if (use[i]) byLabel[fill[labels[i]!]!++] = i;

  const issue = new Uint8Array(n);
  for (let i = 0; i < C; i++) {
    const group = byLabel.subarray(start[i]!, start[i + 1]!);
    const margins = new Float64Array(group.length);
    for (let j = 0; j < C; j++) {
      const take = pruneCounts[i * C + j]!;
      if (j === i || take === 0) continue;
      if (take >= group.length) {
        for (const row of group) issue[row] = 1;
        continue;
      }
      for (let g = 0; g < group.length; g++) {
        const row = group[g]!;
        margins[g] = p[row * C + j]! - p[row * C + i]!;
      }
      const order = Int32Array.from(group.keys()).sort(
        (a, b) => margins[b]! - margins[a]! || group[a]! - group[b]!,
      );
      for (let t = 0; t < take; t++) issue[group[order[t]!]!] = 1;
    }
  }

  const rows: number[] = [];
  const suggested: number[] = [];
  for (let r = 0; r < n; r++) {
    if (!issue[r]) continue;
    const best = argmax(p, r * C, C);
    if (best === labels[r]) continue;
    rows.push(r);
    suggested.push(best);
  }
  return {
    checked,
    rows: Int32Array.from(rows),
    suggested: Int32Array.from(suggested),
    labelQuality,
    thresholds,
    confidentJoint,
    pruneCounts,
  };
}

/** Index of the largest of `count` values from `offset` (ties: the first). */
function argmax(values: Float32Array, offset: number, count: number): number {
  let best = 0;
  for (let j = 1; j < count; j++) if (values[offset + j]! > values[offset + best]!) best = j;
  return best;
}

// ---- Without predictions: votes of the nearest neighbours ------------------------------------

export interface NeighbourVoteOptions {
  /** Neighbours per row (each row excluded from its own). */
  k: number;
  /** 1 where the row has a vector (default: every row). */
  present?: Uint8Array;
  /** Added to every class's vote before normalising (default 0.01; a vote weighs at most 1). */
  smoothing?: number;
  /** Exact search up to this many voting rows (default 4,096); an ANN index (HNSW) above. */
  exactUpTo?: number;
  /** Threads building the ANN index (default 0: one per core). */
  threads?: number;
  /**
   * Keep the neighbour search for the next run: `ids` name the rows; with `previous` (an earlier
   * run's state, same settings) only the voters it does not hold are searched (see
   * NeighbourState). The result's `state` is what to keep (null: nothing, an exact search).
   */
  keep?: { ids: readonly string[]; previous?: NeighbourState | null };
}

export interface NeighbourVotes {
  /** n × classes vote shares; NaN rows for rows that neither vote nor are checked. */
  probabilities: Float32Array;
  /** True when the neighbours came from the ANN index (some true neighbours may be missed). */
  approximate: boolean;
  /** With `keep`: the state for the next run. */
  state?: NeighbourState | null;
  /** With `keep`: voters whose neighbours were searched (all of them on a full run). */
  searched?: number;
}

/** Layout of NeighbourState; a state of another layout is not used. */
export const NEIGHBOUR_STATE_FORMAT = 1;
/**
 * An added voter is searched for this many times k neighbours: the kept voters among them that
 * it is nearer to than their k-th neighbour take it into their own neighbours (with 3 · k, 89 % of
 * the voters had the votes of a full run in the tests, with 10 · k 99 %).
 */
export const REVERSE_SEARCH_FACTOR = 10;

/**
 * What the neighbour-vote search keeps between runs, by voter (positions index `ids`): the
 * projection, the HNSW index (keys: positions) and each voter's k neighbours with their distances
 * in the index and their cosine distances. On a rerun the added voters are projected with the kept
 * projection, added to the index and searched; a kept voter takes an added one into its
 * neighbours when the added voter's search finds it nearer than its k-th (reverse neighbours are
 * found from the added side: approximate, as the index is); kept voters that lost a neighbour
 * (deleted, or no longer labelled) are searched again; all others keep their neighbours. The votes
 * are then counted again with the current labels.
 */
export interface NeighbourState extends KeptState {
  k: number;
  mean: Float32Array;
  directions: Float32Array;
  index: Uint8Array;
  /** Per position, k slots: neighbour positions nearest first (−1: none) and their distances. */
  neighbours: Int32Array;
  searchDistance: Float32Array;
  cosine: Float32Array;
}

const DEFAULT_SMOOTHING = 0.01;
const DEFAULT_EXACT_UP_TO = 4096;
const ANN_BATCH_ROWS = 16_384;
const ANN_EXPANSION = 64;
/** Coordinates of the rows the approximate neighbour search runs on. */
const PROJECTED_DIMENSION = 32;

/**
 * Out-of-sample class probabilities from a feature: each labelled row with a non-zero, finite
 * vector is voted on by its k nearest such rows by cosine (itself excluded), each vote weighted
 * by its cosine similarity (negative counts 0); probabilities are the vote shares after adding
 * `smoothing` to every class. Other rows get NaN (not voters, not checked). Exact brute force up
 * to `exactUpTo` rows (n²·d/2), otherwise an HNSW index built on all cores and one search per row.
 */
export function neighbourVoteProbabilities(
  vectors: Float32Array,
  dimension: number,
  labels: Int32Array,
  classes: number,
  options: NeighbourVoteOptions,
): NeighbourVotes {
  const n = labels.length;
  const d = dimension;
  const { k, present } = options;
  const smoothing = options.smoothing ?? DEFAULT_SMOOTHING;
  if (!Number.isInteger(d) || d < 1) throw new RangeError('dimension must be a positive integer');
  if (vectors.length !== n * d) {
    throw new RangeError(`vectors must hold labels.length × dimension = ${n * d} values`);
  }
  if (!Number.isInteger(k) || k < 1) throw new RangeError('k must be a positive integer');
  if (!Number.isInteger(classes) || classes < 1) {
    throw new RangeError('classes must be a positive integer');
  }
  if (!(smoothing > 0)) throw new RangeError('smoothing must be positive');
  if (present && present.length !== n) throw new RangeError('present must hold one flag per row');

  const voters: number[] = [];
  for (let i = 0; i < n; i++) {
    const y = labels[i]!;
    if (y < 0 || y >= classes || (present && !present[i])) continue;
    let norm = 0;
    let finite = true;
    for (let j = i * d, end = j + d; j < end; j++) {
      const v = vectors[j]!;
      if (!Number.isFinite(v)) finite = false;
      norm += v * v;
    }
    if (finite && norm > 0) voters.push(i);
  }
  const m = voters.length;
  const probabilities = new Float32Array(n * classes).fill(Number.NaN);
  if (m < 2) return { probabilities, approximate: false };
  const kk = Math.min(k, m - 1);
  const votes = new Float64Array(classes);
  const vote = (neighbourRow: number, distance: number): void => {
    const similarity = 1 - distance;
    const label = labels[neighbourRow]!;
    if (similarity > 0) votes[label] = votes[label]! + similarity;
  };
  const finish = (row: number): void => {
    let total = 0;
    for (let c = 0; c < classes; c++) total += votes[c]! + smoothing;
    for (let c = 0; c < classes; c++) {
      probabilities[row * classes + c] = (votes[c]! + smoothing) / total;
      votes[c] = 0;
    }
  };

  const approximate = m > (options.exactUpTo ?? DEFAULT_EXACT_UP_TO);
  if (!approximate) {
    const compact = new Float32Array(m * d);
    for (let v = 0; v < m; v++)
      compact.set(vectors.subarray(voters[v]! * d, (voters[v]! + 1) * d), v * d);
    const all = allNearestNeighbours(compact, kk, { dimension: d, metric: 'cosine' });
    for (let v = 0; v < m; v++) {
      for (let t = 0; t < kk; t++) {
        vote(voters[all.ids[v * kk + t]!]!, all.distances[v * kk + t]!);
      }
      finish(voters[v]!);
    }
    return { probabilities, approximate };
  }

  // Neighbours are searched in a projection of the unit rows on their top principal directions
  // (PROJECTED_DIMENSION coordinates, distances ≈ those of the unit rows), which makes the index's
  // build and searches several times cheaper than in the feature's own dimension; the votes then
  // weigh each found neighbour by its exact cosine similarity. Index keys are positions in
  // `voters` (or in a kept state); searches run in blocks of rows on every thread.
  const projected = d > PROJECTED_DIMENSION;
  const c = projected ? PROJECTED_DIMENSION : d;
  const settings = JSON.stringify([d, kk, c, ANN_EXPANSION]);
  const { keep } = options;
  const norm = (row: number): number => {
    let s = 0;
    for (let j = row * d, end = j + d; j < end; j++) s += vectors[j]! * vectors[j]!;
    return Math.sqrt(s);
  };
  const cosineOfRows = (a: number, b: number, na: number, nb: number): number => {
    let dot = 0;
    const ra = a * d;
    const rb = b * d;
    for (let j = 0; j < d; j++) dot += vectors[ra + j]! * vectors[rb + j]!;
    return 1 - dot / (na * nb);
  };
  const digestOf = (row: number) => rowDigest(vectors, d, row);
  const previous = keep?.previous;
  const openVoters = (state: NeighbourState, ids: readonly string[]) => {
    const isVoter = new Uint8Array(n);
    for (const row of voters) isVoter[row] = 1;
    return openKept(state, NEIGHBOUR_STATE_FORMAT, settings, ids, isVoter, digestOf);
  };
  const opened = keep && previous ? openVoters(previous, keep.ids) : null;
  if (keep && previous && opened) {
    const { match, added } = opened;
    const kept = keptNeighbours(previous, match, Int32Array.from(added), {
      vectors,
      d,
      c,
      projected,
      kk,
      ids: keep.ids,
      threads: options.threads ?? 0,
      digestOf,
      cosine: (a, b) => (projected ? cosineOfRows(a, b, norm(a), norm(b)) : Number.NaN),
    });
    for (const row of voters) {
      const p =
        match.positionOf[row]! >= 0 ? match.positionOf[row]! : kept.positionOfAdded.get(row)!;
      for (let t = 0; t < kk; t++) {
        const q = kept.state.neighbours[p * kk + t]!;
        if (q < 0) break;
        vote(kept.rowOf[q]!, kept.state.cosine[p * kk + t]!);
      }
      finish(row);
    }
    return { probabilities, approximate, state: kept.state, searched: kept.searched };
  }

  const projection = projected
    ? projectUnitRows(vectors, d, [Int32Array.from(voters)], c, createRandom(1))
    : null;
  const rows = projection ? projection.data : vectors;
  const index = createAnnIndex({
    dimension: c,
    metric: projected ? 'euclidean' : 'cosine',
    threads: options.threads ?? 0,
    expansionAdd: ANN_EXPANSION,
    expansionSearch: ANN_EXPANSION,
  });
  const block = new Float32Array(ANN_BATCH_ROWS * c);
  const fill = (from: number, to: number): Float32Array => {
    for (let v = from; v < to; v++) {
      const row = voters[v]!;
      block.set(rows.subarray(row * c, (row + 1) * c), (v - from) * c);
    }
    return block.subarray(0, (to - from) * c);
  };
  for (let s = 0; s < m; s += ANN_BATCH_ROWS) {
    const to = Math.min(m, s + ANN_BATCH_ROWS);
    index.add(
      Array.from({ length: to - s }, (_, i) => s + i),
      fill(s, to),
    );
  }
  const norms = new Float64Array(m);
  for (let v = 0; v < m; v++) norms[v] = norm(voters[v]!);
  const cosineDistance = (a: number, b: number): number =>
    cosineOfRows(voters[a]!, voters[b]!, norms[a]!, norms[b]!);
  const lists = keep
    ? {
        neighbours: new Int32Array(m * kk).fill(-1),
        searchDistance: new Float32Array(m * kk).fill(Number.NaN),
        cosine: new Float32Array(m * kk).fill(Number.NaN),
      }
    : null;
  const wanted = kk + 1;
  for (let s = 0; s < m; s += ANN_BATCH_ROWS) {
    const to = Math.min(m, s + ANN_BATCH_ROWS);
    const found = index.searchMany(fill(s, to), wanted);
    for (let v = s; v < to; v++) {
      const q = v - s;
      let used = 0;
      for (let t = 0; t < found.counts[q]! && used < kk; t++) {
        const other = found.ids[q * wanted + t]!;
        if (other === v) continue;
        const distance = projected ? cosineDistance(v, other) : found.distances[q * wanted + t]!;
        vote(voters[other]!, distance);
        if (lists) {
          lists.neighbours[v * kk + used] = other;
          lists.searchDistance[v * kk + used] = found.distances[q * wanted + t]!;
          lists.cosine[v * kk + used] = distance;
        }
        used++;
      }
      finish(voters[v]!);
    }
  }
  if (!keep || !lists) return { probabilities, approximate };
  const state: NeighbourState = {
    format: NEIGHBOUR_STATE_FORMAT,
    settings,
    ids: voters.map((row) => keep.ids[row]!),
    digests: Uint32Array.from(voters, digestOf),
    alive: new Uint8Array(m).fill(1),
    built: m,
    changed: 0,
    k: kk,
    mean: projection?.fit?.mean ?? new Float32Array(0),
    directions: projection?.fit?.directions ?? new Float32Array(0),
    index: index.serialize(),
    ...lists,
  };
  return { probabilities, approximate, state, searched: m };
}

interface KeptSearchInput {
  vectors: Float32Array;
  d: number;
  c: number;
  projected: boolean;
  kk: number;
  ids: readonly string[];
  threads: number;
  digestOf: (row: number) => number;
  /** Cosine distance of two rows (NaN: use the index's distance, which is cosine). */
  cosine: (a: number, b: number) => number;
}

/** The kept neighbour lists brought up to date (see NeighbourState). */
function keptNeighbours(
  previous: NeighbourState,
  match: KeptMatch,
  added: Int32Array,
  { vectors, d, c, projected, kk, ids, threads, digestOf, cosine }: KeptSearchInput,
): {
  state: NeighbourState;
  rowOf: Int32Array;
  positionOfAdded: Map<number, number>;
  searched: number;
} {
  const keptCount = previous.ids.length;
  const total = keptCount + added.length;
  const rowOf = new Int32Array(total);
  rowOf.set(match.rowOf);
  const positionOfAdded = new Map<number, number>();
  added.forEach((row, x) => {
    rowOf[keptCount + x] = row;
    positionOfAdded.set(row, keptCount + x);
  });
  const index: AnnIndex = loadAnnIndex(previous.index, { threads, expansionSearch: ANN_EXPANSION });
  const fit: ProjectionFit | null = projected
    ? { mean: previous.mean, directions: previous.directions }
    : null;
  const neighbours = new Int32Array(total * kk).fill(-1);
  const searchDistance = new Float32Array(total * kk).fill(Number.NaN);
  const cosines = new Float32Array(total * kk).fill(Number.NaN);
  neighbours.set(previous.neighbours);
  searchDistance.set(previous.searchDistance);
  cosines.set(previous.cosine);

  // Positions searched: the added ones, and kept ones that lost a neighbour.
  const again: number[] = [];
  for (let p = 0; p < keptCount; p++) {
    if (rowOf[p]! < 0) continue;
    for (let t = 0; t < kk; t++) {
      const q = neighbours[p * kk + t]!;
      if (q >= 0 && rowOf[q]! < 0) {
        again.push(p);
        break;
      }
    }
  }
  const project = (positions: ArrayLike<number>): Float32Array => {
    const out = new Float32Array(positions.length * c);
    const rows = Array.from(positions, (p) => rowOf[p]!);
    if (projected || fit) projectRowsWith(vectors, d, rows, c, fit, out, (x) => x);
    else
      for (let x = 0; x < rows.length; x++)
        out.set(vectors.subarray(rows[x]! * d, (rows[x]! + 1) * d), x * c);
    return out;
  };
  const addedPositions = Array.from(added, (_, x) => keptCount + x);
  for (let s = 0; s < addedPositions.length; s += ANN_BATCH_ROWS) {
    const part = addedPositions.slice(s, s + ANN_BATCH_ROWS);
    index.add(part, project(part));
  }
  // Dead keys stay in the index (the state is rebuilt before they are many): searches ask for
  // more to make up for them.
  let dead = 0;
  for (let p = 0; p < total; p++) if (rowOf[p]! < 0) dead++;
  const extra = Math.min(dead, 2 * kk);
  const setList = (
    p: number,
    ids: Uint32Array,
    distances: Float32Array,
    from: number,
    count: number,
  ) => {
    let used = 0;
    for (let t = 0; t < count && used < kk; t++) {
      const q = ids[from + t]!;
      if (q === p || rowOf[q]! < 0) continue;
      neighbours[p * kk + used] = q;
      searchDistance[p * kk + used] = distances[from + t]!;
      const exact = cosine(rowOf[p]!, rowOf[q]!);
      cosines[p * kk + used] = Number.isNaN(exact) ? distances[from + t]! : exact;
      used++;
    }
    for (let t = used; t < kk; t++) {
      neighbours[p * kk + t] = -1;
      searchDistance[p * kk + t] = Number.NaN;
      cosines[p * kk + t] = Number.NaN;
    }
  };
  const searchedAgain = new Uint8Array(total);
  for (let s = 0; s < again.length; s += ANN_BATCH_ROWS) {
    const part = again.slice(s, s + ANN_BATCH_ROWS);
    const wanted = kk + 1 + extra;
    const found = index.searchMany(project(part), wanted);
    part.forEach((p, x) => {
      setList(p, found.ids, found.distances, x * wanted, found.counts[x]!);
      searchedAgain[p] = 1;
    });
  }
  // The added voters, with more neighbours: the kept ones among them may take them in.
  const wanted = REVERSE_SEARCH_FACTOR * kk + 1 + extra;
  for (let s = 0; s < addedPositions.length; s += ANN_BATCH_ROWS) {
    const part = addedPositions.slice(s, s + ANN_BATCH_ROWS);
    const found = index.searchMany(project(part), wanted);
    part.forEach((u, x) => {
      setList(u, found.ids, found.distances, x * wanted, found.counts[x]!);
      for (let t = 0; t < found.counts[x]!; t++) {
        const r = found.ids[x * wanted + t]!;
        if (r >= keptCount || rowOf[r]! < 0 || searchedAgain[r]) continue;
        const distance = found.distances[x * wanted + t]!;
        insertNeighbour(r, u, distance);
      }
    });
  }
  function insertNeighbour(r: number, u: number, distance: number): void {
    const o = r * kk;
    // Slots are nearest first; an empty slot (−1) takes any.
    let at = kk;
    while (at > 0 && (neighbours[o + at - 1]! < 0 || searchDistance[o + at - 1]! > distance)) at--;
    if (at >= kk) return;
    for (let t = 0; t < kk; t++) if (neighbours[o + t] === u) return;
    for (let t = kk - 1; t > at; t--) {
      neighbours[o + t] = neighbours[o + t - 1]!;
      searchDistance[o + t] = searchDistance[o + t - 1]!;
      cosines[o + t] = cosines[o + t - 1]!;
    }
    neighbours[o + at] = u;
    searchDistance[o + at] = distance;
    const exact = cosine(rowOf[r]!, rowOf[u]!);
    cosines[o + at] = Number.isNaN(exact) ? distance : exact;
  }
  // An empty slot left of a filled one is not expected, but keep lists compact anyway.
  const digests = new Uint32Array(total);
  digests.set(previous.digests);
  added.forEach((row, x) => (digests[keptCount + x] = digestOf(row)));
  const alive = new Uint8Array(total);
  for (let p = 0; p < total; p++) alive[p] = rowOf[p]! >= 0 ? 1 : 0;
  return {
    state: {
      ...previous,
      ids: [...previous.ids, ...Array.from(added, (row) => ids[row]!)],
      digests,
      alive,
      changed: previous.changed + match.lost + added.length,
      index: index.serialize(),
      neighbours,
      searchDistance,
      cosine: cosines,
    },
    rowOf,
    positionOfAdded,
    searched: added.length + again.length,
  };
}

/** Confident learning on neighbour votes (`neighbourVoteProbabilities`). */
export function findLabelIssuesByNeighbours(
  vectors: Float32Array,
  dimension: number,
  labels: Int32Array,
  classes: number,
  options: NeighbourVoteOptions,
): LabelIssues & Omit<NeighbourVotes, 'probabilities'> {
  const { probabilities, ...votes } = neighbourVoteProbabilities(
    vectors,
    dimension,
    labels,
    classes,
    options,
  );
  return { ...findLabelIssues(probabilities, labels, classes), ...votes };
}

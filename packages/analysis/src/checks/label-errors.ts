// Likely label errors (docs/health-checks.md, "Label quality"): confident learning (Northcutt,
// Jiang & Chuang, 2021) over out-of-sample class probabilities, and the same procedure over
// similarity-weighted votes of each item's nearest neighbours on a feature when there are none.
import { createAnnIndex } from '../embeddings/neighbours/ann.js';
import { allNearestNeighbours } from '../embeddings/neighbours/exact.js';
import { createRandom } from '../random.js';
import { projectUnitRows } from './projection.js';

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
}

export interface NeighbourVotes {
  /** n × classes vote shares; NaN rows for rows that neither vote nor are checked. */
  probabilities: Float32Array;
  /** True when the neighbours came from the ANN index (some true neighbours may be missed). */
  approximate: boolean;
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
  // `voters`; searches run in blocks of rows on every thread.
  const projected = d > PROJECTED_DIMENSION;
  const c = projected ? PROJECTED_DIMENSION : d;
  const rows = projected
    ? projectUnitRows(vectors, d, [Int32Array.from(voters)], c, createRandom(1)).data
    : vectors;
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
  for (let v = 0; v < m; v++) {
    let norm = 0;
    for (let j = voters[v]! * d, end = j + d; j < end; j++) norm += vectors[j]! * vectors[j]!;
    norms[v] = Math.sqrt(norm);
  }
  const cosineDistance = (a: number, b: number): number => {
    let dot = 0;
    const ra = voters[a]! * d;
    const rb = voters[b]! * d;
    for (let j = 0; j < d; j++) dot += vectors[ra + j]! * vectors[rb + j]!;
    return 1 - dot / (norms[a]! * norms[b]!);
  };
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
        vote(
          voters[other]!,
          projected ? cosineDistance(v, other) : found.distances[q * wanted + t]!,
        );
        used++;
      }
      finish(voters[v]!);
    }
  }
  return { probabilities, approximate };
}

/** Confident learning on neighbour votes (`neighbourVoteProbabilities`). */
export function findLabelIssuesByNeighbours(
  vectors: Float32Array,
  dimension: number,
  labels: Int32Array,
  classes: number,
  options: NeighbourVoteOptions,
): LabelIssues & { approximate: boolean } {
  const votes = neighbourVoteProbabilities(vectors, dimension, labels, classes, options);
  return {
    ...findLabelIssues(votes.probabilities, labels, classes),
    approximate: votes.approximate,
  };
}

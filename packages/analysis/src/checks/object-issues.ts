// Object label issues (docs/health-checks.md, "Label quality"): comparing each image's
// ground-truth boxes with a model's predicted boxes finds objects the annotation misses, boxes no
// prediction supports and boxes a confident prediction gives another class.

/** Boxes of many images, one entry per object. */
export interface ObjectBoxes {
  /** The image (sample row) of each object. */
  image: Int32Array;
  /** Class index of each object. */
  label: Int32Array;
  /** x, y, w, h per object; an object with a non-finite value has no box and is left out. */
  boxes: Float64Array;
}

export interface ScoredObjectBoxes extends ObjectBoxes {
  score: Float32Array;
}

/** Intersection over union of box `a` of `boxesA` and box `b` of `boxesB` (x, y, w, h); 0 when both are empty. */
export function boxIou(
  boxesA: ArrayLike<number>,
  a: number,
  boxesB: ArrayLike<number>,
  b: number,
): number {
  const ax = boxesA[4 * a]!;
  const ay = boxesA[4 * a + 1]!;
  const aw = boxesA[4 * a + 2]!;
  const ah = boxesA[4 * a + 3]!;
  const bx = boxesB[4 * b]!;
  const by = boxesB[4 * b + 1]!;
  const bw = boxesB[4 * b + 2]!;
  const bh = boxesB[4 * b + 3]!;
  const iw = Math.min(ax + aw, bx + bw) - Math.max(ax, bx);
  const ih = Math.min(ay + ah, by + bh) - Math.max(ay, by);
  const inter = iw > 0 && ih > 0 ? iw * ih : 0;
  const union = Math.max(0, aw) * Math.max(0, ah) + Math.max(0, bw) * Math.max(0, bh) - inter;
  return union > 0 ? inter / union : 0;
}

/** Default thresholds of the three checks (docs/health-checks.md, "Label quality"). */
export const OBJECT_ISSUE_DEFAULTS = {
  missing: { minScore: 0.6, iou: 0.3 },
  spurious: { minScore: 0.3, iou: 0.3 },
  wrongLabel: { minScore: 0.6, iou: 0.5 },
} as const;

export interface ObjectIssueOptions {
  /** Predictions below this score are not taken into account. */
  minScore?: number;
  /** The IoU threshold of the rule. */
  iou?: number;
}

export interface MissingObjects {
  /** Predicted objects looked at: with a box and a score ≥ minScore. */
  checked: number;
  /** Flagged predicted objects (rows of the predictions), ascending. */
  rows: Int32Array;
  /** Per flagged row: its largest IoU with a ground-truth box of its image (any class). */
  maxIou: Float64Array;
}

export interface SpuriousObjects {
  /** Ground-truth objects looked at: with a box, in an image with at least one predicted object. */
  checked: number;
  /** Flagged ground-truth objects, ascending. */
  rows: Int32Array;
  /** Per flagged row: its largest IoU with a prediction of score ≥ minScore (any class). */
  maxIou: Float64Array;
}

export interface WrongObjectLabels {
  /** Ground-truth objects looked at: with a box, in an image with at least one predicted object. */
  checked: number;
  /** Flagged ground-truth objects, ascending. */
  rows: Int32Array;
  /** Per flagged row: the class of the highest-scoring other-class prediction covering it. */
  suggested: Int32Array;
  /** That prediction's row, score and IoU with the ground truth. */
  prediction: Int32Array;
  score: Float32Array;
  iou: Float64Array;
}

/**
 * Confident predictions (score ≥ minScore, default 0.6) whose IoU with every ground-truth box of
 * their image is below `iou` (default 0.3): objects the annotation likely misses.
 */
export function findMissingObjects(
  truth: ObjectBoxes,
  predicted: ScoredObjectBoxes,
  options: ObjectIssueOptions = {},
): MissingObjects {
  const { minScore, iou } = { ...OBJECT_ISSUE_DEFAULTS.missing, ...options };
  const pairs = pairImages(truth, predicted);
  let checked = 0;
  const rows: number[] = [];
  const maxIous: number[] = [];
  for (let r = 0; r < pairs.predicted.rows.length; r++) {
    const p = pairs.predicted.rows[r]!;
    if (!(predicted.score[p]! >= minScore)) continue;
    checked++;
    const image = predicted.image[p]!;
    let best = 0;
    for (const g of pairs.truth.of(image))
      best = Math.max(best, boxIou(truth.boxes, g, predicted.boxes, p));
    if (best < iou) {
      rows.push(p);
      maxIous.push(best);
    }
  }
  return sortedByRow({ checked, rows, columns: { maxIou: maxIous } }, (s) => ({
    checked: s.checked,
    rows: Int32Array.from(s.rows),
    maxIou: Float64Array.from(s.columns.maxIou),
  }));
}

/**
 * Ground-truth boxes of images with predicted objects that no prediction of any class with
 * score ≥ minScore (default 0.3) overlaps with IoU ≥ `iou` (default 0.3): likely spurious.
 */
export function findSpuriousObjects(
  truth: ObjectBoxes,
  predicted: ScoredObjectBoxes,
  options: ObjectIssueOptions = {},
): SpuriousObjects {
  const { minScore, iou } = { ...OBJECT_ISSUE_DEFAULTS.spurious, ...options };
  const pairs = pairImages(truth, predicted);
  let checked = 0;
  const rows: number[] = [];
  const maxIous: number[] = [];
  for (const g of pairs.truth.rows) {
    const candidates = pairs.predicted.of(truth.image[g]!);
    if (candidates.length === 0) continue;
    checked++;
    let best = 0;
    for (const p of candidates) {
      if (predicted.score[p]! >= minScore)
        best = Math.max(best, boxIou(truth.boxes, g, predicted.boxes, p));
    }
    if (best < iou) {
      rows.push(g);
      maxIous.push(best);
    }
  }
  return sortedByRow({ checked, rows, columns: { maxIou: maxIous } }, (s) => ({
    checked: s.checked,
    rows: Int32Array.from(s.rows),
    maxIou: Float64Array.from(s.columns.maxIou),
  }));
}

/**
 * Ground-truth boxes overlapped with IoU ≥ `iou` (default 0.5) by a prediction of another class
 * with score ≥ minScore (default 0.6) and by no prediction of their own class (any score) with
 * IoU ≥ `iou`; the suggestion is the class of the highest-scoring such prediction (ties: larger
 * IoU, then lower row).
 */
export function findWrongObjectLabels(
  truth: ObjectBoxes,
  predicted: ScoredObjectBoxes,
  options: ObjectIssueOptions = {},
): WrongObjectLabels {
  const { minScore, iou } = { ...OBJECT_ISSUE_DEFAULTS.wrongLabel, ...options };
  const pairs = pairImages(truth, predicted);
  let checked = 0;
  const rows: number[] = [];
  const suggested: number[] = [];
  const prediction: number[] = [];
  const scores: number[] = [];
  const ious: number[] = [];
  for (const g of pairs.truth.rows) {
    const candidates = pairs.predicted.of(truth.image[g]!);
    if (candidates.length === 0) continue;
    checked++;
    let sameClass = false;
    let best = -1;
    let bestScore = -Infinity;
    let bestIou = 0;
    for (const p of candidates) {
      const overlap = boxIou(truth.boxes, g, predicted.boxes, p);
      if (!(overlap >= iou)) continue;
      if (predicted.label[p] === truth.label[g]) {
        sameClass = true;
        break;
      }
      const score = predicted.score[p]!;
      if (!(score >= minScore)) continue;
      if (score > bestScore || (score === bestScore && overlap > bestIou)) {
        best = p;
        bestScore = score;
        bestIou = overlap;
      }
    }
    if (sameClass || best < 0) continue;
    rows.push(g);
    suggested.push(predicted.label[best]!);
    prediction.push(best);
    scores.push(bestScore);
    ious.push(bestIou);
  }
  return sortedByRow({ checked, rows, columns: { suggested, prediction, scores, ious } }, (s) => ({
    checked: s.checked,
    rows: Int32Array.from(s.rows),
    suggested: Int32Array.from(s.columns.suggested),
    prediction: Int32Array.from(s.columns.prediction),
    score: Float32Array.from(s.columns.scores),
    iou: Float64Array.from(s.columns.ious),
  }));
}

interface ByImage {
  /** Objects with a box, grouped by image (in row order within an image). */
  rows: Int32Array;
  /** The objects with a box of one image. */
  of(image: number): Int32Array;
}

/** Both sets grouped by image (a counting sort over the images either names). */
function pairImages(
  truth: ObjectBoxes,
  predicted: ScoredObjectBoxes,
): { truth: ByImage; predicted: ByImage } {
  check(truth, 'truth');
  check(predicted, 'predicted');
  if (predicted.score.length !== predicted.image.length) {
    throw new RangeError('predicted: score must hold one value per object');
  }
  let images = 0;
  for (const image of truth.image) images = Math.max(images, image + 1);
  for (const image of predicted.image) images = Math.max(images, image + 1);
  return { truth: groupByImage(truth, images), predicted: groupByImage(predicted, images) };
}

function check(set: ObjectBoxes, name: string): void {
  const n = set.image.length;
  if (set.label.length !== n || set.boxes.length !== 4 * n) {
    throw new RangeError(`${name}: label and boxes (4 values) must be given per object`);
  }
  for (let i = 0; i < n; i++) {
    if (!Number.isInteger(set.image[i]) || set.image[i]! < 0) {
      throw new RangeError(`${name}: image[${i}] must be a row index`);
    }
  }
}

function groupByImage(set: ObjectBoxes, images: number): ByImage {
  const start = new Int32Array(images + 1);
  const hasBox = (i: number): boolean =>
    Number.isFinite(set.boxes[4 * i]!) &&
    Number.isFinite(set.boxes[4 * i + 1]!) &&
    Number.isFinite(set.boxes[4 * i + 2]!) &&
    Number.isFinite(set.boxes[4 * i + 3]!);
  const n = set.image.length;
  const boxed = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!hasBox(i)) continue;
    boxed[i] = 1;
    const next = set.image[i]! + 1;
    start[next] = start[next]! + 1;
  }
  for (let m = 0; m < images; m++) start[m + 1] = start[m + 1]! + start[m]!;
  const rows = new Int32Array(start[images]!);
  const fill = start.slice(0, images);
  for (let i = 0; i < n; i++) if (boxed[i]) rows[fill[set.image[i]!]!++] = i;
  return {
    rows,
    of: (image) =>
      image < images ? rows.subarray(start[image]!, start[image + 1]!) : new Int32Array(0),
  };
}

/** Reorders parallel result columns by ascending row (they are collected image by image). */
function sortedByRow<C extends Record<string, number[]>, R>(
  found: { checked: number; rows: number[]; columns: C },
  build: (sorted: { checked: number; rows: number[]; columns: C }) => R,
): R {
  const order = found.rows.map((_, i) => i).sort((a, b) => found.rows[a]! - found.rows[b]!);
  const columns = Object.fromEntries(
    Object.entries(found.columns).map(([name, values]) => [name, order.map((i) => values[i]!)]),
  ) as C;
  return build({ checked: found.checked, rows: order.map((i) => found.rows[i]!), columns });
}

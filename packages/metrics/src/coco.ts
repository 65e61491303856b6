// COCO evaluation for object detection (bbox) and instance segmentation (segm), giving the same
// numbers as pycocotools' COCOeval (evaluate + accumulate + summarize), with per-category results.

import {
  bboxIou,
  rleArea,
  rleBoxes,
  rleIou,
  segmentationToRle,
  type CocoSegmentation,
  type Rle,
} from './rle.js';

export type CocoId = number | string;

export interface CocoImage {
  id: CocoId;
  height: number;
  width: number;
}

export interface CocoAnnotation {
  id: CocoId;
  image_id: CocoId;
  category_id: CocoId;
  bbox?: number[];
  area?: number;
  iscrowd?: number | boolean;
  segmentation?: CocoSegmentation;
}

export interface CocoCategory {
  id: CocoId;
  name?: string;
}

/** A COCO ground-truth file: images, annotations, categories. */
export interface CocoDataset {
  images: CocoImage[];
  annotations: CocoAnnotation[];
  categories?: CocoCategory[];
}

/** One entry of a COCO results file. */
export interface CocoDetection {
  image_id: CocoId;
  category_id: CocoId;
  score: number;
  bbox?: number[];
  segmentation?: CocoSegmentation;
}

export type CocoIouType = 'bbox' | 'segm';

export interface CocoParams {
  iouThrs: Float64Array;
  recThrs: Float64Array;
  maxDets: number[];
  areaRng: [number, number][];
  areaRngLbl: string[];
}

/** numpy.linspace(start, stop, num): i*step + start, the last value exactly stop. */
function linspace(start: number, stop: number, num: number): Float64Array {
  const out = new Float64Array(num);
  const step = (stop - start) / (num - 1);
  for (let i = 0; i < num; i++) out[i] = i * step + start;
  out[num - 1] = stop;
  return out;
}

/** COCOeval's defaults for bbox and segm, bit for bit (thresholds matter at exact ties). */
export function defaultCocoParams(): CocoParams {
  return {
    iouThrs: linspace(0.5, 0.95, Math.round((0.95 - 0.5) / 0.05) + 1),
    recThrs: linspace(0, 1, Math.round((1 - 0) / 0.01) + 1),
    maxDets: [1, 10, 100],
    areaRng: [
      [0, 1e5 ** 2],
      [0, 32 ** 2],
      [32 ** 2, 96 ** 2],
      [96 ** 2, 1e5 ** 2],
    ],
    areaRngLbl: ['all', 'small', 'medium', 'large'],
  };
}

/** The 12 summary numbers, in COCOeval.summarize()'s order. */
export const COCO_STAT_NAMES = [
  'AP',
  'AP50',
  'AP75',
  'AP_small',
  'AP_medium',
  'AP_large',
  'AR1',
  'AR10',
  'AR100',
  'AR_small',
  'AR_medium',
  'AR_large',
] as const;

export interface CocoCategoryResult {
  categoryId: CocoId;
  /** AP over IoU .50:.95, area all, 100 detections; -1 when the category has no ground truth. */
  ap: number;
  ap50: number;
  ap75: number;
  ar100: number;
}

export interface CocoEvalResult {
  params: CocoParams;
  imgIds: CocoId[];
  catIds: CocoId[];
  /** precision[t][r][k][a][m] flattened, -1 where undefined, as COCOeval.eval['precision']. */
  precision: Float64Array;
  /** recall[t][k][a][m] flattened, -1 where undefined. */
  recall: Float64Array;
  /** The 12 numbers of COCOeval.stats (-1 where undefined). */
  stats: number[];
  perCategory: CocoCategoryResult[];
}

/** Invalid evaluation input, with the offending entry named. */
export class CocoInputError extends Error {
  override name = 'CocoInputError';
}

function compareIds(a: CocoId, b: CocoId): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One (image, category) cell: its ground truths and detections, prepared for matching. */
interface Cell {
  imgIndex: number;
  // Plain arrays: thousands of tiny cells, and small typed arrays cost more to allocate.
  gtIds: CocoId[];
  gtArea: number[];
  gtCrowd: number[];
  /** Detections sorted by score (stable), at most maxDets[-1]. */
  dtScore: number[];
  dtArea: number[];
  /** IoU, dt-major: iou[d * G + g], gt in original order. */
  iou: Float64Array;
}

/** What buildCell needs from evaluateCoco. */
interface CellContext {
  annotations: CocoAnnotation[];
  gtPrepared: Prepared[];
  gtArea: Float64Array;
  dtPrepared: Prepared[];
  dtScore: Float64Array;
  dtArea: Float64Array;
  maxDet: number;
  segm: boolean;
}

/** COCOeval.computeIoU for one (image, category) cell, plus what matching needs. */
function buildCell(ctx: CellContext, imgIndex: number, gts: number[], dtsAll: number[]): Cell {
  // Stable insertion sort by descending score (numpy's mergesort order), then the top maxDet.
  const dts = dtsAll.slice();
  for (let a = 1; a < dts.length; a++) {
    const v = dts[a]!;
    const score = ctx.dtScore[v]!;
    let b = a - 1;
    while (b >= 0 && ctx.dtScore[dts[b]!]! < score) {
      dts[b + 1] = dts[b]!;
      b--;
    }
    dts[b + 1] = v;
  }
  if (dts.length > ctx.maxDet) dts.length = ctx.maxDet;
  const G = gts.length;
  const D = dts.length;
  const gtIds: CocoId[] = new Array(G);
  const gtArea: number[] = new Array(G);
  const crowd: number[] = new Array(G);
  for (let g = 0; g < G; g++) {
    const ann = ctx.annotations[gts[g]!]!;
    gtIds[g] = ann.id;
    gtArea[g] = ctx.gtArea[gts[g]!]!;
    crowd[g] = ann.iscrowd ? 1 : 0;
  }
  const dtScore: number[] = new Array(D);
  const dtArea: number[] = new Array(D);
  for (let d = 0; d < D; d++) {
    dtScore[d] = ctx.dtScore[dts[d]!]!;
    dtArea[d] = ctx.dtArea[dts[d]!]!;
  }
  let iou: Float64Array;
  if (G === 0 || D === 0) iou = EMPTY;
  else if (ctx.segm) {
    const dtRles: Rle[] = new Array(D);
    for (let d = 0; d < D; d++) dtRles[d] = ctx.dtPrepared[dts[d]!]!.rle!;
    const gtRles: Rle[] = new Array(G);
    for (let g = 0; g < G; g++) gtRles[g] = ctx.gtPrepared[gts[g]!]!.rle!;
    iou = rleIou(dtRles, gtRles, crowd, rleBoxes(dtRles), rleBoxes(gtRles));
  } else {
    const dtBoxes = new Float64Array(D * 4);
    for (let d = 0; d < D; d++) dtBoxes.set(ctx.dtPrepared[dts[d]!]!.box!, d * 4);
    const gtBoxes = new Float64Array(G * 4);
    for (let g = 0; g < G; g++) gtBoxes.set(ctx.gtPrepared[gts[g]!]!.box!, g * 4);
    iou = bboxIou(dtBoxes, gtBoxes, crowd);
  }
  return { imgIndex, gtIds, gtArea, gtCrowd: crowd, dtScore, dtArea, iou };
}

const EMPTY = new Float64Array(0);

interface Prepared {
  box?: Float64Array;
  rle?: Rle;
}

function boxOf(value: number[] | undefined, what: string): Float64Array {
  if (!Array.isArray(value) || value.length < 4 || value.slice(0, 4).some((v) => !isFinite(v))) {
    throw new CocoInputError(`${what}: "bbox" must be [x, y, width, height]`);
  }
  return Float64Array.from(value.slice(0, 4));
}

/**
 * Evaluates detections against a COCO ground truth the way pycocotools does:
 * `COCO(gt).loadRes(dt)` then `COCOeval(gt, dt, iouType)` `.evaluate()` `.accumulate()`
 * `.summarize()`. Conventions kept on purpose, because users compare the numbers:
 * - results whose first entry has a non-empty `bbox` take their area from that box, even for segm;
 * - a ground truth's `ignore` is its `iscrowd`; its area is the file's `area`;
 * - ground-truth ids of 0 never count as a match (COCOeval stores matches as ids, 0 = none).
 */
export function evaluateCoco(
  gt: CocoDataset,
  dt: readonly CocoDetection[],
  iouType: CocoIouType,
  params: CocoParams = defaultCocoParams(),
): CocoEvalResult {
  return evaluatePreparedCoco(prepareCoco(gt, dt, iouType, params));
}

/**
 * The image-by-image half of evaluateCoco (loading, IoUs of every image and category), kept so
 * that any subset of the images can then be evaluated without computing them again.
 */
export interface PreparedCoco {
  readonly params: CocoParams;
  readonly imgIds: readonly CocoId[];
  readonly catIds: readonly CocoId[];
  /** Per category, its (image, category) cells in image order. */
  readonly cellsByCat: readonly (readonly Cell[])[];
}

/** Loads and checks the inputs and computes every IoU, as evaluateCoco does before accumulating. */
export function prepareCoco(
  gt: CocoDataset,
  dt: readonly CocoDetection[],
  iouType: CocoIouType,
  params: CocoParams = defaultCocoParams(),
): PreparedCoco {
  const imgIds = [...new Set(gt.images.map((image) => image.id))].sort(compareIds);
  const imgIndex = new Map<CocoId, number>(imgIds.map((id, i) => [id, i]));
  const imgSize = new Map<CocoId, CocoImage>(gt.images.map((image) => [image.id, image]));
  const catSource =
    gt.categories && gt.categories.length > 0
      ? gt.categories.map((c) => c.id)
      : gt.annotations.map((a) => a.category_id);
  const catIds = [...new Set(catSource)].sort(compareIds);
  const catIndex = new Map<CocoId, number>(catIds.map((id, k) => [id, k]));
  const K = catIds.length;
  const I = imgIds.length;
  const segm = iouType === 'segm';

  const cellKey = (i: number, k: number): number => k * I + i;
  const gtByCell = new Map<number, number[]>();
  const dtByCell = new Map<number, number[]>();
  const push = (map: Map<number, number[]>, key: number, index: number): void => {
    const list = map.get(key);
    if (list) list.push(index);
    else map.set(key, [index]);
  };

  const maskOf = (
    segmentation: CocoSegmentation | undefined,
    imageId: CocoId,
    what: string,
  ): Rle => {
    const image = imgSize.get(imageId)!;
    if (segmentation === undefined || segmentation === null) {
      throw new CocoInputError(`${what}: "segmentation" is missing`);
    }
    try {
      return segmentationToRle(segmentation, image.height, image.width);
    } catch (error) {
      throw new CocoInputError(`${what}: invalid "segmentation" (${(error as Error).message})`);
    }
  };

  // Ground truths.
  const gtPrepared: Prepared[] = new Array(gt.annotations.length);
  const gtArea = new Float64Array(gt.annotations.length);
  gt.annotations.forEach((ann, index) => {
    const what = `ground truth annotation ${index} (id ${String(ann.id)})`;
    const i = imgIndex.get(ann.image_id);
    const k = catIndex.get(ann.category_id);
    if (i === undefined) throw new CocoInputError(`${what}: unknown image_id ${ann.image_id}`);
    if (k === undefined) return;
    const prepared: Prepared = {};
    if (segm) prepared.rle = maskOf(ann.segmentation, ann.image_id, what);
    else prepared.box = boxOf(ann.bbox, what);
    gtPrepared[index] = prepared;
    // The file's area decides the area range; computing one is only a fallback for files without.
    gtArea[index] =
      typeof ann.area === 'number'
        ? ann.area
        : segm
          ? rleArea(prepared.rle!)
          : prepared.box![2]! * prepared.box![3]!;
    push(gtByCell, cellKey(i, k), index);
  });

  // Detections, as COCO.loadRes: the first result decides how areas are computed.
  const first = dt[0];
  const areaFromBox = first !== undefined && Array.isArray(first.bbox) && first.bbox.length > 0;
  const dtPrepared: Prepared[] = new Array(dt.length);
  const dtArea = new Float64Array(dt.length);
  const dtScore = new Float64Array(dt.length);
  dt.forEach((det, index) => {
    const what = `detection ${index}`;
    const i = imgIndex.get(det.image_id);
    if (i === undefined) {
      throw new CocoInputError(
        `${what}: image_id ${String(det.image_id)} is not an image of the ground truth`,
      );
    }
    if (typeof det.score !== 'number' || !isFinite(det.score)) {
      throw new CocoInputError(`${what}: "score" must be a number`);
    }
    const k = catIndex.get(det.category_id);
    if (k === undefined) return;
    const prepared: Prepared = {};
    if (segm) prepared.rle = maskOf(det.segmentation, det.image_id, what);
    else prepared.box = boxOf(det.bbox, what);
    if (areaFromBox) {
      const box = prepared.box ?? boxOf(det.bbox, what);
      dtArea[index] = box[2]! * box[3]!;
    } else {
      dtArea[index] = rleArea(prepared.rle ?? maskOf(det.segmentation, det.image_id, what));
    }
    dtPrepared[index] = prepared;
    dtScore[index] = det.score;
    push(dtByCell, cellKey(i, k), index);
  });

  // computeIoU for every non-empty cell, grouped by category and in image order.
  const maxDet = params.maxDets[params.maxDets.length - 1]!;
  const cellsByCat: Cell[][] = Array.from({ length: K }, () => []);
  const keys = [...new Set([...gtByCell.keys(), ...dtByCell.keys()])].sort((a, b) => a - b);
  const ctx: CellContext = {
    annotations: gt.annotations,
    gtPrepared,
    gtArea,
    dtPrepared,
    dtScore,
    dtArea,
    maxDet,
    segm,
  };
  const none: number[] = [];
  for (const key of keys) {
    const k = Math.floor(key / I);
    const cell = buildCell(ctx, key - k * I, gtByCell.get(key) ?? none, dtByCell.get(key) ?? none);
    cellsByCat[k]!.push(cell);
  }
  return { params, imgIds, catIds, cellsByCat };
}

/**
 * COCOeval's accumulate and summarize over prepared cells: all images, or only those whose id is
 * in `imageIds`, which gives the same numbers as evaluateCoco on a ground truth restricted to
 * those images and their annotations and detections.
 */
export function evaluatePreparedCoco(
  prepared: PreparedCoco,
  imageIds?: ReadonlySet<CocoId>,
): CocoEvalResult {
  const { params, catIds } = prepared;
  let imgIds = [...prepared.imgIds];
  let cellsByCat = prepared.cellsByCat as Cell[][];
  if (imageIds) {
    const keep = imgIds.map((id) => imageIds.has(id));
    imgIds = imgIds.filter((_, i) => keep[i]);
    cellsByCat = cellsByCat.map((cells) => cells.filter((cell) => keep[cell.imgIndex]));
  }
  const K = catIds.length;
  const { precision, recall } = accumulate(cellsByCat, params);
  const stats = summarize(precision, recall, params, K);
  const T = params.iouThrs.length;
  const R = params.recThrs.length;
  const A = params.areaRng.length;
  const M = params.maxDets.length;
  const m100 = params.maxDets.indexOf(100);
  const t50 = params.iouThrs.indexOf(0.5);
  const t75 = params.iouThrs.indexOf(0.75);
  const perCategory = catIds.map((categoryId, k) => {
    const meanPrecision = (t: number | null): number => {
      let sum = 0;
      let n = 0;
      for (let ti = 0; ti < T; ti++) {
        if (t !== null && ti !== t) continue;
        for (let r = 0; r < R; r++) {
          const v = precision[(((ti * R + r) * K + k) * A + 0) * M + m100]!;
          if (v > -1) {
            sum += v;
            n++;
          }
        }
      }
      return n === 0 ? -1 : sum / n;
    };
    let sum = 0;
    let n = 0;
    for (let t = 0; t < T; t++) {
      const v = recall[((t * K + k) * A + 0) * M + m100]!;
      if (v > -1) {
        sum += v;
        n++;
      }
    }
    return {
      categoryId,
      ap: meanPrecision(null),
      ap50: t50 < 0 ? -1 : meanPrecision(t50),
      ap75: t75 < 0 ? -1 : meanPrecision(t75),
      ar100: n === 0 ? -1 : sum / n,
    };
  });
  return { params, imgIds, catIds: catIds as CocoId[], precision, recall, stats, perCategory };
}

/** Outcome flags per (threshold, detection) after COCOeval.evaluateImg. */
const TP = 1;
const FP = 2;

/** Scratch buffers for evaluateCell, sized for the largest cell, so matching allocates nothing. */
interface Scratch {
  ignored: Uint8Array;
  order: Int32Array;
  matched: Uint8Array;
}

/**
 * COCOeval.evaluateImg for one cell and area range: greedy matching of detections (by score)
 * to ground truths at every IoU threshold, crowd and out-of-range ground truths being "ignore"
 * regions. Writes flags (TP, FP or 0 = ignored) to out[base + t * stride + d]; returns the
 * number of ground truths that are not ignored.
 */
function evaluateCell(
  cell: Cell,
  aRng: [number, number],
  params: CocoParams,
  scratch: Scratch,
  out: Uint8Array,
  base: number,
  stride: number,
): number {
  const G = cell.gtIds.length;
  const D = cell.dtScore.length;
  const T = params.iouThrs.length;
  const [lo, hi] = aRng;
  const { ignored, order, matched } = scratch;
  let notIgnored = 0;
  for (let g = 0; g < G; g++) {
    const area = cell.gtArea[g]!;
    ignored[g] = cell.gtCrowd[g] || area < lo || area > hi ? 1 : 0;
    if (!ignored[g]) notIgnored++;
  }
  if (G === 0) {
    // Nothing to match: every detection is an FP unless outside the area range, at every threshold.
    for (let d = 0; d < D; d++) {
      const area = cell.dtArea[d]!;
      const flag = area < lo || area > hi ? 0 : FP;
      for (let t = 0; t < T; t++) out[base + t * stride + d] = flag;
    }
    return 0;
  }
  // Ground truths in order: not ignored first, then ignored (stable).
  let p = 0;
  for (let g = 0; g < G; g++) if (!ignored[g]) order[p++] = g;
  for (let g = 0; g < G; g++) if (ignored[g]) order[p++] = g;

  for (let t = 0; t < T; t++) {
    matched.fill(0, 0, G);
    const threshold = Math.min(params.iouThrs[t]!, 1 - 1e-10);
    const row = base + t * stride;
    for (let d = 0; d < D; d++) {
      let best = threshold;
      let m = -1;
      for (let j = 0; j < G; j++) {
        const g = order[j]!;
        if (matched[j] && !cell.gtCrowd[g]) continue;
        // Once matched to a regular ground truth, ignore regions cannot take the detection.
        if (m > -1 && !ignored[order[m]!] && ignored[g]) break;
        const iou = cell.iou[d * G + g]!;
        if (iou < best) continue;
        best = iou;
        m = j;
      }
      let flag: number;
      if (m === -1) {
        const area = cell.dtArea[d]!;
        flag = area < lo || area > hi ? 0 : FP;
      } else {
        matched[m] = 1;
        const g = order[m]!;
        // COCOeval keeps the matched gt id, and an id of 0 reads as "no match".
        if (ignored[g]) flag = 0;
        else if (cell.gtIds[g] !== 0) flag = TP;
        else {
          const area = cell.dtArea[d]!;
          flag = area < lo || area > hi ? 0 : FP;
        }
      }
      out[row + d] = flag;
    }
  }
  return notIgnored;
}

/** COCOeval.accumulate: precision at 101 recall points and final recall per category/area/maxDet. */
function accumulate(
  cellsByCat: Cell[][],
  params: CocoParams,
): { precision: Float64Array; recall: Float64Array } {
  const T = params.iouThrs.length;
  const R = params.recThrs.length;
  const K = cellsByCat.length;
  const A = params.areaRng.length;
  const M = params.maxDets.length;
  const precision = new Float64Array(T * R * K * A * M).fill(-1);
  const recall = new Float64Array(T * K * A * M).fill(-1);
  const recThrs = params.recThrs;
  let maxG = 0;
  for (const cells of cellsByCat)
    for (const cell of cells) maxG = Math.max(maxG, cell.gtIds.length);
  const scratch: Scratch = {
    ignored: new Uint8Array(maxG),
    order: new Int32Array(maxG),
    matched: new Uint8Array(maxG),
  };

  for (let k = 0; k < K; k++) {
    const cells = cellsByCat[k]!;
    if (cells.length === 0) continue;
    // The category's detections in one flat list: image order, then score order within an image.
    let totalD = 0;
    for (const cell of cells) totalD += cell.dtScore.length;
    const score = new Float64Array(totalD);
    const rank = new Int32Array(totalD);
    const offset = new Int32Array(cells.length);
    cells.forEach((cell, c) => {
      offset[c] = c === 0 ? 0 : offset[c - 1]! + cells[c - 1]!.dtScore.length;
      score.set(cell.dtScore, offset[c]!);
      for (let d = 0; d < cell.dtScore.length; d++) rank[offset[c]! + d] = d;
    });
    // Matching per area range, once for the largest maxDet (greedy by score, so the top-n
    // detections' outcomes do not depend on the ones below them).
    const flags = new Uint8Array(A * T * totalD);
    const npig = new Float64Array(A);
    for (let a = 0; a < A; a++) {
      const aRng = params.areaRng[a]!;
      cells.forEach((cell, c) => {
        npig[a]! += evaluateCell(
          cell,
          aRng,
          params,
          scratch,
          flags,
          a * T * totalD + offset[c]!,
          totalD,
        );
      });
    }
    const buffers = { tp: new Float64Array(totalD), pr: new Float64Array(totalD) };
    for (let mi = 0; mi < M; mi++) {
      const maxDet = params.maxDets[mi]!;
      // Each image's top maxDet detections, stably sorted by descending score (numpy mergesort).
      const selected: number[] = [];
      for (let g = 0; g < totalD; g++) if (rank[g]! < maxDet) selected.push(g);
      selected.sort((x, y) => score[y]! - score[x]! || x - y);
      for (let a = 0; a < A; a++) {
        const n = npig[a]!;
        if (n === 0) continue;
        for (let t = 0; t < T; t++) {
          const recallIndex = ((t * K + k) * A + a) * M + mi;
          recall[recallIndex] = sweep(
            flags,
            (a * T + t) * totalD,
            selected,
            n,
            recThrs,
            precision,
            (((t * R + 0) * K + k) * A + a) * M + mi,
            K * A * M,
            buffers,
          );
        }
      }
    }
  }
  return { precision, recall };
}

/**
 * One precision/recall curve (one category, area range, maxDet and IoU threshold): cumulative TP
 * and FP over the detections in score order (ignored ones skipped), the precision envelope, and
 * precision sampled at the recall thresholds into precision[base + r * rStride]. Returns the
 * final recall. A small function of its own so the engine optimises it early.
 */
function sweep(
  flags: Uint8Array,
  row: number,
  selected: number[],
  npig: number,
  recThrs: Float64Array,
  precision: Float64Array,
  base: number,
  rStride: number,
  buffers: { tp: Float64Array; pr: Float64Array },
): number {
  const EPS = 2.220446049250313e-16; // np.spacing(1)
  const { tp, pr } = buffers;
  const nd = selected.length;
  let tpSum = 0;
  let fpSum = 0;
  for (let j = 0; j < nd; j++) {
    const flag = flags[row + selected[j]!]!;
    if (flag === TP) tpSum++;
    else if (flag === FP) fpSum++;
    tp[j] = tpSum;
    pr[j] = tpSum / (fpSum + tpSum + EPS);
  }
  // Make precision monotonically non-increasing (the envelope), right to left.
  for (let j = nd - 1; j > 0; j--) if (pr[j]! > pr[j - 1]!) pr[j - 1] = pr[j]!;
  // For each recall threshold, the precision at the first point reaching it (0 if none).
  let j = 0;
  const R = recThrs.length;
  for (let r = 0; r < R; r++) {
    const threshold = recThrs[r]!;
    while (j < nd && tp[j]! / npig < threshold) j++;
    precision[base + r * rStride] = j < nd ? pr[j]! : 0;
  }
  return nd ? tp[nd - 1]! / npig : 0;
}

/** COCOeval.summarize: the 12 numbers (means over the defined entries, -1 when none). */
function summarize(
  precision: Float64Array,
  recall: Float64Array,
  params: CocoParams,
  K: number,
): number[] {
  const T = params.iouThrs.length;
  const R = params.recThrs.length;
  const A = params.areaRng.length;
  const M = params.maxDets.length;
  const one = (ap: boolean, iouThr: number | null, areaLbl: string, maxDets: number): number => {
    const a = params.areaRngLbl.indexOf(areaLbl);
    const m = params.maxDets.indexOf(maxDets);
    if (a < 0 || m < 0) return -1;
    let sum = 0;
    let n = 0;
    for (let t = 0; t < T; t++) {
      if (iouThr !== null && params.iouThrs[t] !== iouThr) continue;
      for (let k = 0; k < K; k++) {
        if (ap) {
          for (let r = 0; r < R; r++) {
            const v = precision[(((t * R + r) * K + k) * A + a) * M + m]!;
            if (v > -1) {
              sum += v;
              n++;
            }
          }
        } else {
          const v = recall[((t * K + k) * A + a) * M + m]!;
          if (v > -1) {
            sum += v;
            n++;
          }
        }
      }
    }
    return n === 0 ? -1 : sum / n;
  };
  const last = params.maxDets[M - 1]!;
  return [
    one(true, null, 'all', last),
    one(true, 0.5, 'all', last),
    one(true, 0.75, 'all', last),
    one(true, null, 'small', last),
    one(true, null, 'medium', last),
    one(true, null, 'large', last),
    one(false, null, 'all', params.maxDets[0]!),
    one(false, null, 'all', params.maxDets[1]!),
    one(false, null, 'all', last),
    one(false, null, 'small', last),
    one(false, null, 'medium', last),
    one(false, null, 'large', last),
  ];
}

// Object matching for the explorer's tables with a prediction set: every image's ground-truth and
// predicted objects, grouped by image, matched per image with greedyMatch at the dataset's IoU
// threshold. Object tables take each object's status and IoU, image tables each image's TP, FP
// and FN counts; both keep the objects, so a label edit re-matches only the images it touched.
import { rowIndex } from '@loupe/analysis';
import { bboxIou, greedyMatch, type ObjectCounts } from '@loupe/metrics';

/** The objects of every image of a table, ground truths before predictions within an image. */
export interface ImageObjects {
  /** Object ids (predicted ones prefixed), in this order: at object level, the table's ids. */
  readonly ids: readonly string[];
  /**
   * Image i's ground truths are objects starts[2i] to starts[2i+1] − 1, its predictions
   * starts[2i+1] to starts[2i+2] − 1.
   */
  readonly starts: Uint32Array;
  /** The image (row of the image table, in upload order) of each object. */
  readonly image: Int32Array;
  /** 1 for a predicted object. */
  readonly isPred: Uint8Array;
  /** x, y, w, h per object; NaN for an object without a box. */
  readonly box: Float64Array;
  /** Codes of the objects' labels in `labels`. */
  readonly label: Int32Array;
  readonly labels: readonly string[];
  /** Confidence of predicted objects; NaN for ground truths and predictions without one. */
  readonly score: Float64Array;
  /** The dataset IoU threshold the tables were matched at. */
  readonly iouThreshold: number;
}

/** Match status codes of objects, indexes of MATCH_STATUS (the values of prediction.match_status). */
export const MATCH_STATUS = ['TP', 'FP', 'FN'] as const;
const TP = 0;
const FP = 1;
const FN = 2;

/** Counts of one image. */
export type ImageCounts = ObjectCounts;

/** Per object its status code and IoU (NaN: none); per image its counts. */
export interface ObjectMatches {
  status: Uint8Array;
  iou: Float64Array;
  tp: Float64Array;
  fp: Float64Array;
  fn: Float64Array;
}

/** x, y, w, h; null parts: no box. */
export type Box = [number | null, number | null, number | null, number | null];

/**
 * Collects objects in any order (pages by id), then groups them by image: ground truths first,
 * then predictions, each in arrival order.
 */
export class ImageObjectsBuilder {
  private readonly ids: string[] = [];
  private readonly labelNames: string[] = [];
  private readonly labelCodes = new Map<string, number>();
  private image = new Int32Array(0);
  private isPred = new Uint8Array(0);
  private label = new Int32Array(0);
  private box = new Float64Array(0);
  private score = new Float64Array(0);

  constructor(
    private readonly numImages: number,
    capacity: number,
  ) {
    this.grow(capacity);
  }

  get size(): number {
    return this.ids.length;
  }

  private grow(needed: number): void {
    if (needed <= this.image.length) return;
    const size = Math.max(needed, this.image.length * 2);
    const copy = <T extends Int32Array | Uint8Array | Float64Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    this.image = copy(this.image, new Int32Array(size));
    this.isPred = copy(this.isPred, new Uint8Array(size));
    this.label = copy(this.label, new Int32Array(size));
    this.box = copy(this.box, new Float64Array(size * 4).fill(NaN));
    this.score = copy(this.score, new Float64Array(size).fill(NaN));
  }

  /** Adds an object of image `image`; answers its arrival index. */
  add(id: string, image: number, label: string, box: Box, pred: boolean, score: number | null) {
    const k = this.ids.length;
    this.grow(k + 1);
    this.ids.push(id);
    this.image[k] = image;
    this.isPred[k] = pred ? 1 : 0;
    let code = this.labelCodes.get(label);
    if (code === undefined) {
      code = this.labelNames.length;
      this.labelNames.push(label);
      this.labelCodes.set(label, code);
    }
    this.label[k] = code;
    if (box.every((v) => v !== null)) for (let c = 0; c < 4; c++) this.box[k * 4 + c] = box[c]!;
    if (score !== null) this.score[k] = score;
    return k;
  }

  /**
   * The grouped objects, and `order`: the arrival index of each grouped object (a stable
   * counting sort by image, then ground truth before prediction).
   */
  build(iouThreshold: number): { objects: ImageObjects; order: Uint32Array } {
    const n = this.ids.length;
    const keys = this.numImages * 2;
    const starts = new Uint32Array(keys + 1);
    for (let k = 0; k < n; k++) starts[this.image[k]! * 2 + this.isPred[k]! + 1]!++;
    for (let key = 0; key < keys; key++) starts[key + 1]! += starts[key]!;
    const order = new Uint32Array(n);
    const next = starts.slice(0, keys);
    for (let k = 0; k < n; k++) order[next[this.image[k]! * 2 + this.isPred[k]!]!++] = k;
    const ids = new Array<string>(n);
    const image = new Int32Array(n);
    const isPred = new Uint8Array(n);
    const label = new Int32Array(n);
    const box = new Float64Array(n * 4);
    const score = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const k = order[i]!;
      ids[i] = this.ids[k]!;
      image[i] = this.image[k]!;
      isPred[i] = this.isPred[k]!;
      label[i] = this.label[k]!;
      box.set(this.box.subarray(k * 4, k * 4 + 4), i * 4);
      score[i] = this.score[k]!;
    }
    const objects: ImageObjects = {
      ids,
      starts,
      image,
      isPred,
      box,
      label,
      labels: this.labelNames,
      score,
      iouThreshold,
    };
    return { objects, order };
  }
}

/** Bytes the objects hold (ids at about 48 bytes each, when asked), for the cache's budget. */
export function imageObjectsBytes(objects: ImageObjects, withIds: boolean): number {
  return (
    (withIds ? objects.ids.length * 48 : 0) +
    objects.starts.byteLength +
    objects.image.byteLength +
    objects.isPred.byteLength +
    objects.box.byteLength +
    objects.label.byteLength +
    objects.score.byteLength
  );
}

/** Number of images the objects are grouped by. */
export function imageCount(objects: ImageObjects): number {
  return (objects.starts.length - 1) / 2;
}

/** Matches every image. */
export function matchAllImages(objects: ImageObjects): ObjectMatches {
  const n = objects.ids.length;
  const numImages = imageCount(objects);
  const out: ObjectMatches = {
    status: new Uint8Array(n),
    iou: new Float64Array(n),
    tp: new Float64Array(numImages),
    fp: new Float64Array(numImages),
    fn: new Float64Array(numImages),
  };
  for (let image = 0; image < numImages; image++) {
    const counts = matchImage(objects, image, out.status, out.iou);
    out.tp[image] = counts.tp;
    out.fp[image] = counts.fp;
    out.fn[image] = counts.fn;
  }
  return out;
}

/**
 * Matches the objects of one image: writes each object's status code and IoU at its index, and answers the image's counts.
 * Objects without a box match nothing: ground truths are FN, predictions FP, without IoU. A
 * matched object's IoU is the one with its partner; an unmatched one's is its highest IoU with
 * an object of the other side and the same label (NaN when there is none). Every prediction
 * takes part, whatever its score (a missing score counts as 0 for the matching order).
 */
export function matchImage(
  objects: ImageObjects,
  image: number,
  status: Uint8Array,
  iou: Float64Array,
): ImageCounts {
  const { starts, box, score, label } = objects;
  const gtStart = starts[image * 2]!;
  const predStart = starts[image * 2 + 1]!;
  const end = starts[image * 2 + 2]!;
  const gts: number[] = [];
  const preds: number[] = [];
  for (let k = gtStart; k < end; k++) {
    iou[k] = NaN;
    if (Number.isNaN(box[k * 4]!)) status[k] = k < predStart ? FN : FP;
    else (k < predStart ? gts : preds).push(k);
  }
  const boxes = (ks: number[]) => {
    const b = new Float64Array(ks.length * 4);
    ks.forEach((k, i) => b.set(box.subarray(k * 4, k * 4 + 4), i * 4));
    return b;
  };
  const overlap = gts.length > 0 && preds.length > 0 ? bboxIou(boxes(preds), boxes(gts)) : [];
  const matching = greedyMatch(
    { gtLabel: label, predLabel: label, predScore: score },
    gts,
    preds,
    overlap,
    objects.iouThreshold,
  );
  gts.forEach((k, g) => {
    status[k] = matching.gtMatch[g] === -1 ? FN : TP;
    iou[k] = matching.gtIou[g]!;
  });
  preds.forEach((k, p) => {
    status[k] = matching.predMatch[p] === -1 ? FP : TP;
    iou[k] = matching.predIou[p]!;
  });
  return {
    tp: matching.tp,
    fp: end - predStart - matching.tp,
    fn: predStart - gtStart - matching.tp,
  };
}

/**
 * The objects after label edits (new labels by id; ids not among the objects are left out):
 * new label codes, everything else shared, and the images whose matching may change, ascending.
 */
export function relabelObjects(
  objects: ImageObjects,
  edits: ReadonlyMap<string, readonly string[]>,
): { objects: ImageObjects; images: number[] } {
  const index = rowIndex({ ids: objects.ids, length: objects.ids.length });
  const label = objects.label.slice();
  const labels = [...objects.labels];
  const images = new Set<number>();
  for (const [value, ids] of edits) {
    let code = labels.indexOf(value);
    if (code < 0) code = labels.push(value) - 1;
    for (const id of ids) {
      const k = index.get(id);
      if (k === undefined) continue;
      label[k] = code;
      images.add(objects.image[k]!);
    }
  }
  return { objects: { ...objects, label, labels }, images: [...images].sort((a, b) => a - b) };
}

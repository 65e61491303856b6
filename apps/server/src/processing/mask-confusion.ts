// Semantic segmentation label maps as numbers: a mask PNG decoded to class indexes per pixel, the
// pixel confusion of a predicted mask against its ground truth (docs/model-performance.md), and
// what one image's confusion says: per-class intersection and union, mean IoU, pixel accuracy.
// Shared by the performance loader and the mask statistics stored with each prediction.
import sharp from 'sharp';

/**
 * Pixel value → class index of a dataset's label maps (−1: no class): through its label map
 * (pixel value → class name) when it has one, else the pixel value is the class index.
 */
export function classOfPixelValue(
  classNames: readonly string[],
  labelMap: Record<string, string> | null,
): Int32Array {
  const K = classNames.length;
  const classOfValue = new Int32Array(256).fill(-1);
  if (labelMap && Object.keys(labelMap).length > 0) {
    for (const [value, name] of Object.entries(labelMap)) {
      const v = Number(value);
      if (Number.isInteger(v) && v >= 0 && v < 256) classOfValue[v] = classNames.indexOf(name);
    }
  } else for (let v = 0; v < Math.min(K, 256); v++) classOfValue[v] = v;
  return classOfValue;
}

/**
 * A label map PNG as class indexes per pixel: its first channel through `classOfValue`; −1 for
 * values of no class. Scaled to `size` (nearest pixel) when given.
 */
export async function decodeMask(
  bytes: Buffer,
  classOfValue: Int32Array,
  size?: { width: number; height: number },
): Promise<{ classes: Int32Array; width: number; height: number }> {
  let image = sharp(bytes).extractChannel(0);
  if (size) image = image.resize(size.width, size.height, { fit: 'fill', kernel: 'nearest' });
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  const classes = new Int32Array(info.width * info.height);
  const step = info.channels;
  for (let p = 0, q = 0; p < classes.length; p++, q += step) classes[p] = classOfValue[data[q]!]!;
  return { classes, width: info.width, height: info.height };
}

/**
 * The K×K pixel confusion of one image (row: truth, column: prediction). The predicted mask is
 * scaled to the truth's size (nearest pixel); pixels whose truth or prediction is no class are
 * left out. Decoding runs on libuv's threads (sharp); only the count runs here.
 */
export async function maskConfusion(
  truthBytes: Buffer,
  predictedBytes: Buffer,
  classOfValue: Int32Array,
  K: number,
): Promise<Float64Array> {
  const truth = await decodeMask(truthBytes, classOfValue);
  const pred = await decodeMask(predictedBytes, classOfValue, {
    width: truth.width,
    height: truth.height,
  });
  const counts = new Float64Array(K * K);
  for (let p = 0; p < truth.classes.length; p++) {
    const t = truth.classes[p]!;
    const q = pred.classes[p]!;
    if (t >= 0 && q >= 0) counts[t * K + q]!++;
  }
  return counts;
}

/**
 * One image's mask statistics as stored with its prediction: for each class present in its
 * truth or prediction, `[class index, intersection, union]` in pixels (class order); or why
 * there are none (a mask that cannot be read or decoded, no ground-truth mask).
 */
export type MaskStats = { counts: [number, number, number][] } | { error: string };

/** The statistics of a K×K confusion: classes with an empty union are left out. */
export function maskStatsOf(confusion: Float64Array, K: number): MaskStats {
  const counts: [number, number, number][] = [];
  for (let k = 0; k < K; k++) {
    let row = 0;
    let col = 0;
    for (let j = 0; j < K; j++) {
      row += confusion[k * K + j]!;
      col += confusion[j * K + k]!;
    }
    const intersection = confusion[k * K + k]!;
    const union = row + col - intersection;
    if (union > 0) counts.push([k, intersection, union]);
  }
  return { counts };
}

/**
 * The image's mean IoU over the classes present in its truth or prediction, and its pixel
 * accuracy (pixels of the right class over the pixels counted); null where nothing is counted.
 * Σ union = 2·pixels − Σ intersection, so the pixels counted are (Σ union + Σ intersection) / 2.
 */
export function maskScores(stats: MaskStats): {
  iou: number | null;
  pixel_accuracy: number | null;
} {
  if (!('counts' in stats) || stats.counts.length === 0) return { iou: null, pixel_accuracy: null };
  let iou = 0;
  let intersections = 0;
  let unions = 0;
  for (const [, intersection, union] of stats.counts) {
    iou += intersection / union;
    intersections += intersection;
    unions += union;
  }
  return {
    iou: iou / stats.counts.length,
    pixel_accuracy: intersections / ((unions + intersections) / 2),
  };
}

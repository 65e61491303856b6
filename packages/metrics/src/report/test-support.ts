// What the report's and the comparison's tests share: row lists, a seeded PRNG, a statistic's
// value, and object-detection evaluation data built from plain objects. Tests only.
import type { ObjectEvalData, PerformanceReport } from './index.js';

/** The report options of every task but the object tasks' own thresholds. */
export const opts = { iouThreshold: 0.5 };

export const rows = (...indexes: number[]) => Uint32Array.from(indexes);

/** mulberry32: a small seeded PRNG, so the random cases are the same on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A statistic's value in one split. */
export function statistic(report: PerformanceReport, id: string, split: string) {
  return report.statistics
    .find((s) => s.metric_name === id)!
    .values.find((v) => v.split_name === split)!.value;
}

/** An object of an image: its class index, box (x, y, w, h) and, predicted, its score. */
export interface Obj {
  image: number;
  label: number;
  box: number[];
  score?: number;
}

/** Box evaluation data of 100×100 images (each predicted unless `hasPrediction` says). */
export function objectData(
  classes: string[],
  images: number,
  gt: Obj[],
  pred: Obj[],
  hasPrediction: number[] = Array.from({ length: images }, () => 1),
): ObjectEvalData {
  return {
    kind: 'objects',
    classes,
    iouType: 'bbox',
    hasPrediction: Uint8Array.from(hasPrediction),
    imageSize: new Float64Array(2 * images).fill(100),
    gt: {
      image: Int32Array.from(gt.map((o) => o.image)),
      label: Int32Array.from(gt.map((o) => o.label)),
      box: Float64Array.from(gt.flatMap((o) => o.box)),
      rle: [],
      iscrowd: new Uint8Array(gt.length),
    },
    pred: {
      image: Int32Array.from(pred.map((o) => o.image)),
      label: Int32Array.from(pred.map((o) => o.label)),
      score: Float64Array.from(pred.map((o) => o.score ?? NaN)),
      box: Float64Array.from(pred.flatMap((o) => o.box)),
      rle: [],
    },
  };
}

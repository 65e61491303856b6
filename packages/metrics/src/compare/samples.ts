// Per-sample items of a comparison: classification (correct or not, confidence in the true
// class), regression (absolute error), speech recognition (per-utterance WER or MER) and
// semantic segmentation (IoU of each ground-truth mask, a class in an image).
import type {
  ClassEvalData,
  MaskEvalData,
  TranscriptEvalData,
  ValueEvalData,
} from '../report/index.js';
import { classProbability } from '../report/classification.js';
import { classIou } from '../report/segmentation.js';
import { utterancesOf } from '../report/transcripts.js';
import { CATEGORY } from './categories.js';
import { categoryOf, type EntityRule } from './entities.js';
import type { SectionItems } from './types.js';

function sampleItems(
  unit: SectionItems['unit'],
  sample: number[],
  category: number[],
  delta: number[],
  maskClass: number[] | null = null,
): SectionItems {
  return {
    unit,
    sample: Uint32Array.from(sample),
    groundTruth: null,
    maskClass: maskClass && Int32Array.from(maskClass),
    predictionA: null,
    predictionB: null,
    category: Uint8Array.from(category),
    subcategory: null,
    delta: Float64Array.from(delta),
    bin: null,
  };
}

/**
 * p(true class) of sample i, as the report reads a class's probability (the uploaded one; else
 * the predicted label's confidence, 1 when absent, if the label is right, its complement if
 * wrong among two classes, else 0); 0 without a prediction or an uploaded probability.
 */
export function trueClassProbability(data: ClassEvalData, i: number): number {
  const K = data.classes.length;
  const t = data.truth[i]!;
  const uploaded = data.probabilities ? data.probabilities[i * K + t]! : NaN;
  return data.pred[i]! < 0 && Number.isNaN(uploaded) ? 0 : classProbability(data, i, t, K);
}

/**
 * Samples with ground truth; a missing prediction is wrong (as in the report). A right and B
 * wrong: A is better; both right: neutral; both wrong: problematic. The difference is in the
 * confidence given to the true class.
 */
export function classificationItems(
  a: ClassEvalData,
  b: ClassEvalData,
  rows: Uint32Array,
): SectionItems {
  const n = rows.length;
  const sample = new Uint32Array(n);
  const category = new Uint8Array(n);
  const delta = new Float64Array(n);
  let m = 0;
  for (let j = 0; j < n; j++) {
    const i = rows[j]!;
    const t = a.truth[i]!;
    if (t < 0) continue;
    const rightA = a.pred[i] === t;
    const rightB = b.pred[i] === t;
    sample[m] = i;
    category[m] =
      rightA === rightB
        ? rightA
          ? CATEGORY.neutral
          : CATEGORY.problematic
        : rightA
          ? CATEGORY.aBetter
          : CATEGORY.bBetter;
    delta[m] = trueClassProbability(b, i) - trueClassProbability(a, i);
    m++;
  }
  return {
    unit: 'sample',
    sample: sample.slice(0, m),
    groundTruth: null,
    maskClass: null,
    predictionA: null,
    predictionB: null,
    category: category.slice(0, m),
    subcategory: null,
    delta: delta.slice(0, m),
    bin: null,
  };
}

const LOWER_NEVER_PROBLEMATIC: EntityRule = { direction: 'lower', worst: null };

/**
 * Absolute error of the value name v, or the mean absolute error over the value names both
 * models predicted (v = −1); NaN where there is nothing to compare.
 */
function absoluteErrors(
  a: ValueEvalData,
  b: ValueEvalData,
  i: number,
  v: number,
): [number, number] {
  const V = a.valueNames.length;
  let ea = 0;
  let eb = 0;
  let n = 0;
  for (let c = v < 0 ? 0 : v; c < (v < 0 ? V : v + 1); c++) {
    const truth = a.truth[i * V + c]!;
    const pa = a.pred[i * V + c]!;
    const pb = b.pred[i * V + c]!;
    if (Number.isNaN(truth) || Number.isNaN(pa) || Number.isNaN(pb)) continue;
    ea += Math.abs(pa - truth);
    eb += Math.abs(pb - truth);
    n++;
  }
  return n === 0 ? [NaN, NaN] : [ea / n, eb / n];
}

/**
 * Samples where both models predicted the value (any value name, when none is chosen): the
 * smaller absolute error wins, equal errors (both exact included) are neutral.
 */
export function regressionItems(
  a: ValueEvalData,
  b: ValueEvalData,
  rows: Uint32Array,
  v: number,
): SectionItems {
  const sample: number[] = [];
  const category: number[] = [];
  const delta: number[] = [];
  for (let j = 0; j < rows.length; j++) {
    const i = rows[j]!;
    const [ea, eb] = absoluteErrors(a, b, i, v);
    if (Number.isNaN(ea)) continue;
    sample.push(i);
    category.push(categoryOf(LOWER_NEVER_PROBLEMATIC, ea, eb));
    delta.push(eb - ea);
  }
  return sampleItems('sample', sample, category, delta);
}

/** Utterances both models transcribed: the lower WER (or MER) wins, equal rates are neutral. */
export function transcriptItems(
  a: TranscriptEvalData,
  b: TranscriptEvalData,
  rows: Uint32Array,
  rate: 'wer' | 'mer',
): SectionItems {
  const ua = utterancesOf(a);
  const ub = utterancesOf(b);
  const sample: number[] = [];
  const category: number[] = [];
  const delta: number[] = [];
  for (let j = 0; j < rows.length; j++) {
    const i = rows[j]!;
    const x = ua[i];
    const y = ub[i];
    if (!x || !y) continue;
    sample.push(i);
    category.push(categoryOf(LOWER_NEVER_PROBLEMATIC, x[rate], y[rate]));
    delta.push(y[rate] - x[rate]);
  }
  return sampleItems('sample', sample, category, delta);
}

const HIGHER_ZERO_PROBLEMATIC: EntityRule = { direction: 'higher', worst: 0 };

/**
 * Every ground-truth mask (a class with pixels in an image's ground truth) of the images both
 * models predicted: the higher IoU wins; equal IoUs are neutral ('Both are equal'), both 0
 * problematic ('Both are zero').
 */
export function maskItems(a: MaskEvalData, b: MaskEvalData, rows: Uint32Array): SectionItems {
  const K = a.classes.length;
  const sample: number[] = [];
  const maskClass: number[] = [];
  const category: number[] = [];
  const delta: number[] = [];
  for (let j = 0; j < rows.length; j++) {
    const i = rows[j]!;
    const ca = a.confusion[i];
    const cb = b.confusion[i];
    if (!ca || !cb) continue;
    for (let k = 0; k < K; k++) {
      let pixels = 0;
      for (let p = 0; p < K; p++) pixels += ca[k * K + p]!;
      if (pixels <= 0) continue;
      const ia = classIou(ca, K, k);
      const ib = classIou(cb, K, k);
      sample.push(i);
      maskClass.push(k);
      category.push(categoryOf(HIGHER_ZERO_PROBLEMATIC, ia, ib));
      delta.push(ib - ia);
    }
  }
  return sampleItems('mask', sample, category, delta, maskClass);
}

// Loads what a prediction set is evaluated on (docs/model-performance.md): the live samples of
// its dataset in upload order, with their ground truth and the set's predictions aligned by
// sample index, as the typed arrays of @loupe/metrics' EvalData; and each sample's split. The
// database joins samples and predictions and hands them over a page at a time, one array per
// column; values go straight into code and number arrays (labels and splits dictionary-encoded
// as they come), with a turn of the event loop between pages, so other requests are answered
// while a million samples load. Comparing two models loads both sets' labels or values in one
// pass (loadEvaluationPair): the samples' columns are read and decoded once for both.
// Classification reads its sets' predictions apart, as columns a process keeps while the set's
// version stays (prediction-columns.ts): a new data version then reads only the samples.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { TASK_TRAITS, type LabelKind, type TaskType } from '@loupe/contracts';
import {
  bboxToRle,
  rleToBbox,
  segmentationToRle,
  type CocoSegmentation,
  type EvalData,
  type Rle,
} from '@loupe/metrics';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import { classOfPixelValue, maskConfusion } from '../processing/mask-confusion.js';
import type { NumericValues } from '../samples/samples.repository.js';
import type {
  EvaluationObjectPage,
  EvaluationSampleColumns,
  EvaluationSamplePage,
  EvaluationSetColumns,
  EvaluationSetsPage,
  EvaluationTruth,
  PerformanceRepository,
} from './performance.repository.js';
import { ClassIndex } from './class-index.js';
import { ClassPredictionsCache, type ClassPredictions } from './prediction-columns.js';

/** Masks decoded at once (sharp decodes on libuv's threads). */
const MASK_CONCURRENCY = 4;
/** Object masks rasterised between two turns of the event loop. */
const RASTER_BATCH = 5_000;

/** A prediction set's evaluation data at one data version of its dataset. */
export interface Evaluation {
  datasetId: string;
  predictionSetId: string;
  task: TaskType;
  dataVersion: number;
  iouThreshold: number;
  data: EvalData;
  /** Sample ids by sample index (live samples in upload order). */
  sampleIds: string[];
  /** The split of each sample as an index into `splitNames`; −1 for none. */
  splitOf: Int32Array;
  /** The dataset's splits, ascending. */
  splitNames: string[];
  /** 1 where the sample has a prediction of the set. */
  hasPrediction: Uint8Array;
  numMissing: number;
  /** Object tasks: the ids of the ground-truth and predicted objects, by index in data.gt / data.pred. */
  objects: { gtIds: string[]; predIds: string[] } | null;
}

export interface EvaluationSource {
  repo: Pick<
    PerformanceRepository,
    | 'evaluationSamples'
    | 'evaluationSamplesOfSets'
    | 'evaluationObjects'
    | 'predictionSetVersion'
    | 'classPredictions'
    | 'classSamples'
  >;
  /** The bytes of a media reference of the dataset (masks). */
  readMedia(datasetId: string, ref: string): Promise<Buffer>;
  /** Class predictions kept between loads; without it each load reads its sets' predictions. */
  classPredictions?: ClassPredictionsCache;
}

/** What every task reads of its samples. */
interface Samples {
  ids: string[];
  /** Each sample's seq, ascending: where an object's sample is found. */
  seqs: number[];
  splitOf: Int32Array;
  splitNames: string[];
  hasPrediction: Uint8Array;
}

/** Reads the samples with the columns asked for, handing each page to `add` after its own. */
type ReadSamples = <T extends EvaluationTruth | null>(
  columns: EvaluationSampleColumns<T>,
  add: (page: EvaluationSamplePage<T>) => void,
) => Promise<Samples>;

export async function loadEvaluation(
  source: EvaluationSource,
  dataset: DatasetRecord,
  predictionSetId: string,
  onProgress: (fraction: number) => Promise<void> | void = () => {},
): Promise<Evaluation> {
  const label = TASK_TRAITS[dataset.task_type].label;
  if (label === 'class') {
    const [evaluation] = await loadClassEvaluations(source, dataset, [predictionSetId], onProgress);
    return evaluation!;
  }
  const read: ReadSamples = async (columns, add) => {
    const samples = await readSamples(source, dataset, predictionSetId, columns, add);
    await onProgress(0.2);
    return samples;
  };
  const loaded = await loadData(source, dataset, label, predictionSetId, read, onProgress);
  return evaluationOf(dataset, predictionSetId, loaded.samples, loaded.data, loaded.objects);
}

/**
 * The evaluations of two prediction sets of the dataset (as loadEvaluation loads each). Where a
 * sample's row holds all a task evaluates (labels, values), both are read in one pass over the
 * samples: their columns (ids, seqs, splits, ground truth) are read once and the two evaluations
 * share the arrays made of them (read-only); other tasks load each set in turn.
 */
export async function loadEvaluationPair(
  source: EvaluationSource,
  dataset: DatasetRecord,
  setIds: readonly [string, string],
  onProgress: (fraction: number) => Promise<void> | void = () => {},
): Promise<[Evaluation, Evaluation]> {
  const label = TASK_TRAITS[dataset.task_type].label;
  if (label === 'class') {
    const [a, b] = await loadClassEvaluations(source, dataset, setIds, onProgress);
    return [a!, b!];
  }
  if (label !== 'value') {
    const a = await loadEvaluation(source, dataset, setIds[0], (f) => onProgress(0.5 * f));
    const b = await loadEvaluation(source, dataset, setIds[1], (f) => onProgress(0.5 + 0.5 * f));
    return [a, b];
  }
  const builders = setIds.map(() => valueBuilder(dataset));
  const columns = builders[0]!.columns;
  const sides = await readSamplesOfSets(source, dataset, setIds, columns, (page, set) =>
    builders.forEach((builder, i) => builder.add(page, set[i]!)),
  );
  await onProgress(0.9);
  const [a, b] = setIds.map((setId, i) =>
    evaluationOf(dataset, setId, sides[i]!, builders[i]!.finish()),
  );
  return [a!, b!];
}

/**
 * The evaluations of classification sets: each set's predictions come from the kept columns
 * (prediction-columns.ts; read first when the set's version is new, side by side with the
 * samples), the samples are read once for all the sets, and matched to the predictions by seq.
 */
async function loadClassEvaluations(
  source: EvaluationSource,
  dataset: DatasetRecord,
  setIds: readonly string[],
  onProgress: (fraction: number) => Promise<void> | void,
): Promise<Evaluation[]> {
  const kept = source.classPredictions ?? new ClassPredictionsCache(source.repo);
  // Each sample's label as a code into `labels`, by first appearance.
  const labels = new ClassIndex([]);
  const truth: number[] = [];
  const [sets, { samples }] = await Promise.all([
    kept.get(setIds),
    readPages(
      source.repo.classSamples(dataset.id),
      0,
      () => [],
      (page) => {
        for (const label of page.truth) truth.push(labels.of(label));
      },
    ),
  ]);
  await onProgress(0.9);
  return sets.map((set, i) => {
    const built = classData(dataset, set, samples.seqs, truth, labels.names);
    const own = { ...samples, hasPrediction: built.hasPrediction };
    return evaluationOf(dataset, setIds[i]!, own, built.data);
  });
}

function evaluationOf(
  dataset: DatasetRecord,
  predictionSetId: string,
  samples: Samples,
  data: EvalData,
  objects?: Evaluation['objects'],
): Evaluation {
  let numMissing = 0;
  for (const has of samples.hasPrediction) if (has === 0) numMissing++;
  return {
    datasetId: dataset.id,
    predictionSetId,
    task: dataset.task_type,
    dataVersion: dataset.data_version,
    iouThreshold: dataset.iou_threshold,
    data,
    sampleIds: samples.ids,
    splitOf: samples.splitOf,
    splitNames: samples.splitNames,
    hasPrediction: samples.hasPrediction,
    numMissing,
    objects: objects ?? null,
  };
}

function loadData(
  source: EvaluationSource,
  dataset: DatasetRecord,
  label: Exclude<LabelKind, 'class'>,
  predictionSetId: string,
  read: ReadSamples,
  onProgress: (fraction: number) => Promise<void> | void,
): Promise<{ samples: Samples; data: EvalData; objects?: Evaluation['objects'] }> {
  switch (label) {
    case 'value':
      return build(valueBuilder(dataset), read);
    case 'transcript':
      return transcriptData(read);
    case 'mask':
      return maskData(source, dataset, read, onProgress);
    case 'objects':
      return objectData(source, dataset, predictionSetId, read);
  }
}

async function readSamples<T extends EvaluationTruth | null>(
  source: EvaluationSource,
  dataset: DatasetRecord,
  predictionSetId: string,
  columns: EvaluationSampleColumns<T>,
  add: (page: EvaluationSamplePage<T>) => void,
): Promise<Samples> {
  const pages = source.repo.evaluationSamples(dataset.id, predictionSetId, columns);
  const read = await readPages(
    pages,
    1,
    (page) => [page],
    (page) => add(page),
  );
  return { ...read.samples, hasPrediction: read.predicted[0]! };
}

/** Reads the samples with every set's predictions, handing each page to `add` with its sets'. */
async function readSamplesOfSets<T extends EvaluationTruth | null>(
  source: EvaluationSource,
  dataset: DatasetRecord,
  setIds: readonly string[],
  columns: EvaluationSampleColumns<T>,
  add: (page: EvaluationSetsPage<T>, sets: EvaluationSetColumns<T>[]) => void,
): Promise<Samples[]> {
  const pages = source.repo.evaluationSamplesOfSets(dataset.id, setIds, columns);
  const read = await readPages(
    pages,
    setIds.length,
    (page) => page.sets,
    (page) => add(page, page.sets),
  );
  return read.predicted.map((hasPrediction) => ({ ...read.samples, hasPrediction }));
}

/**
 * The samples of pages of no, one or more sets: ids, seqs and splits read once and shared, each
 * set's prediction flags its own.
 */
async function readPages<P extends Pick<EvaluationSamplePage<null>, 'id' | 'seq' | 'split'>>(
  pages: AsyncIterable<P>,
  count: number,
  setsOf: (page: P) => Pick<EvaluationSamplePage<null>, 'predicted'>[],
  add: (page: P) => void,
): Promise<{ samples: Omit<Samples, 'hasPrediction'>; predicted: Uint8Array[] }> {
  const ids: string[] = [];
  const seqs: number[] = [];
  const predicted = Array.from({ length: count }, (): number[] => []);
  const splits = new ClassIndex([]);
  const splitCodes: number[] = [];
  let last = -Infinity;
  for await (const page of pages) {
    const sets = setsOf(page);
    for (let k = 0; k < page.id.length; k++) {
      const seq = page.seq[k]!;
      // Every sample index and object lookup rests on upload order.
      if (!(seq > last)) throw new Error(`samples read out of upload order (seq ${seq})`);
      last = seq;
      ids.push(page.id[k]!);
      seqs.push(seq);
      splitCodes.push(splits.of(page.split[k]));
    }
    sets.forEach((set, i) => {
      const out = predicted[i]!;
      for (let k = 0; k < set.predicted.length; k++) out.push(set.predicted[k]!);
    });
    add(page);
    await nextTurn();
  }
  // Splits ascending, as the dataset lists them.
  const splitNames = [...splits.names].sort();
  const remap = splits.names.map((name) => splitNames.indexOf(name));
  const splitOf = Int32Array.from(splitCodes, (code) => (code < 0 ? -1 : remap[code]!));
  return {
    samples: { ids, seqs, splitOf, splitNames },
    predicted: predicted.map((flags) => Uint8Array.from(flags)),
  };
}

/**
 * A task's evaluation data built a page at a time: the columns it reads, what it takes of each
 * page (the samples' columns and one set's predictions), and the data once all are read.
 */
interface DataBuilder<T extends EvaluationTruth> {
  columns: EvaluationSampleColumns<T>;
  add(
    page: Omit<EvaluationSamplePage<T>, keyof EvaluationSetColumns<T>>,
    set: EvaluationSetColumns<T>,
  ): void;
  finish(): EvalData;
}

/** Reads the samples for one builder. */
async function build<T extends EvaluationTruth>(builder: DataBuilder<T>, read: ReadSamples) {
  const samples = await read(builder.columns, (page) => builder.add(page, page));
  return { samples, data: builder.finish() };
}

/**
 * Classification data of the samples (their seqs ascending, their labels as codes into
 * `labelNames`) against a set's kept predictions: each sample finds its prediction by seq (both
 * ascending), and labels are coded by first appearance, the sample's label before its
 * prediction's.
 */
function classData(
  dataset: DatasetRecord,
  set: ClassPredictions,
  seqs: readonly number[],
  labels: readonly number[],
  labelNames: readonly string[],
): { data: EvalData; hasPrediction: Uint8Array } {
  const n = seqs.length;
  const classes = new ClassIndex(dataset.class_names);
  /** The class code of each sample label and each of the set's names, −2 until first seen. */
  const codeOfLabel = new Int32Array(labelNames.length).fill(-2);
  const codeOfName = new Int32Array(set.names.length).fill(-2);
  const truth = new Int32Array(n);
  const pred = new Int32Array(n).fill(-1);
  const score = new Float64Array(n).fill(NaN);
  const hasPrediction = new Uint8Array(n);
  /** Samples with probabilities: their index and their prediction's. */
  const given: number[] = [];
  let j = 0;
  for (let i = 0; i < n; i++) {
    const label = labels[i]!;
    if (label >= 0 && codeOfLabel[label] === -2) codeOfLabel[label] = classes.of(labelNames[label]);
    truth[i] = label < 0 ? -1 : codeOfLabel[label]!;
    const seq = seqs[i]!;
    while (j < set.seq.length && set.seq[j]! < seq) j++;
    if (j >= set.seq.length || set.seq[j] !== seq) continue;
    hasPrediction[i] = 1;
    const name = set.label[j]!;
    if (name >= 0 && codeOfName[name] === -2) codeOfName[name] = classes.of(set.names[name]);
    pred[i] = name < 0 ? -1 : codeOfName[name]!;
    score[i] = set.score[j]!;
    if (set.given[j] === 1) given.push(i, j);
  }
  // Probabilities are per declared class (by position or by name); a row without any stays NaN.
  // Every label is known by now, so the width is the final number of classes.
  const K = classes.names.length;
  const declared = dataset.class_names.length;
  let probabilities: Float32Array | null = null;
  if (given.length > 0) {
    probabilities = new Float32Array(n * K).fill(NaN);
    const known = set.names.map((name) => classes.known(name));
    for (let g = 0; g < given.length; g += 2) {
      const at = given[g]! * K;
      const row = given[g + 1]!;
      probabilities.fill(0, at, at + K);
      const from = set.probStart[row]!;
      const to = set.probStart[row + 1]!;
      for (let e = from; e < to; e++) {
        const key = set.probKey === null ? e - from : set.probKey[e]!;
        const k = key >= 0 ? (key < declared ? key : -1) : known[-1 - key]!;
        if (k >= 0) probabilities[at + k] = set.probValue[e]!;
      }
    }
  }
  const data: EvalData = {
    kind: 'class',
    classes: classes.names,
    truth,
    pred,
    score,
    probabilities,
  };
  return { data, hasPrediction };
}

/** A sample's numbers by name or in the dataset's value order, appended to an N×V array; NaN where unknown. */
function pushValues(out: number[], values: NumericValues | null, names: readonly string[]): void {
  for (let k = 0; k < names.length; k++) {
    const v = values === null ? undefined : Array.isArray(values) ? values[k] : values[names[k]!];
    out.push(typeof v === 'number' && Number.isFinite(v) ? v : NaN);
  }
}

function valueBuilder(dataset: DatasetRecord): DataBuilder<'values'> {
  const names = dataset.value_names;
  const truth: number[] = [];
  const pred: number[] = [];
  return {
    columns: { truth: 'values' },
    add(page, set) {
      for (let k = 0; k < page.id.length; k++) {
        pushValues(truth, page.truth[k]!, names);
        pushValues(pred, set.prediction[k]!, names);
      }
    },
    finish() {
      return {
        kind: 'value',
        valueNames: [...names],
        truth: Float64Array.from(truth),
        pred: Float64Array.from(pred),
      };
    },
  };
}

async function transcriptData(read: ReadSamples) {
  const reference: (string | null)[] = [];
  const hypothesis: (string | null)[] = [];
  const samples = await read({ truth: 'transcript' }, (page) => {
    for (let k = 0; k < page.id.length; k++) {
      reference.push(page.truth[k]!);
      hypothesis.push(page.prediction[k]!);
    }
  });
  const data: EvalData = { kind: 'transcript', reference, hypothesis };
  return { samples, data };
}

async function maskData(
  source: EvaluationSource,
  dataset: DatasetRecord,
  read: ReadSamples,
  onProgress: (fraction: number) => Promise<void> | void,
) {
  const truthRefs: (string | null)[] = [];
  const predRefs: (string | null)[] = [];
  const samples = await read({ truth: 'mask' }, (page) => {
    for (let k = 0; k < page.id.length; k++) {
      truthRefs.push(page.truth[k]!);
      predRefs.push(page.prediction[k]!);
    }
  });
  const classes = [...dataset.class_names];
  const K = classes.length;
  const classOfValue = classOfPixelValue(classes, dataset.label_map);

  const n = truthRefs.length;
  const confusion: (Float64Array | null)[] = new Array<Float64Array | null>(n).fill(null);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const truthRef = truthRefs[i];
      const predRef = predRefs[i];
      if (truthRef && predRef) {
        confusion[i] = await maskConfusion(
          await source.readMedia(dataset.id, truthRef),
          await source.readMedia(dataset.id, predRef),
          classOfValue,
          K,
        );
      }
      done++;
      if (done % 100 === 0) await onProgress(0.2 + (0.3 * done) / n);
    }
  };
  await Promise.all(Array.from({ length: Math.min(MASK_CONCURRENCY, n) }, worker));
  const data: EvalData = { kind: 'mask', classes, confusion };
  return { samples, data };
}

/** One side's objects as columns: box NaN where unknown, masks (segm) from the segmentation. */
interface ObjectColumns {
  ids: string[];
  image: number[];
  label: number[];
  /** 4 numbers (x, y, w, h) per object. */
  box: number[];
  segmentation: (CocoSegmentation | null)[];
  iscrowd: number[];
  score: number[];
}

/** The sample index of a seq among the ascending `seqs`; −1 when none has it. */
function indexOfSeq(seqs: readonly number[], seq: number): number {
  let lo = 0;
  let hi = seqs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = seqs[mid]!;
    if (at === seq) return mid;
    if (at < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

async function readObjects(
  pages: AsyncIterable<EvaluationObjectPage>,
  seqs: readonly number[],
  classes: ClassIndex,
): Promise<ObjectColumns> {
  const out: ObjectColumns = {
    ids: [],
    image: [],
    label: [],
    box: [],
    segmentation: [],
    iscrowd: [],
    score: [],
  };
  for await (const page of pages) {
    for (let k = 0; k < page.id.length; k++) {
      const image = indexOfSeq(seqs, page.seq[k]!);
      // A sample added since the samples were read.
      if (image < 0) continue;
      out.ids.push(page.id[k]!);
      out.image.push(image);
      out.label.push(classes.of(page.label[k]));
      const x = page.x[k];
      const y = page.y[k];
      const w = page.w[k];
      const h = page.h[k];
      // A box is all four numbers or none.
      if (x !== null && y !== null && w !== null && h !== null) out.box.push(x!, y!, w!, h!);
      else out.box.push(NaN, NaN, NaN, NaN);
      out.segmentation.push((page.segmentation[k] as CocoSegmentation | undefined) ?? null);
      out.iscrowd.push(page.iscrowd[k] === 1 ? 1 : 0);
      out.score.push(page.score[k] ?? NaN);
    }
    await nextTurn();
  }
  return out;
}

async function objectData(
  source: EvaluationSource,
  dataset: DatasetRecord,
  predictionSetId: string,
  read: ReadSamples,
) {
  const heights: number[] = [];
  const widths: number[] = [];
  const samples = await read({ truth: null, imageSize: true }, (page) => {
    for (let k = 0; k < page.id.length; k++) {
      heights.push(page.height[k] ?? NaN);
      widths.push(page.width[k] ?? NaN);
    }
  });
  const classes = new ClassIndex(dataset.class_names);
  const segm = dataset.task_type === 'instance_segmentation';
  const side = (which: 'truth' | 'prediction') =>
    readObjects(
      source.repo.evaluationObjects(dataset.id, predictionSetId, which, segm),
      samples.seqs,
      classes,
    );
  const gt = await side('truth');
  const pred = await side('prediction');

  const n = heights.length;
  const imageSize = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    const known = Number.isFinite(heights[i]!) && Number.isFinite(widths[i]!);
    imageSize[i * 2] = known ? heights[i]! : NaN;
    imageSize[i * 2 + 1] = known ? widths[i]! : NaN;
  }
  if (segm) fillUnknownSizes(imageSize, [gt, pred]);

  /** Typed columns of objects; masks are rasterised a few thousand a turn of the event loop. */
  const columns = async (objects: ObjectColumns) => {
    const count = objects.ids.length;
    const box = Float64Array.from(objects.box);
    const rle = new Array<Rle | null>(count).fill(null);
    if (segm) {
      for (let k = 0; k < count; k++) {
        if (k % RASTER_BATCH === RASTER_BATCH - 1) await nextTurn();
        const image = objects.image[k]!;
        const h = imageSize[image * 2]!;
        const w = imageSize[image * 2 + 1]!;
        if (!Number.isFinite(h) || !Number.isFinite(w)) continue;
        const own = box.subarray(k * 4, k * 4 + 4);
        const known = own.every(Number.isFinite);
        const mask = maskOf(objects.segmentation[k]!, known ? own : null, h, w);
        rle[k] = mask;
        if (!known && mask) box.set(rleToBbox(mask), k * 4);
      }
    }
    return {
      image: Int32Array.from(objects.image),
      label: Int32Array.from(objects.label),
      box,
      rle,
      iscrowd: Uint8Array.from(objects.iscrowd),
      score: Float64Array.from(objects.score),
    };
  };
  const g = await columns(gt);
  const p = await columns(pred);
  const data: EvalData = {
    kind: 'objects',
    classes: classes.names,
    iouType: segm ? 'segm' : 'bbox',
    hasPrediction: samples.hasPrediction,
    imageSize,
    gt: { image: g.image, label: g.label, box: g.box, rle: g.rle, iscrowd: g.iscrowd },
    pred: { image: p.image, label: p.label, score: p.score, box: p.box, rle: p.rle },
  };
  return { samples, data, objects: { gtIds: gt.ids, predIds: pred.ids } };
}

/** An object's mask in an image of h×w; null when it has none (it is then left out). */
function maskOf(
  segmentation: CocoSegmentation | null,
  box: ArrayLike<number> | null,
  h: number,
  w: number,
): Rle | null {
  try {
    if (segmentation) return segmentationToRle(segmentation, h, w);
    return box ? bboxToRle(box, h, w) : null;
  } catch {
    return null;
  }
}

/**
 * Images of unknown size (metadata not computed yet) take the extent of their objects, so
 * polygons can still be rasterised: a mask only needs to hold every object of its image.
 */
function fillUnknownSizes(imageSize: Float64Array, sides: ObjectColumns[]): void {
  const extent = new Map<number, [number, number]>();
  for (const objects of sides)
    for (let k = 0; k < objects.image.length; k++) {
      const image = objects.image[k]!;
      if (Number.isFinite(imageSize[image * 2]!)) continue;
      const e = extent.get(image) ?? [1, 1];
      const grow = (x: number, y: number) => {
        e[0] = Math.max(e[0], Math.ceil(y));
        e[1] = Math.max(e[1], Math.ceil(x));
      };
      const [x, y, w, h] = objects.box.slice(k * 4, k * 4 + 4) as [number, number, number, number];
      if (Number.isFinite(x + y + w + h)) grow(x + w, y + h);
      const s = objects.segmentation[k];
      if (Array.isArray(s))
        for (const polygon of s)
          for (let i = 0; i + 1 < polygon.length; i += 2) grow(polygon[i]!, polygon[i + 1]!);
      else if (s) {
        e[0] = Math.max(e[0], s.size[0]);
        e[1] = Math.max(e[1], s.size[1]);
      }
      extent.set(image, e);
    }
  for (const [image, [h, w]] of extent) {
    imageSize[image * 2] = h;
    imageSize[image * 2 + 1] = w;
  }
}

// How a prediction set's evaluation data reaches the performance thread (compute.worker.ts)
// without being copied: once loaded, its typed arrays move into shared memory (shareEvaluation),
// and the many small arrays of masks (object RLEs, per-image confusions) into one shared array
// each, the main thread's own masks becoming views of it. The message (toWire) then carries
// shared arrays only, plus each transcript list joined into one string; fromWire rebuilds the
// data on the thread around the same memory.
import type {
  EvalData,
  MaskEvalData,
  ObjectEvalData,
  Rle,
  TranscriptEvalData,
} from '@loupe/metrics';
import type { Evaluation } from './evaluation-loader.js';

/** What the thread computes on: the evaluation without its item ids. */
export type EvaluationData = Pick<
  Evaluation,
  'task' | 'iouThreshold' | 'data' | 'splitOf' | 'splitNames' | 'hasPrediction'
>;

/** Masks of a list of objects: mask k is counts[offsets[k] … offsets[k+1]) of h[k]×w[k]; h −1 = none. */
interface RlePack {
  h: Int32Array;
  w: Int32Array;
  offsets: Float64Array;
  counts: Uint32Array;
}

/** Per-image K×K confusions: image i's is values[slot[i]·K² …]; slot −1 = none. */
interface ConfusionPack {
  slot: Int32Array;
  values: Float64Array;
}

/** A list of strings or nulls: item k is text[ends[k−1] … ends[k]), or null where ends[k] is −1. */
interface StringPack {
  text: string;
  ends: Float64Array;
}

type WireData =
  | Exclude<EvalData, ObjectEvalData | MaskEvalData | TranscriptEvalData>
  | (Omit<ObjectEvalData, 'gt' | 'pred'> & {
      gt: Omit<ObjectEvalData['gt'], 'rle'> & { rle: RlePack };
      pred: Omit<ObjectEvalData['pred'], 'rle'> & { rle: RlePack };
    })
  | (Omit<MaskEvalData, 'confusion'> & { confusion: ConfusionPack })
  | { kind: 'transcript'; reference: StringPack; hypothesis: StringPack };

export type EvaluationWire = Omit<EvaluationData, 'data'> & { data: WireData };

type TypedArray = Int32Array | Uint32Array | Uint8Array | Float32Array | Float64Array;

/** Shared copies of arrays, so an array two evaluations share (a pair's splits) is copied once. */
const sharedCopies = new WeakMap<TypedArray, TypedArray>();

/** The same values in shared memory (arrays already there are kept). */
function shared<A extends TypedArray>(array: A): A {
  if (array.buffer instanceof SharedArrayBuffer) return array;
  const known = sharedCopies.get(array);
  if (known) return known as A;
  const Type = array.constructor as new (buffer: SharedArrayBuffer) => A;
  const out = new Type(new SharedArrayBuffer(array.byteLength));
  out.set(array as never);
  sharedCopies.set(array, out);
  return out;
}

const rlePacks = new WeakMap<(Rle | null)[], RlePack>();
const confusionPacks = new WeakMap<(Float64Array | null)[], ConfusionPack>();

function packRles(list: (Rle | null)[]): RlePack {
  const known = rlePacks.get(list);
  if (known) return known;
  const n = list.length;
  const h = new Int32Array(new SharedArrayBuffer(4 * n)).fill(-1);
  const w = new Int32Array(new SharedArrayBuffer(4 * n));
  const offsets = new Float64Array(new SharedArrayBuffer(8 * (n + 1)));
  let total = 0;
  for (let k = 0; k < n; k++) {
    offsets[k] = total;
    total += list[k]?.counts.length ?? 0;
  }
  offsets[n] = total;
  const counts = new Uint32Array(new SharedArrayBuffer(4 * total));
  for (let k = 0; k < n; k++) {
    const rle = list[k];
    if (!rle) continue;
    h[k] = rle.h;
    w[k] = rle.w;
    counts.set(rle.counts, offsets[k]);
    // The main thread's mask becomes a view of the shared copy (the copy is the only one).
    list[k] = { h: rle.h, w: rle.w, counts: counts.subarray(offsets[k], offsets[k + 1]) };
  }
  const pack = { h, w, offsets, counts };
  rlePacks.set(list, pack);
  return pack;
}

function unpackRles(pack: RlePack): (Rle | null)[] {
  return Array.from(pack.h, (h, k) =>
    h < 0
      ? null
      : { h, w: pack.w[k]!, counts: pack.counts.subarray(pack.offsets[k], pack.offsets[k + 1]) },
  );
}

function packConfusions(list: (Float64Array | null)[], K: number): ConfusionPack {
  const known = confusionPacks.get(list);
  if (known) return known;
  const size = K * K;
  const slot = new Int32Array(new SharedArrayBuffer(4 * list.length)).fill(-1);
  let used = 0;
  list.forEach((c, i) => {
    if (c) slot[i] = used++;
  });
  const values = new Float64Array(new SharedArrayBuffer(8 * size * used));
  list.forEach((c, i) => {
    if (!c) return;
    const at = slot[i]! * size;
    values.set(c, at);
    list[i] = values.subarray(at, at + size);
  });
  const pack = { slot, values };
  confusionPacks.set(list, pack);
  return pack;
}

function unpackConfusions(pack: ConfusionPack, K: number): (Float64Array | null)[] {
  const size = K * K;
  return Array.from(pack.slot, (s) =>
    s < 0 ? null : pack.values.subarray(s * size, (s + 1) * size),
  );
}

function packStrings(list: (string | null)[]): StringPack {
  const ends = new Float64Array(list.length);
  let end = 0;
  list.forEach((s, k) => {
    if (s === null) ends[k] = -1;
    else ends[k] = end += s.length;
  });
  return { text: list.map((s) => s ?? '').join(''), ends };
}

function unpackStrings(pack: StringPack): (string | null)[] {
  let start = 0;
  return Array.from(pack.ends, (end) => {
    if (end < 0) return null;
    const s = pack.text.slice(start, end);
    start = end;
    return s;
  });
}

/**
 * Moves a freshly loaded evaluation's typed arrays into shared memory, in place, so the
 * performance thread reads the same memory as this one. Returns the evaluation.
 */
export function shareEvaluation(evaluation: Evaluation): Evaluation {
  const hasPrediction = evaluation.hasPrediction;
  evaluation.splitOf = shared(evaluation.splitOf);
  evaluation.hasPrediction = shared(hasPrediction);
  const data = evaluation.data;
  switch (data.kind) {
    case 'class':
      data.truth = shared(data.truth);
      data.pred = shared(data.pred);
      data.score = shared(data.score);
      if (data.probabilities) data.probabilities = shared(data.probabilities);
      break;
    case 'value':
      data.truth = shared(data.truth);
      data.pred = shared(data.pred);
      break;
    case 'objects':
      // The loader gives the data the evaluation's own hasPrediction.
      data.hasPrediction =
        data.hasPrediction === hasPrediction
          ? evaluation.hasPrediction
          : shared(data.hasPrediction);
      data.imageSize = shared(data.imageSize);
      for (const side of [data.gt, data.pred]) {
        side.image = shared(side.image);
        side.label = shared(side.label);
        side.box = shared(side.box);
        packRles(side.rle);
      }
      data.gt.iscrowd = shared(data.gt.iscrowd);
      data.pred.score = shared(data.pred.score);
      break;
    case 'mask':
      packConfusions(data.confusion, data.classes.length);
      break;
    case 'transcript':
      break;
  }
  return evaluation;
}

/** The message that gives the thread an evaluation (shared arrays are shared, not copied). */
export function toWire(evaluation: EvaluationData): EvaluationWire {
  const { task, iouThreshold, splitOf, splitNames, hasPrediction } = evaluation;
  const base = { task, iouThreshold, splitOf, splitNames, hasPrediction };
  const data = evaluation.data;
  switch (data.kind) {
    case 'objects':
      return {
        ...base,
        data: {
          ...data,
          gt: { ...data.gt, rle: packRles(data.gt.rle) },
          pred: { ...data.pred, rle: packRles(data.pred.rle) },
        },
      };
    case 'mask':
      return {
        ...base,
        data: { ...data, confusion: packConfusions(data.confusion, data.classes.length) },
      };
    case 'transcript':
      return {
        ...base,
        data: {
          kind: 'transcript',
          reference: packStrings(data.reference),
          hypothesis: packStrings(data.hypothesis),
        },
      };
    default:
      return { ...base, data };
  }
}

/** The evaluation data a message carries, on the thread. */
export function fromWire(wire: EvaluationWire): EvaluationData {
  const data = wire.data;
  switch (data.kind) {
    case 'objects':
      return {
        ...wire,
        data: {
          ...data,
          gt: { ...data.gt, rle: unpackRles(data.gt.rle) },
          pred: { ...data.pred, rle: unpackRles(data.pred.rle) },
        },
      };
    case 'mask':
      return {
        ...wire,
        data: { ...data, confusion: unpackConfusions(data.confusion, data.classes.length) },
      };
    case 'transcript':
      return {
        ...wire,
        data: {
          kind: 'transcript',
          reference: unpackStrings(data.reference),
          hypothesis: unpackStrings(data.hypothesis),
        },
      };
    default:
      return { ...wire, data };
  }
}

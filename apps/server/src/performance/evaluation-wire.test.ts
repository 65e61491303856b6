// The evaluation data reaches the performance thread whole: after shareEvaluation its arrays are
// shared memory (masks views of one shared array each), and what fromWire rebuilds from a
// structured clone of toWire's message equals the data, for every kind of evaluation data.
import { encodeMask, type EvalData } from '@loupe/metrics';
import { describe, expect, it } from 'vitest';
import type { Evaluation } from './evaluation-loader.js';
import { fromWire, shareEvaluation, toWire } from './evaluation-wire.js';

function evaluation(task: Evaluation['task'], data: EvalData, n: number): Evaluation {
  return {
    datasetId: 'd',
    predictionSetId: 'p',
    task,
    dataVersion: 1,
    iouThreshold: 0.5,
    data,
    sampleIds: Array.from({ length: n }, (_, i) => `s${i}`),
    splitOf: Int32Array.from({ length: n }, (_, i) => (i % 2 ? 0 : -1)),
    splitNames: ['train'],
    hasPrediction: Uint8Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 1)),
    numMissing: 1,
    objects: null,
  };
}

const mask = (bits: number[], h: number, w: number) => encodeMask(bits, h, w);

const cases: [string, () => Evaluation][] = [
  [
    'classification',
    () =>
      evaluation(
        'classification',
        {
          kind: 'class',
          classes: ['a', 'b'],
          truth: Int32Array.of(0, 1, 1),
          pred: Int32Array.of(-1, 1, 0),
          score: Float64Array.of(NaN, 0.9, 0.4),
          probabilities: Float32Array.of(NaN, NaN, 0.1, 0.9, 0.6, 0.4),
        },
        3,
      ),
  ],
  [
    'regression',
    () =>
      evaluation(
        'regression',
        {
          kind: 'value',
          valueNames: ['x'],
          truth: Float64Array.of(1, 2),
          pred: Float64Array.of(NaN, 3),
        },
        2,
      ),
  ],
  [
    'speech recognition',
    () =>
      evaluation(
        'automatic_speech_recognition',
        {
          kind: 'transcript',
          reference: ['a cat', null, '', 'é ☃'],
          hypothesis: [null, 'x', 'y z', 'é'],
        },
        4,
      ),
  ],
  [
    'semantic segmentation',
    () =>
      evaluation(
        'semantic_segmentation',
        { kind: 'mask', classes: ['a', 'b'], confusion: [null, Float64Array.of(1, 2, 3, 4), null] },
        3,
      ),
  ],
  [
    'instance segmentation',
    () => {
      const e = evaluation(
        'instance_segmentation',
        {
          kind: 'objects',
          classes: ['a'],
          iouType: 'segm',
          hasPrediction: new Uint8Array(0),
          imageSize: Float64Array.of(2, 2, 2, 3),
          gt: {
            image: Int32Array.of(0, 1),
            label: Int32Array.of(0, 0),
            box: Float64Array.of(0, 0, 1, 1, 0, 0, 2, 2),
            rle: [mask([1, 0, 0, 0], 2, 2), null],
            iscrowd: Uint8Array.of(0, 1),
          },
          pred: {
            image: Int32Array.of(1),
            label: Int32Array.of(0),
            score: Float64Array.of(0.5),
            box: Float64Array.of(0, 0, 3, 2),
            rle: [mask([1, 1, 1, 1, 1, 1], 2, 3)],
          },
        },
        2,
      );
      if (e.data.kind === 'objects') e.data.hasPrediction = e.hasPrediction;
      return e;
    },
  ],
];

/** Plain values to compare: typed arrays as arrays (shared or not). */
function plain(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

describe('evaluation data on the wire', () => {
  it.each(cases)('%s: shared, then rebuilt equal on the other side', (_, make) => {
    const original = plain(make().data);
    const shared = shareEvaluation(make());
    expect(plain(shared.data)).toEqual(original);
    expect(shared.splitOf.buffer).toBeInstanceOf(SharedArrayBuffer);
    const rebuilt = fromWire(structuredClone(toWire(shared)));
    expect(plain(rebuilt.data)).toEqual(original);
    expect(plain(rebuilt.splitOf)).toEqual(plain(shared.splitOf));
    expect(plain(rebuilt.hasPrediction)).toEqual(plain(shared.hasPrediction));
    expect(rebuilt.splitNames).toEqual(['train']);
  });

  it('keeps one copy of the masks: the main thread reads views of the shared array', () => {
    const shared = shareEvaluation(cases[4]![1]());
    if (shared.data.kind !== 'objects') throw new Error('objects expected');
    const [first] = shared.data.gt.rle;
    const [predicted] = shared.data.pred.rle;
    expect(first!.counts.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(predicted!.counts.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(shared.data.hasPrediction).toBe(shared.hasPrediction);
    expect(shared.data.gt.box.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it("copies an array two evaluations share (a pair's splits) once", () => {
    const a = cases[0]![1]();
    const b = { ...cases[0]![1](), splitOf: a.splitOf };
    const original = a.splitOf;
    shareEvaluation(a);
    shareEvaluation(b);
    expect(a.splitOf.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(b.splitOf).toBe(a.splitOf);
    expect([...a.splitOf]).toEqual([...original]);
  });
});

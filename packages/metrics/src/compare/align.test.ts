// Aligning two models' class lists: names keep their meaning, codes follow the union, and data
// already aligned stays the same object.
import { describe, expect, it } from 'vitest';
import type {
  ClassEvalData,
  MaskEvalData,
  ObjectEvalData,
  ValueEvalData,
} from '../report/index.js';
import { alignClasses } from './align.js';
import { compareModels } from './index.js';

const names = (data: { classes: string[] }, codes: ArrayLike<number>) =>
  Array.from(codes, (code) => (code < 0 ? null : data.classes[code]));

describe('alignClasses', () => {
  it('returns data already on one class list unchanged', () => {
    const a: ClassEvalData = {
      kind: 'class',
      classes: ['cat', 'dog'],
      truth: Int32Array.from([0, 1]),
      pred: Int32Array.from([0, 0]),
      score: new Float64Array(2).fill(NaN),
      probabilities: null,
    };
    const b: ClassEvalData = { ...a, classes: ['cat', 'dog'], pred: Int32Array.from([1, 1]) };
    const [x, y] = alignClasses(a, b);
    expect(x).toBe(a);
    expect(y).toBe(b);
    const values: ValueEvalData = {
      kind: 'value',
      valueNames: ['age'],
      truth: Float64Array.of(1),
      pred: Float64Array.of(2),
    };
    expect(alignClasses(values, values)).toEqual([values, values]);
  });

  it('recodes classification labels and probabilities by name', () => {
    // Declared: cat, dog. A invented 'fox' (code 2); B met 'wolf' first (2), then 'fox' (3),
    // and the ground truth 'fox' of sample 2 is therefore code 3 in B's data.
    const a: ClassEvalData = {
      kind: 'class',
      classes: ['cat', 'dog', 'fox'],
      truth: Int32Array.from([0, 1, 2]),
      pred: Int32Array.from([2, 1, -1]),
      score: new Float64Array(3).fill(NaN),
      probabilities: Float32Array.from([0.2, 0.1, 0.7, 0.1, 0.9, 0, NaN, NaN, NaN]),
    };
    const b: ClassEvalData = {
      kind: 'class',
      classes: ['cat', 'dog', 'wolf', 'fox'],
      truth: Int32Array.from([0, 1, 3]),
      pred: Int32Array.from([2, 0, 3]),
      score: new Float64Array(3).fill(NaN),
      probabilities: Float32Array.from([0.1, 0, 0.9, 0, 1, 0, 0, 0, 0, 0, 0.5, 0.5]),
    };
    const [x, y] = alignClasses(a, b) as [ClassEvalData, ClassEvalData];
    expect(x.classes).toEqual(['cat', 'dog', 'fox', 'wolf']);
    expect(y.classes).toBe(x.classes);
    // A's codes do not move; its rows gain a 0 for 'wolf' (the empty row stays empty).
    expect(x.truth).toBe(a.truth);
    expect(x.pred).toBe(a.pred);
    expect(Array.from(x.probabilities!.subarray(0, 8))).toEqual([
      expect.closeTo(0.2),
      expect.closeTo(0.1),
      expect.closeTo(0.7),
      0,
      expect.closeTo(0.1),
      expect.closeTo(0.9),
      0,
      0,
    ]);
    expect(Array.from(x.probabilities!.subarray(8)).every(Number.isNaN)).toBe(true);
    expect(names(y, y.truth)).toEqual(['cat', 'dog', 'fox']);
    expect(names(y, y.pred)).toEqual(['wolf', 'cat', 'fox']);
    expect(Array.from(y.probabilities!.subarray(0, 4))).toEqual([
      expect.closeTo(0.1),
      0,
      0,
      expect.closeTo(0.9),
    ]);
    expect(Array.from(y.probabilities!.subarray(8, 12))).toEqual([0, 0, 0.5, 0.5]);
    // Now comparable: the truths are the same, and A is right on 1, B on 2 of 3 samples.
    const { result } = compareModels('classification', x, y, Uint32Array.of(0, 1, 2), {
      metric: 'accuracy',
      iouThreshold: 0.5,
    });
    expect(result.overall.accuracy!.model_a).toBeCloseTo(1 / 3, 12);
    expect(result.overall.accuracy!.model_b).toBeCloseTo(1 / 3, 12);
  });

  it('recodes object labels, keeping the arrays of a side whose codes stay', () => {
    const object = (labels: number[]) => ({
      image: Int32Array.from(labels, () => 0),
      label: Int32Array.from(labels),
      box: new Float64Array(labels.length * 4),
      rle: labels.map(() => null),
      iscrowd: new Uint8Array(labels.length),
      score: new Float64Array(labels.length).fill(0.5),
    });
    const a: ObjectEvalData = {
      kind: 'objects',
      classes: ['car', 'bus'],
      iouType: 'bbox',
      hasPrediction: Uint8Array.of(1),
      imageSize: Float64Array.of(10, 10),
      gt: object([0, 1]),
      pred: object([1]),
    };
    const b: ObjectEvalData = { ...a, classes: ['car', 'bus', 'tram'], pred: object([2, 0]) };
    const [x, y] = alignClasses(a, b) as [ObjectEvalData, ObjectEvalData];
    expect(x.classes).toEqual(['car', 'bus', 'tram']);
    expect(x.gt).toBe(a.gt);
    expect(x.pred).toBe(a.pred);
    // B's codes are already those of the union: only its class list is replaced.
    expect(y.gt).toBe(b.gt);
    expect(y.pred).toBe(b.pred);

    const c: ObjectEvalData = { ...a, classes: ['car', 'tram', 'bus'], pred: object([1, 2]) };
    const [, z] = alignClasses(a, c) as [ObjectEvalData, ObjectEvalData];
    expect(names(z, z.pred.label)).toEqual(['tram', 'bus']);
    expect(names(z, z.gt.label)).toEqual(['car', 'tram']);
    expect(z.pred.box).toBe(c.pred.box);
  });

  it('recodes semantic segmentation confusions', () => {
    const a: MaskEvalData = {
      kind: 'mask',
      classes: ['sky', 'road'],
      confusion: [Float64Array.of(5, 1, 0, 4), null],
    };
    const b: MaskEvalData = {
      kind: 'mask',
      classes: ['road', 'sky'],
      confusion: [Float64Array.of(4, 0, 1, 5), null],
    };
    const [x, y] = alignClasses(a, b) as [MaskEvalData, MaskEvalData];
    expect(x).toBe(a);
    expect(y.classes).toEqual(['sky', 'road']);
    expect(Array.from(y.confusion[0]!)).toEqual([5, 1, 0, 4]);
    expect(y.confusion[1]).toBeNull();
  });
});

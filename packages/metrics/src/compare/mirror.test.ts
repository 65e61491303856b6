// Swapping A and B mirrors a comparison: categories and subcategories trade sides
// (tp_a_fn_b ↔ fn_a_tp_b …), every delta changes sign, and the items of each category are
// the items of its mirror image. Random data of every task type (fast-check seeds).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPARISON_METRICS, type TaskType } from '../catalogue.js';
import { encodeMask } from '../rle.js';
import type {
  ClassEvalData,
  EvalData,
  MaskEvalData,
  ObjectEvalData,
  TranscriptEvalData,
  ValueEvalData,
} from '../report/index.js';
import {
  COMPARISON_CATEGORIES,
  compareModels,
  mirrorCategory,
  mirrorSubcategory,
  selectSectionItems,
  type ComparisonSection,
  type EntityBreakdown,
  type ModelComparison,
  type ObjectSubcategory,
  type SectionItems,
} from './index.js';
import { prng } from '../report/test-support.js';

type Pair = [EvalData, EvalData];
const N = 40;

function classPair(rnd: () => number, K: number): Pair {
  const truth = Int32Array.from({ length: N }, () => (rnd() < 0.05 ? -1 : Math.floor(rnd() * K)));
  const model = (): ClassEvalData => {
    const pred = Int32Array.from(truth, (t) =>
      rnd() < 0.1 ? -1 : rnd() < 0.6 && t >= 0 ? t : Math.floor(rnd() * K),
    );
    const probabilities = new Float32Array(N * K);
    for (let i = 0; i < N; i++) {
      let sum = 0;
      for (let k = 0; k < K; k++) sum += probabilities[i * K + k] = rnd() + (pred[i] === k ? 1 : 0);
      for (let k = 0; k < K; k++) probabilities[i * K + k]! /= sum;
    }
    return {
      kind: 'class',
      classes: Array.from({ length: K }, (_, k) => `c${k}`),
      truth,
      pred,
      score: Float64Array.from(pred, (p, i) => (p < 0 ? NaN : probabilities[i * K + p]!)),
      probabilities: rnd() < 0.5 ? probabilities : null,
    };
  };
  return [model(), model()];
}

function valuePair(rnd: () => number): Pair {
  const V = 2;
  const truth = Float64Array.from({ length: N * V }, () => (rnd() < 0.05 ? NaN : rnd() * 10));
  const model = (): ValueEvalData => ({
    kind: 'value',
    valueNames: ['a', 'b'],
    truth,
    // Whole numbers, so that equal errors happen.
    pred: Float64Array.from(truth, (t) => (rnd() < 0.1 ? NaN : Math.round(t + (rnd() - 0.5) * 4))),
  });
  return [model(), model()];
}

function transcriptPair(rnd: () => number): Pair {
  const words = ['a', 'b', 'c', 'd'];
  const sentence = () =>
    Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => words[Math.floor(rnd() * 4)]).join(' ');
  const reference = Array.from({ length: N }, () => (rnd() < 0.05 ? null : sentence()));
  const model = (): TranscriptEvalData => ({
    kind: 'transcript',
    reference,
    hypothesis: reference.map((r) => (rnd() < 0.1 ? null : rnd() < 0.3 ? r : sentence())),
  });
  return [model(), model()];
}

function maskPair(rnd: () => number): Pair {
  const K = 3;
  const images = 10;
  const rowSums = Array.from({ length: images }, () =>
    Array.from({ length: K }, () => (rnd() < 0.3 ? 0 : 1 + Math.floor(rnd() * 6))),
  );
  const model = (): MaskEvalData => ({
    kind: 'mask',
    classes: ['x', 'y', 'z'],
    confusion: rowSums.map((sums) => {
      if (rnd() < 0.1) return null;
      const c = new Float64Array(K * K);
      sums.forEach((n, t) => {
        for (let px = 0; px < n; px++) c[t * K + (rnd() < 0.5 ? t : Math.floor(rnd() * K))]!++;
      });
      return c;
    }),
  });
  return [model(), model()];
}

function objectPair(rnd: () => number, segm: boolean): Pair {
  const images = 8;
  const size = 40;
  const box = () => [rnd() * 30, rnd() * 30, 4 + rnd() * 12, 4 + rnd() * 12];
  const G = 20;
  const gtBoxes = Array.from({ length: G }, box);
  const gtImage = Int32Array.from({ length: G }, () => Math.floor(rnd() * images));
  const mask = (b: number[]) => {
    // A rough ellipse inside the box, so masks differ from boxes.
    const m = new Uint8Array(size * size);
    const [x0, y0, w, h] = b as [number, number, number, number];
    for (let x = 0; x < size; x++) {
      for (let y = 0; y < size; y++) {
        const u = (x + 0.5 - x0 - w / 2) / (w / 2);
        const v = (y + 0.5 - y0 - h / 2) / (h / 2);
        m[x * size + y] = u * u + v * v <= 1 ? 1 : 0;
      }
    }
    return encodeMask(m, size, size);
  };
  const gt = {
    image: gtImage,
    label: Int32Array.from({ length: G }, () => Math.floor(rnd() * 2)),
    box: Float64Array.from(gtBoxes.flat()),
    rle: segm ? gtBoxes.map(mask) : [],
    iscrowd: new Uint8Array(G),
  };
  const model = (): ObjectEvalData => {
    const P = 30;
    const image: number[] = [];
    const label: number[] = [];
    const boxes: number[][] = [];
    for (let j = 0; j < P; j++) {
      if (rnd() < 0.6) {
        // Near a ground truth, sometimes of another class.
        const g = Math.floor(rnd() * G);
        image.push(gtImage[g]!);
        label.push(rnd() < 0.8 ? gt.label[g]! : 1 - gt.label[g]!);
        boxes.push(gtBoxes[g]!.map((v) => v + (rnd() - 0.5) * 6));
      } else {
        image.push(Math.floor(rnd() * images));
        label.push(Math.floor(rnd() * 2));
        boxes.push(box());
      }
    }
    return {
      kind: 'objects',
      classes: ['p', 'q'],
      iouType: segm ? 'segm' : 'bbox',
      hasPrediction: new Uint8Array(images).fill(1),
      imageSize: new Float64Array(2 * images).fill(size),
      gt,
      pred: {
        image: Int32Array.from(image),
        label: Int32Array.from(label),
        score: Float64Array.from({ length: P }, () => (rnd() < 0.05 ? NaN : rnd())),
        box: Float64Array.from(boxes.flat()),
        rle: segm ? boxes.map(mask) : [],
      },
    };
  };
  return [model(), model()];
}

function pairFor(task: TaskType, rnd: () => number): Pair {
  switch (task) {
    case 'classification':
      return classPair(rnd, 3);
    case 'audio_classification':
      return classPair(rnd, 2);
    case 'regression':
      return valuePair(rnd);
    case 'automatic_speech_recognition':
      return transcriptPair(rnd);
    case 'semantic_segmentation':
      return maskPair(rnd);
    case 'object_detection':
      return objectPair(rnd, false);
    case 'instance_segmentation':
      return objectPair(rnd, true);
  }
}

const close = (x: number | null, y: number | null) => {
  if (x === null || y === null) expect(x).toBe(y);
  else expect(x).toBeCloseTo(y, 9);
};

function expectMirroredEntities(ab: EntityBreakdown | null, ba: EntityBreakdown | null): void {
  if (!ab || !ba) {
    expect(ab).toBe(ba);
    return;
  }
  expect(ba.num_entities).toBe(ab.num_entities);
  for (const category of COMPARISON_CATEGORIES) {
    const mine = ab[category];
    const theirs = [...ba[mirrorCategory(category)]].sort((x, y) => (x.entity < y.entity ? -1 : 1));
    const sorted = [...mine].sort((x, y) => (x.entity < y.entity ? -1 : 1));
    expect(theirs.map((e) => e.entity)).toEqual(sorted.map((e) => e.entity));
    theirs.forEach((e, n) => {
      expect(e.model_a).toBe(sorted[n]!.model_b);
      expect(e.model_b).toBe(sorted[n]!.model_a);
      expect(e.raw_delta).toBeCloseTo(-sorted[n]!.raw_delta, 12);
    });
  }
}

/** A key per item that does not depend on which model is A. */
function itemKeys(items: SectionItems, positions: Uint32Array, swapped: boolean): string[] {
  return Array.from(positions, (t) => {
    const pa = items.predictionA?.[t];
    const pb = items.predictionB?.[t];
    const [first, second] = swapped ? [pb, pa] : [pa, pb];
    return [items.sample[t], items.groundTruth?.[t], items.maskClass?.[t], first, second].join(':');
  }).sort();
}

function expectMirroredSection(
  ab: ComparisonSection | null,
  ba: ComparisonSection | null,
  itemsAb: SectionItems | null,
  itemsBa: SectionItems | null,
): void {
  if (!ab || !ba) {
    expect(ab).toBe(ba);
    return;
  }
  expect(ba.num_items).toBe(ab.num_items);
  for (const category of COMPARISON_CATEGORIES) {
    expect(ba[mirrorCategory(category)]).toEqual(ab[category]);
    expect(
      itemKeys(
        itemsBa!,
        selectSectionItems(itemsBa!, { category: mirrorCategory(category) }),
        true,
      ),
    ).toEqual(itemKeys(itemsAb!, selectSectionItems(itemsAb!, { category }), false));
  }
  for (const [id, sub] of Object.entries(ab.subcategories)) {
    const mirror = mirrorSubcategory(id as ObjectSubcategory);
    const other = ba.subcategories[mirror]!;
    expect(other.num_items).toBe(sub.num_items);
    expect(other.category).toBe(mirrorCategory(sub.category));
    expect(other.distribution.bins.map((b) => b.value)).toEqual(
      sub.distribution.bins.map((b) => b.value).reverse(),
    );
    expect(itemKeys(itemsBa!, selectSectionItems(itemsBa!, { subcategory: mirror }), true)).toEqual(
      itemKeys(
        itemsAb!,
        selectSectionItems(itemsAb!, { subcategory: id as ObjectSubcategory }),
        false,
      ),
    );
  }
  const d = ab.distribution;
  const e = ba.distribution;
  expect(e.bins.map((b) => b.value)).toEqual(d.bins.map((b) => b.value).reverse());
  close(e.mean, d.mean === null ? null : -d.mean);
  close(e.std, d.std);
}

function expectMirrored(ab: ModelComparison, ba: ModelComparison): void {
  for (const [id, x] of Object.entries(ab.result.overall)) {
    const y = ba.result.overall[id]!;
    expect(y.model_a).toBe(x.model_b);
    expect(y.model_b).toBe(x.model_a);
    if (x.raw_delta === null) expect(y.raw_delta).toBeNull();
    else expect(y.raw_delta).toBeCloseTo(-x.raw_delta, 12);
    // Equal scores: A wins both ways round.
    if (x.raw_delta !== 0 && x.better !== null) expect(y.better).toBe(mirrorCategory(x.better));
  }
  expectMirroredEntities(ab.result.per_class, ba.result.per_class);
  expectMirroredEntities(ab.result.per_word, ba.result.per_word);
  expect(ba.result.per_class_unavailable).toBe(ab.result.per_class_unavailable);
  expectMirroredSection(
    ab.result.per_sample,
    ba.result.per_sample,
    ab.items.per_sample,
    ba.items.per_sample,
  );
  expectMirroredSection(
    ab.result.per_object_gt,
    ba.result.per_object_gt,
    ab.items.per_object_gt,
    ba.items.per_object_gt,
  );
  expectMirroredSection(
    ab.result.per_object_pred,
    ba.result.per_object_pred,
    ab.items.per_object_pred,
    ba.items.per_object_pred,
  );
}

const TASKS = Object.keys(COMPARISON_METRICS) as TaskType[];

describe('swapping A and B', () => {
  for (const task of TASKS) {
    it(`mirrors every category, subcategory and delta (${task})`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 2 ** 31 - 1 }),
          fc.constantFrom(...COMPARISON_METRICS[task]),
          (seed, metric) => {
            const rnd = prng(seed);
            const [a, b] = pairFor(task, rnd);
            const rows = Uint32Array.from(
              { length: a.kind === 'objects' ? 8 : a.kind === 'mask' ? 10 : N },
              (_, i) => i,
            ).filter(() => rnd() < 0.8);
            const options = { metric, iouThreshold: 0.3 + 0.4 * rnd() };
            expectMirrored(
              compareModels(task, a, b, rows, options),
              compareModels(task, b, a, rows, options),
            );
          },
        ),
        { numRuns: task.endsWith('segmentation') ? 10 : 25 },
      );
    });
  }

  it('leaves a comparison of a model with itself with no winner anywhere', () => {
    const [a] = objectPair(prng(5), false);
    const { result } = compareModels('object_detection', a, a, Uint32Array.from([0, 1, 2, 3]), {
      metric: 'recall',
      iouThreshold: 0.5,
    });
    for (const section of [result.per_object_gt!, result.per_object_pred!]) {
      expect(section.model_a_is_better.num_items).toBe(0);
      expect(section.model_b_is_better.num_items).toBe(0);
    }
    expect(Object.keys(result.per_object_pred!.subcategories)).toHaveLength(8);
    expect(result.per_class!.model_a_is_better).toEqual([]);
    expect(result.per_class!.model_b_is_better).toEqual([]);
  });
});

// Comparing two models, task by task, on hand-built cases whose winners, deltas, categories and
// counts are worked out in the comments.
import { describe, expect, it } from 'vitest';
import type {
  ClassEvalData,
  MaskEvalData,
  TranscriptEvalData,
  ValueEvalData,
} from '../report/index.js';
import {
  compareModels,
  selectSectionItems,
  type ComparisonSection,
  type SectionItems,
} from './index.js';

const all = (n: number) => Uint32Array.from({ length: n }, (_, i) => i);
const opts = (metric: string) => ({ metric, iouThreshold: 0.5 });

/** Category sizes of a section, in sort order. */
const counts = (s: ComparisonSection | null) => [
  s!.model_a_is_better.num_items,
  s!.both_are_problematic.num_items,
  s!.both_are_neutral.num_items,
  s!.model_b_is_better.num_items,
];

/** Sample (or sample:class) of each item of a category. */
function itemsOf(
  items: SectionItems,
  category: Parameters<typeof selectSectionItems>[1]['category'],
) {
  return Array.from(selectSectionItems(items, { category }), (t) =>
    items.maskClass ? `${items.sample[t]}:${items.maskClass[t]}` : items.sample[t],
  );
}

const entities = (group: { entity: string; raw_delta: number }[]) =>
  group.map((e) => [e.entity, e.raw_delta]);

describe('classification', () => {
  // truth  0 0 1 1 2 2 0 −1     (sample 7 has no ground truth: left out)
  // A      0 0 1 2 2 0 1  0     right: ✓ ✓ ✓ ✗ ✓ ✗ ✗   accuracy 4/7
  // B      0 1 1 1 2 2 −  1     right: ✓ ✗ ✓ ✓ ✓ ✓ ✗   accuracy 5/7 (6 has no prediction)
  const a: ClassEvalData = {
    kind: 'class',
    classes: ['cat', 'dog', 'bird'],
    truth: Int32Array.from([0, 0, 1, 1, 2, 2, 0, -1]),
    pred: Int32Array.from([0, 0, 1, 2, 2, 0, 1, 0]),
    score: new Float64Array(8).fill(NaN),
    probabilities: null,
  };
  const b: ClassEvalData = { ...a, pred: Int32Array.from([0, 1, 1, 1, 2, 2, -1, 1]) };

  it('compares every comparison metric: B − A, relative to A, the better by direction', () => {
    const { result } = compareModels('classification', a, b, all(8), opts('macro_recall'));
    expect(Object.keys(result.overall)).toEqual([
      'accuracy',
      'macro_precision',
      'macro_recall',
      'macro_f1_score',
    ]);
    const accuracy = result.overall.accuracy!;
    expect(accuracy.model_a).toBeCloseTo(4 / 7, 12);
    expect(accuracy.model_b).toBeCloseTo(5 / 7, 12);
    expect(accuracy.raw_delta).toBeCloseTo(1 / 7, 12);
    expect(accuracy.relative_delta).toBeCloseTo(25, 10);
    expect(accuracy.better).toBe('model_b_is_better');
    // Recall A: cat 2/3, dog 1/2, bird 1/2 → 5/9; B: cat 1/3, dog 1, bird 1 → 7/9.
    expect(result.overall.macro_recall!.model_a).toBeCloseTo(5 / 9, 12);
    expect(result.overall.macro_recall!.model_b).toBeCloseTo(7 / 9, 12);
    expect(result.metric).toBe('macro_recall');
    expect(Object.keys(result.other_metrics!)).toEqual([
      'accuracy',
      'macro_precision',
      'macro_f1_score',
    ]);
  });

  it('breaks recall down per class, groups sorted by |delta| then name', () => {
    const { result } = compareModels('classification', a, b, all(8), opts('macro_recall'));
    const perClass = result.per_class!;
    expect(perClass).toMatchObject({ entity: 'class', metric: 'recall', num_entities: 3 });
    expect(entities(perClass.model_a_is_better)).toEqual([['cat', expect.closeTo(-1 / 3, 12)]]);
    // dog and bird both gain 1/2: name order.
    expect(entities(perClass.model_b_is_better)).toEqual([
      ['bird', 0.5],
      ['dog', 0.5],
    ]);
    expect(perClass.both_are_neutral).toEqual([]);
    expect(perClass.both_are_problematic).toEqual([]);
    expect(result.per_class_unavailable).toBe(false);
  });

  it('puts each sample in its category: one right only, both right, both wrong', () => {
    const { result, items } = compareModels('classification', a, b, all(8), opts('accuracy'));
    expect(result.per_sample!.unit).toBe('sample');
    expect(result.per_sample!.num_items).toBe(7);
    expect(counts(result.per_sample)).toEqual([1, 1, 3, 2]);
    const section = items.per_sample!;
    expect(itemsOf(section, 'model_a_is_better')).toEqual([1]);
    expect(itemsOf(section, 'model_b_is_better')).toEqual([3, 5]);
    expect(itemsOf(section, 'both_are_neutral')).toEqual([0, 2, 4]);
    expect(itemsOf(section, 'both_are_problematic')).toEqual([6]);
    expect(result.per_sample!.model_b_is_better.fraction_of_total_items).toBeCloseTo(2 / 7, 12);
  });

  it('distributes the difference in confidence given to the true class', () => {
    // No scores: a predicted label has confidence 1, so p(true class) is 1 when right and 0
    // when wrong (three classes) or missing. Differences B − A: 0, −1, 0, 1, 0, 1, 0.
    const { result } = compareModels('classification', a, b, all(8), opts('accuracy'));
    const d = result.per_sample!.distribution;
    expect(d.type).toBe('confidence');
    expect(d.bins).toHaveLength(21);
    expect(d.bins[0]).toMatchObject({ start: -1, value: 1 });
    expect(d.bins[10]!.value).toBe(4);
    expect(d.bins[10]!.start).toBeLessThan(0);
    expect(d.bins[10]!.end).toBeGreaterThan(0);
    expect(d.bins[20]).toMatchObject({ end: 1, value: 2 });
    expect(d.bins.reduce((n, bin) => n + bin.value, 0)).toBe(7);
    expect(d.mean).toBeCloseTo(1 / 7, 12);
    // E[x²] = 3/7, variance 3/7 − 1/49 = 20/49.
    expect(d.std).toBeCloseTo(Math.sqrt(20) / 7, 12);
    expect(d.explore_config).toBeNull();
  });

  it('has no per-class breakdown for Accuracy', () => {
    const { result } = compareModels('classification', a, b, all(8), opts('accuracy'));
    expect(result.per_class).toBeNull();
    expect(result.per_class_unavailable).toBe(true);
  });

  it('calls classes both problematic when both score 0, on the rows given', () => {
    // truth 0 1 2 (sample 3 is not compared); A predicts 0 0 0, B 0 2 1. F1 A: cat 1/2, dog 0, bird 0; B: cat 1, dog 0,
    // bird 0.
    const x: ClassEvalData = {
      kind: 'class',
      classes: ['cat', 'dog', 'bird'],
      truth: Int32Array.from([0, 1, 2, 0]),
      pred: Int32Array.from([0, 0, 0, 2]),
      score: new Float64Array(4).fill(NaN),
      probabilities: null,
    };
    const y: ClassEvalData = { ...x, pred: Int32Array.from([0, 2, 1, 2]) };
    const { result } = compareModels('classification', x, y, all(3), opts('macro_f1_score'));
    const perClass = result.per_class!;
    expect(entities(perClass.model_b_is_better)).toEqual([['cat', 0.5]]);
    expect(perClass.both_are_problematic.map((e) => e.entity)).toEqual(['bird', 'dog']);
    expect(perClass.model_a_is_better).toEqual([]);
  });

  it('compares the EER of each class one-vs-rest (audio classification)', () => {
    // Two classes with probabilities: A separates them perfectly (EER 0); B's EER of the
    // positive class is the overall EER the report computes.
    const x: ClassEvalData = {
      kind: 'class',
      classes: ['no', 'yes'],
      truth: Int32Array.from([0, 0, 1, 1, 0, 1]),
      pred: Int32Array.from([0, 0, 1, 1, 0, 1]),
      score: new Float64Array(6).fill(NaN),
      probabilities: Float32Array.from([
        0.9, 0.1, 0.8, 0.2, 0.2, 0.8, 0.1, 0.9, 0.7, 0.3, 0.4, 0.6,
      ]),
    };
    const y: ClassEvalData = {
      ...x,
      pred: Int32Array.from([1, 0, 0, 1, 0, 1]),
      probabilities: Float32Array.from([
        0.4, 0.6, 0.8, 0.2, 0.7, 0.3, 0.1, 0.9, 0.5, 0.5, 0.3, 0.7,
      ]),
    };
    const { result } = compareModels(
      'audio_classification',
      x,
      y,
      all(6),
      opts('equal_error_rate'),
    );
    expect(Object.keys(result.overall)).toContain('equal_error_rate');
    const eer = result.overall.equal_error_rate!;
    expect(eer.model_a).toBe(0);
    expect(eer.model_b).toBeGreaterThan(0);
    expect(eer.better).toBe('model_a_is_better');
    const perClass = result.per_class!;
    expect(perClass.metric).toBe('equal_error_rate');
    // EER is 'lower': B's larger EER makes A better on both classes.
    const yes = perClass.model_a_is_better.find((e) => e.entity === 'yes')!;
    expect(yes.model_a).toBe(0);
    expect(yes.model_b).toBeCloseTo(eer.model_b!, 6);
    expect(perClass.model_a_is_better.map((e) => e.entity).sort()).toEqual(['no', 'yes']);
  });
});

describe('regression', () => {
  // age: truth 10 20 30 40 50; A 11 20 33 40 − ; B 10 22 31 40 55.
  //   |error| A 1 0 3 0 −; B 0 2 1 0 5. Both predicted: samples 0–3.
  // weight: truth 1 everywhere; A exact; B 2 on sample 0, exact elsewhere.
  const a: ValueEvalData = {
    kind: 'value',
    valueNames: ['age', 'weight'],
    truth: Float64Array.from([10, 1, 20, 1, 30, 1, 40, 1, 50, 1]),
    pred: Float64Array.from([11, 1, 20, 1, 33, 1, 40, 1, NaN, 1]),
  };
  const b: ValueEvalData = { ...a, pred: Float64Array.from([10, 2, 22, 1, 31, 1, 40, 1, 55, 1]) };

  it('compares one value name: errors overall, the smaller |error| wins per sample', () => {
    const { result, items } = compareModels('regression', a, b, all(5), {
      ...opts('mean_absolute_error'),
      valueName: 'age',
    });
    expect(result.regression_value_name).toBe('age');
    // MAE A (1 + 0 + 3 + 0)/4 = 1 (sample 4 unpredicted); B (0 + 2 + 1 + 0 + 5)/5 = 1.6.
    expect(result.overall.mean_absolute_error).toMatchObject({
      model_a: 1,
      model_b: 1.6,
      better: 'model_a_is_better',
    });
    expect(result.overall.mean_absolute_error!.raw_delta).toBeCloseTo(0.6, 12);
    expect(result.overall.mean_absolute_error!.relative_delta).toBeCloseTo(60, 10);
    // MSE A 10/4 = 2.5, B 30/5 = 6.
    expect(result.overall.mean_squared_error).toMatchObject({ model_a: 2.5, model_b: 6 });
    expect(result.per_class).toBeNull();
    expect(result.per_class_unavailable).toBe(false);
    // 0: B better (0 < 1); 1: A (0 < 2); 2: B (1 < 3); 3: equal → neutral, never problematic.
    expect(counts(result.per_sample)).toEqual([1, 0, 1, 2]);
    expect(itemsOf(items.per_sample!, 'model_b_is_better')).toEqual([0, 2]);
    expect(itemsOf(items.per_sample!, 'both_are_neutral')).toEqual([3]);
    // Differences −1, 2, −2, 0 over [−2, 2].
    const d = result.per_sample!.distribution;
    expect(d.type).toBe('error');
    expect(d.bins[0]!.start).toBe(-2);
    expect(d.bins[20]!.end).toBe(2);
    expect(d.bins[0]!.value).toBe(1);
    expect(d.bins[20]!.value).toBe(1);
    expect(d.bins[10]!.value).toBe(1);
    expect(d.mean).toBeCloseTo(-0.25, 12);
  });

  it('averages over the value names when none is chosen', () => {
    const { result } = compareModels('regression', a, b, all(5), opts('mean_absolute_error'));
    expect(result.regression_value_name).toBeNull();
    // Uniform average of the value names: A (1 + 0)/2, B (1.6 + 0.2)/2.
    expect(result.overall.mean_absolute_error!.model_a).toBeCloseTo(0.5, 12);
    expect(result.overall.mean_absolute_error!.model_b).toBeCloseTo(0.9, 12);
    // Per sample, mean |error| over the names both predicted: 0: A (1 + 0)/2, B (0 + 1)/2 →
    // equal; 1: A 0, B 1 → A; 2: A 1.5, B 0.5 → B; 3: equal; 4: weight only, equal.
    expect(counts(result.per_sample)).toEqual([1, 0, 3, 1]);
  });

  it('refuses a value name the data does not have', () => {
    expect(() =>
      compareModels('regression', a, b, all(5), { ...opts('mean_absolute_error'), valueName: 'x' }),
    ).toThrow(/value name "x"/);
  });
});

describe('speech recognition', () => {
  // 0 "the cat sat": A exact (WER 0), B "the bat sat" (1/3).
  // 1 "a dog": A "a cat" (1/2), B exact (0).
  // 2 "hello world": both "hello" (1/2).
  // 3 "x": A no hypothesis, B exact.
  const a: TranscriptEvalData = {
    kind: 'transcript',
    reference: ['the cat sat', 'a dog', 'hello world', 'x'],
    hypothesis: ['the cat sat', 'a cat', 'hello', null],
  };
  const b: TranscriptEvalData = { ...a, hypothesis: ['the bat sat', 'a dog', 'hello', 'x'] };

  it('compares corpus WER and MER, the lower wins', () => {
    const { result } = compareModels(
      'automatic_speech_recognition',
      a,
      b,
      all(4),
      opts('word_error_rate'),
    );
    // A: 2 errors / 7 reference words; B: 2 / 8.
    const wer = result.overall.word_error_rate!;
    expect(wer.model_a).toBeCloseTo(2 / 7, 12);
    expect(wer.model_b).toBeCloseTo(1 / 4, 12);
    expect(wer.raw_delta).toBeCloseTo(-1 / 28, 12);
    expect(wer.better).toBe('model_b_is_better');
    expect(Object.keys(result.other_metrics!)).toEqual(['match_error_rate']);
  });

  it('breaks down per word: (substitutions + deletions) / occurrences, three segments', () => {
    const { result } = compareModels(
      'automatic_speech_recognition',
      a,
      b,
      all(4),
      opts('word_error_rate'),
    );
    const perWord = result.per_word!;
    expect(perWord.entity).toBe('word');
    // "cat" A 0, B 1 (substituted); "dog" A 1, B 0; "world" deleted by both; "x" only in B's
    // utterances (A has no hypothesis there): left out.
    expect(entities(perWord.model_a_is_better)).toEqual([['cat', 1]]);
    expect(entities(perWord.model_b_is_better)).toEqual([['dog', -1]]);
    expect(perWord.both_are_neutral.map((e) => e.entity).sort()).toEqual([
      'a',
      'hello',
      'sat',
      'the',
      'world',
    ]);
    expect(perWord.both_are_problematic).toEqual([]);
    expect(result.per_class).toBeNull();
  });

  it('compares utterances both transcribed by WER or by MER', () => {
    const byWer = compareModels(
      'automatic_speech_recognition',
      a,
      b,
      all(4),
      opts('word_error_rate'),
    );
    // 0: A better; 1: B better; 2: equal; 3: A has no hypothesis, left out.
    expect(counts(byWer.result.per_sample)).toEqual([1, 0, 1, 1]);
    expect(byWer.result.per_sample!.distribution.type).toBe('word_error_rate');
    expect(byWer.result.per_sample!.distribution.mean).toBeCloseTo((1 / 3 - 1 / 2 + 0) / 3, 12);
    const byMer = compareModels(
      'automatic_speech_recognition',
      a,
      b,
      all(4),
      opts('match_error_rate'),
    );
    expect(byMer.result.per_sample!.distribution.type).toBe('match_error_rate');
    // MER of 0 for B: 1 error / (2 hits + 1 error) = 1/3; of 1 for A: 1/2; of 2: 1/2 each.
    expect(byMer.result.per_sample!.distribution.mean).toBeCloseTo((1 / 3 - 1 / 2) / 3, 12);
  });
});

describe('semantic segmentation', () => {
  // Classes bg, road, car; confusions row = truth, column = prediction.
  // Image 0: truth bg 10 px, road 5. A: bg [8 2 0], road [1 4 0] → IoU bg 8/11, road 4/7.
  //          B perfect → 1, 1.
  // Image 1: truth road 4, car 4. A perfect; B road perfect, car predicted as bg → car IoU 0.
  // Image 2: truth car 3. A predicts road, B bg → car IoU 0 for both.
  const K = 3;
  const confusion = (...rows: number[][]) => Float64Array.from(rows.flat());
  const a: MaskEvalData = {
    kind: 'mask',
    classes: ['bg', 'road', 'car'],
    confusion: [
      confusion([8, 2, 0], [1, 4, 0], [0, 0, 0]),
      confusion([0, 0, 0], [0, 4, 0], [0, 0, 4]),
      confusion([0, 0, 0], [0, 0, 0], [0, 3, 0]),
      null,
    ],
  };
  const b: MaskEvalData = {
    ...a,
    confusion: [
      confusion([10, 0, 0], [0, 5, 0], [0, 0, 0]),
      confusion([0, 0, 0], [0, 4, 0], [4, 0, 0]),
      confusion([0, 0, 0], [0, 0, 0], [3, 0, 0]),
      confusion([1, 0, 0], [0, 0, 0], [0, 0, 0]),
    ],
  };

  it('compares each ground-truth mask by IoU: equal, or both zero', () => {
    const { result, items } = compareModels('semantic_segmentation', a, b, all(4), opts('IoU'));
    expect(result.per_sample!.unit).toBe('mask');
    // (0,bg) B; (0,road) B; (1,road) equal; (1,car) A; (2,car) both 0. Image 3: A has no mask.
    expect(counts(result.per_sample)).toEqual([1, 1, 1, 2]);
    expect(itemsOf(items.per_sample!, 'model_b_is_better')).toEqual(['0:0', '0:1']);
    expect(itemsOf(items.per_sample!, 'both_are_problematic')).toEqual(['2:2']);
    expect(result.per_sample!.distribution.type).toBe('iou');
    expect(result.other_metrics).toBeNull();
    expect(K).toBe(3);
  });

  it('compares IoU per class over the summed confusion (images both predicted)', () => {
    // Summed over images 0–2. A: bg 8/11; road 8/(9 + 13 − 8) = 4/7; car 4/(7 + 4 − 4) = 4/7.
    // B (image 3 too, its bg row adds 1 pixel to bg): bg 11/(11 + 18 − 11) = 11/18; road 1;
    // car 0.
    const { result } = compareModels('semantic_segmentation', a, b, all(4), opts('IoU'));
    const perClass = result.per_class!;
    expect(entities(perClass.model_b_is_better)).toEqual([['road', expect.closeTo(3 / 7, 12)]]);
    expect(entities(perClass.model_a_is_better)).toEqual([
      ['car', expect.closeTo(-4 / 7, 12)],
      ['bg', expect.closeTo(11 / 18 - 8 / 11, 12)],
    ]);
    expect(result.overall.IoU!.model_a).toBeCloseTo((8 / 11 + 4 / 7 + 4 / 7) / 3, 12);
    expect(result.overall.IoU!.model_b).toBeCloseTo((11 / 18 + 1 + 0) / 3, 12);
  });
});

describe('what is refused', () => {
  const a: ClassEvalData = {
    kind: 'class',
    classes: ['x', 'y'],
    truth: Int32Array.from([0, 1]),
    pred: Int32Array.from([0, 1]),
    score: new Float64Array(2).fill(NaN),
    probabilities: null,
  };

  it('a metric that is not a comparison metric of the task', () => {
    expect(() => compareModels('classification', a, a, all(2), opts('equal_error_rate'))).toThrow(
      /not a comparison metric of classification/,
    );
  });

  it('evaluation data of different ground truth', () => {
    const b = { ...a, truth: Int32Array.from([1, 1]) };
    expect(() => compareModels('classification', a, b, all(2), opts('accuracy'))).toThrow(
      /differ in ground truth/,
    );
  });
});

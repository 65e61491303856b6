import type { ExploreItem, ItemPrediction } from '@loupe/contracts';
import { expect, test } from 'vitest';
import { comparedSides, predictionText, type ComparedModels } from './comparedModels';

const prediction = (change: Partial<ItemPrediction>): ItemPrediction => ({
  label: null,
  score: null,
  probabilities: null,
  values: null,
  transcript: null,
  mask_src: null,
  ...change,
});

const models = (own: 'A' | 'B'): ComparedModels => ({
  request: { predictions_id_a: 'a', predictions_id_b: 'b', split: 'all' },
  own,
  a: { key: 'A', id: 'a', name: 'Model one', color: 'blue' },
  b: { key: 'B', id: 'b', name: 'Model two', color: 'orange' },
});

const item = {
  prediction: prediction({ label: 'cat', score: 0.912 }),
  objects: [
    { id: 'g1', label: 'cat', type: 'gt', coords: null },
    { id: 'pred:own', label: 'cat', type: 'pred', coords: null },
  ],
  compared_prediction: {
    predictions_id: 'other',
    prediction: prediction({ label: 'dog', score: 0.5 }),
    objects: [{ id: 'pred:other', label: 'dog', type: 'pred', coords: null }],
  },
} as unknown as ExploreItem;

test("the item's own prediction is the explorer's model's: A's in A's explorer, B's in B's", () => {
  const [a, b] = comparedSides(item, models('A'));
  expect([a.model.key, a.prediction?.label, a.objects.map((o) => o.id)]).toEqual([
    'A',
    'cat',
    ['pred:own'],
  ]);
  expect([b.model.key, b.prediction?.label, b.objects.map((o) => o.id)]).toEqual([
    'B',
    'dog',
    ['pred:other'],
  ]);
  const [a2, b2] = comparedSides(item, models('B'));
  expect(a2.prediction?.label).toBe('dog');
  expect(b2.objects.map((o) => o.id)).toEqual(['pred:own']);
  // Without the other model's prediction (not loaded with a comparison) its side is empty.
  const [, alone] = comparedSides({ ...item, compared_prediction: undefined }, models('A'));
  expect([alone.prediction, alone.objects]).toEqual([null, []]);
});

test("the other model's objects numbered like the own model's get ids of their own", () => {
  const same = { id: 'pred:frame.png#0', label: 'car', type: 'pred', coords: null } as const;
  const clash = {
    ...item,
    objects: [same],
    compared_prediction: { ...item.compared_prediction!, objects: [same, { ...same, id: 'x' }] },
  } as ExploreItem;
  const [a, b] = comparedSides(clash, models('A'));
  expect(a.objects.map((o) => o.id)).toEqual(['pred:frame.png#0']);
  expect(b.objects.map((o) => o.id)).toEqual(['B:pred:frame.png#0', 'x']);
  const [a2, b2] = comparedSides(clash, models('B'));
  expect(a2.objects.map((o) => o.id)).toEqual(['A:pred:frame.png#0', 'x']);
  expect(b2.objects.map((o) => o.id)).toEqual(['pred:frame.png#0']);
});

test('a prediction reads as its label and score, or its values', () => {
  expect(predictionText(prediction({ label: 'cat', score: 0.912 }))).toBe('cat 0.91');
  expect(predictionText(prediction({ label: 'cat' }))).toBe('cat');
  expect(predictionText(prediction({ values: { age: 31.234, height: 2 } }))).toBe(
    'age: 31.23, height: 2',
  );
  expect(predictionText(prediction({ transcript: 'hello' }))).toBeNull();
  expect(predictionText(null)).toBeNull();
});

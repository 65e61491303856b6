import type { CheckParams, DataLevel, TaskType } from '@loupe/contracts';
import { describe, expect, it } from 'vitest';
import { outlierChecks } from './outliers.js';
import type { CheckSnapshot, FeatureMatrix, ParamContext } from './types.js';

const definition = outlierChecks[0]!;

const context: ParamContext = {
  features: ['image.descriptor', 'clip'],
  defaultFeature: 'image.descriptor',
  classes: [],
  splits: ['test', 'train'],
};

/**
 * 40 samples per split ('test', 'train') along two tight directions, plus in 'train' one sample
 * pointing the other way (s5) and one without a vector (s6).
 */
function snapshot(task: TaskType = 'classification'): CheckSnapshot {
  const n = 80;
  const d = 3;
  const data = new Float32Array(n * d);
  const present = new Uint8Array(n).fill(1);
  for (let i = 0; i < n; i++) {
    const wobble = 0.01 * ((i * 7) % 5);
    if (i % 2 === 0) data.set([1, wobble, 0], i * d);
    else data.set([wobble, 1, 0], i * d);
  }
  data.set([0, 0, 1], 5 * d);
  present[6] = 0;
  data.set([0, 0, 0], 6 * d);
  const feature: FeatureMatrix = { name: 'image.descriptor', dimension: d, data, present };
  return {
    datasetId: 'dataset',
    task,
    media: task === 'audio_classification' ? 'audio' : 'image',
    classes: [],
    samples: {
      ids: Array.from({ length: n }, (_, i) => `s${i}`),
      // Train: rows 0–39; test: rows 40–79 (split names ascending: test = 0, train = 1).
      split: Int32Array.from({ length: n }, (_, i) => (i < 40 ? 1 : 0)),
      splitNames: ['test', 'train'],
      label: new Int32Array(n).fill(-1),
      numeric: {},
      strings: {},
      booleans: {},
    },
    objects: null,
    features: { 'image.descriptor': feature },
    predictions: null,
  };
}

function run(snap: CheckSnapshot, overrides: CheckParams = {}) {
  const level: DataLevel = definition.levels(snap.task)[0]!;
  const params = { ...definition.params(context), ...overrides };
  return definition.run({ snapshot: snap, params, level, checkId: `outlier.${level}` });
}

describe('outlier check', () => {
  it('is offered at the sample level of every task, by its media', () => {
    expect(definition.levels('classification')).toEqual(['image']);
    expect(definition.levels('object_detection')).toEqual(['image']);
    expect(definition.levels('automatic_speech_recognition')).toEqual(['audio']);
    expect(definition.group).toBe('Outliers');
    expect(definition.requires).toEqual({ feature: true });
  });

  it('offers the features, k and sensitivity as params', () => {
    const params = definition.params(context);
    expect(params.feature).toMatchObject({
      type: 'categorical',
      value: ['image.descriptor'],
      categories: ['image.descriptor', 'clip'],
      single: true,
    });
    expect(params.k).toMatchObject({ type: 'int', value: 10, min: 5, max: 50 });
    expect(params.sensitivity).toMatchObject({ type: 'float', value: 5 });
  });

  it('flags the item pointing away from its split, with its score, and offers to delete it', () => {
    const outcome = run(snapshot());
    expect(outcome.flagged.ids).toEqual(['s5']);
    // s5 is orthogonal to every other train vector: cosine distance 1 to each neighbour.
    expect(outcome.flagged.values.score).toEqual([1]);
    expect(outcome.checked).toBe(79);
    expect(outcome.is_approximate).toBe(false);
    expect(outcome.summary).toBe('{n} items are outliers in their split');
    expect(outcome.preview).toEqual({
      sort_by: [{ name: 'score', direction: 'descending' }],
      visible_metadata_ids: ['score', 'split'],
    });
    expect(outcome.recommendation).toEqual({
      type: 'actions',
      actions: [
        {
          type: 'delete',
          suggestions: [{ id: 'delete', name: 'Delete outliers', item_ids: ['s5'] }],
        },
      ],
    });
  });

  it('judges each split by its own neighbours', () => {
    // In 'test' the same direction is the norm for half the split: nothing stands out there.
    const snap = snapshot();
    const { data } = snap.features['image.descriptor']!;
    for (let i = 41; i < 80; i += 2) data.set([0, 0, 1], i * 3);
    const outcome = run(snap, {
      k: { type: 'int', label: 'Neighbours', value: 5, min: 5, max: 50 },
    });
    expect(outcome.flagged.ids).toEqual(['s5']);
  });

  it('throws when the chosen feature is missing', () => {
    expect(() =>
      run(snapshot(), {
        feature: { type: 'categorical', label: 'Feature', value: ['clip'], categories: [] },
      }),
    ).toThrow("The feature 'clip' is not available");
  });
});

import type { CheckParams, DataLevel, TaskType } from '@loupe/contracts';
import { describe, expect, it } from 'vitest';
import { labelChecks, predictedObjectItemId } from './labels.js';
import { testSnapshot } from './test-snapshot.js';
import type {
  CheckDefinition,
  CheckSnapshot,
  ObjectColumns,
  ParamContext,
  PredictionColumns,
} from './types.js';

const SET_ID = '00000000-0000-4000-8000-000000000001';

function check(key: string): CheckDefinition {
  const found = labelChecks.find((c) => c.key === key);
  if (!found) throw new Error(`no check ${key}`);
  return found;
}

function snapshot(
  task: TaskType,
  classes: string[],
  labels: number[],
  extra: Partial<CheckSnapshot> = {},
): CheckSnapshot {
  return testSnapshot({ task, classes, label: labels }, extra);
}

function predictions(n: number, extra: Partial<PredictionColumns>): PredictionColumns {
  return {
    id: SET_ID,
    name: 'model-1',
    hasPrediction: new Uint8Array(n).fill(1),
    label: new Int32Array(n).fill(-1),
    score: new Float32Array(n),
    probabilities: null,
    objects: null,
    ...extra,
  };
}

const context: ParamContext = {
  features: ['image.descriptor', 'clip'],
  defaultFeature: 'clip',
  classes: [],
  splits: ['train'],
};

function run(key: string, snap: CheckSnapshot, overrides: CheckParams = {}) {
  const definition = check(key);
  const level: DataLevel = definition.levels(snap.task)[0]!;
  const params = { ...definition.params(context), ...overrides };
  return definition.run({ snapshot: snap, params, level, checkId: `${key}.${level}` });
}

describe('label checks catalogue', () => {
  it('offers label errors to classification tasks at their sample level, object checks to object tasks', () => {
    const levels = (key: string, task: TaskType) => check(key).levels(task);
    expect(levels('label_errors', 'classification')).toEqual(['image']);
    expect(levels('label_errors_knn', 'audio_classification')).toEqual(['audio']);
    expect(levels('label_errors', 'object_detection')).toEqual([]);
    expect(levels('label_errors', 'regression')).toEqual([]);
    for (const key of ['missing_objects', 'spurious_objects', 'wrong_object_labels']) {
      expect(levels(key, 'object_detection')).toEqual(['image_object']);
      expect(levels(key, 'instance_segmentation')).toEqual(['image_object']);
      expect(levels(key, 'semantic_segmentation')).toEqual([]);
      expect(levels(key, 'classification')).toEqual([]);
    }
    expect(labelChecks.map((c) => [c.key, c.order, c.group])).toEqual([
      ['label_errors', 0, 'Label Quality'],
      ['label_errors_knn', 1, 'Label Quality'],
      ['missing_objects', 2, 'Label Quality'],
      ['spurious_objects', 3, 'Label Quality'],
      ['wrong_object_labels', 4, 'Label Quality'],
    ]);
    expect(check('label_errors').requires).toEqual({ predictions: 'probabilities' });
    expect(check('label_errors_knn').requires).toEqual({ feature: true });
    expect(check('missing_objects').requires).toEqual({ predictions: 'objects' });
  });

  it('offers the feature and k of the neighbour check', () => {
    const params = check('label_errors_knn').params(context);
    expect(params.feature).toMatchObject({
      type: 'categorical',
      value: ['clip'],
      categories: ['image.descriptor', 'clip'],
      single: true,
    });
    expect(params.k).toMatchObject({ type: 'int', value: 10, min: 5, max: 50 });
    expect(check('missing_objects').params(context).min_score).toMatchObject({ value: 0.6 });
    expect(check('spurious_objects').params(context).iou).toMatchObject({ value: 0.3 });
    expect(check('wrong_object_labels').params(context).iou).toMatchObject({ value: 0.5 });
  });
});

describe('label_errors', () => {
  // The hand-computed case of packages/analysis/src/checks/label-errors.test.ts: s1 (labelled a)
  // is flagged with suggestion b; s6 has no prediction and is not checked.
  const probabilities = Float32Array.from(
    [
      [0.9, 0.05, 0.05],
      [0.2, 0.75, 0.05],
      [0.4, 0.35, 0.25],
      [0.1, 0.8, 0.1],
      [0.1, 0.6, 0.3],
      [0.05, 0.15, 0.8],
      [0.0, 1.0, 0.0],
    ].flat(),
  );
  const labels = [0, 0, 0, 1, 1, 2, 0];
  const hasPrediction = Uint8Array.from([1, 1, 1, 1, 1, 1, 0]);
  const snap = snapshot('classification', ['a', 'b', 'c'], labels, {
    predictions: predictions(7, { probabilities, hasPrediction }),
  });

  it('flags the likely mislabelled items with a suggestion and a relabel action', () => {
    const outcome = run('label_errors', snap);
    expect(outcome.checked).toBe(6);
    expect(outcome.flagged.ids).toEqual(['s1']);
    expect(outcome.flagged.values).toEqual({ score: [0.2], suggested_label: ['b'] });
    expect(outcome.is_approximate).toBe(false);
    expect(outcome.summary).toBe('{n} items are likely mislabelled');
    expect(outcome.preview).toEqual({
      sort_by: [{ name: 'score', direction: 'ascending' }],
      visible_metadata_ids: ['label', 'suggested_label', 'score'],
    });
    expect(outcome.recommendation).toEqual({
      type: 'actions',
      actions: [
        {
          type: 'update_item_field',
          field_name: 'label',
          updates: { b: { id: 'relabel:b', name: 'Relabel to b', item_ids: ['s1'] } },
        },
      ],
    });
  });

  it('passes with no recommendation when the model agrees with every label', () => {
    const clean = snapshot('audio_classification', ['a', 'b'], [0, 0, 1, 1], {
      predictions: predictions(4, {
        probabilities: Float32Array.from([0.9, 0.1, 0.8, 0.2, 0.3, 0.7, 0.1, 0.9]),
      }),
    });
    const outcome = run('label_errors', clean);
    expect(outcome.checked).toBe(4);
    expect(outcome.flagged.ids).toEqual([]);
    expect(outcome.recommendation).toBeNull();
  });

  it('throws without probabilities (the framework reports missing requirements first)', () => {
    const without = snapshot('classification', ['a', 'b'], [0, 1], {
      predictions: predictions(2, {}),
    });
    expect(() => run('label_errors', without)).toThrow(/probabilities/);
  });
});

describe('label_errors_knn', () => {
  // Two clusters by direction: s0–s6 near (1, 0), s7–s12 near (0, 1). s3 sits in the first but
  // is labelled b; s13 has no vector. With k = 5, s3's neighbours all say a.
  const rows: [number, number, number][] = [
    [1, 0.0, 0],
    [1, 0.05, 0],
    [1, 0.1, 0],
    [1, 0.02, 1],
    [1, 0.08, 0],
    [1, 0.12, 0],
    [1, 0.15, 0],
    [0.0, 1, 1],
    [0.05, 1, 1],
    [0.1, 1, 1],
    [0.02, 1, 1],
    [0.08, 1, 1],
    [0.12, 1, 1],
    [0, 0, 0],
  ];
  const present = Uint8Array.from(rows, (_, i) => (i === 13 ? 0 : 1));
  const snap = snapshot(
    'classification',
    ['a', 'b'],
    rows.map((r) => r[2]),
    {
      features: {
        clip: {
          name: 'clip',
          dimension: 2,
          data: Float32Array.from(rows.flatMap((r) => [r[0], r[1]])),
          present,
        },
      },
    },
  );

  it('flags the item its neighbours contradict', () => {
    const outcome = run('label_errors_knn', snap, {
      k: { type: 'int', label: 'Neighbours', value: 5, min: 5, max: 50 },
    });
    expect(outcome.checked).toBe(13);
    expect(outcome.flagged.ids).toEqual(['s3']);
    expect(outcome.flagged.values.suggested_label).toEqual(['a']);
    expect(outcome.is_approximate).toBe(false);
    expect(outcome.recommendation).toMatchObject({
      type: 'actions',
      actions: [
        { type: 'update_item_field', field_name: 'label', updates: { a: { item_ids: ['s3'] } } },
      ],
    });
  });

  it('throws when the chosen feature is not in the snapshot', () => {
    expect(() =>
      run('label_errors_knn', snap, {
        feature: { type: 'categorical', label: 'Feature', value: ['other'], categories: [] },
      }),
    ).toThrow(/other/);
  });
});

describe('object checks', () => {
  // Image s0: g0 is predicted as is; g1 (label b) is predicted as a; g2 only by a 0.2 prediction.
  // p2 stands where nothing is annotated. Image s1 has no predictions.
  const truth: ObjectColumns = {
    ids: ['g0', 'g1', 'g2', 'g3'],
    sample: Int32Array.from([0, 0, 0, 1]),
    label: Int32Array.from([0, 1, 0, 0]),
    boxes: Float64Array.from([0, 0, 10, 10, 20, 20, 10, 10, 50, 50, 10, 10, 0, 0, 10, 10]),
  };
  const predicted = {
    ids: ['p0', 'p1', 'p2', 'p3'],
    sample: Int32Array.from([0, 0, 0, 0]),
    label: Int32Array.from([0, 0, 1, 0]),
    score: Float32Array.from([0.9, 0.8, 0.7, 0.2]),
    boxes: Float64Array.from([0, 0, 10, 10, 20, 20, 10, 10, 100, 100, 10, 10, 50, 52, 10, 10]),
  };
  const snap = snapshot('object_detection', ['a', 'b'], [-1, -1], {
    objects: truth,
    predictions: predictions(2, { objects: predicted }),
  });

  it('missing_objects flags predicted objects by their explorer ids and adds them as ground truth', () => {
    const outcome = run('missing_objects', snap);
    expect(outcome.checked).toBe(3);
    expect(outcome.flagged.ids).toEqual(['pred:p2']);
    expect(outcome.flagged.values).toEqual({ score: [0.7], max_iou: [0] });
    expect(outcome.recommendation).toEqual({
      type: 'actions',
      actions: [
        {
          type: 'add_predicted_objects_to_ground_truth',
          predictions_id: SET_ID,
          suggestions: [{ id: 'add', name: 'Add as ground truth', item_ids: ['pred:p2'] }],
        },
      ],
    });
    // A lower bar on the score brings nothing more (p3 overlaps g2).
    const low = run('missing_objects', snap, {
      min_score: { type: 'float', label: 'Minimum score', value: 0.1 },
    });
    expect(low.flagged.ids).toEqual(['pred:p2']);
    expect(low.checked).toBe(4);
  });

  it('spurious_objects flags unsupported ground truth for deletion', () => {
    const outcome = run('spurious_objects', snap);
    expect(outcome.checked).toBe(3);
    expect(outcome.flagged.ids).toEqual(['g2']);
    expect(outcome.recommendation).toEqual({
      type: 'actions',
      actions: [
        { type: 'delete', suggestions: [{ id: 'delete', name: 'Delete', item_ids: ['g2'] }] },
      ],
    });
    const lenient = run('spurious_objects', snap, {
      min_score: { type: 'float', label: 'Minimum score', value: 0.1 },
    });
    expect(lenient.flagged.ids).toEqual([]);
    expect(lenient.recommendation).toBeNull();
  });

  it('wrong_object_labels flags ground truth a confident prediction relabels', () => {
    const outcome = run('wrong_object_labels', snap);
    expect(outcome.flagged.ids).toEqual(['g1']);
    expect(outcome.flagged.values).toEqual({ suggested_label: ['a'], score: [0.8], iou: [1] });
    expect(outcome.recommendation).toEqual({
      type: 'actions',
      actions: [
        {
          type: 'update_item_field',
          field_name: 'label',
          updates: { a: { id: 'relabel:a', name: 'Relabel to a', item_ids: ['g1'] } },
        },
      ],
    });
  });

  it('names predicted objects once with the prefix', () => {
    expect(predictedObjectItemId('p1')).toBe('pred:p1');
    expect(predictedObjectItemId('pred:p1')).toBe('pred:p1');
  });
});

import { createRandom } from '@loupe/analysis';
import type { CheckParams, TaskType } from '@loupe/contracts';
import { describe, expect, it } from 'vitest';
import {
  duplicateChecks,
  NEAR_DUPLICATE_HASH_DISTANCE,
  NEAR_DUPLICATE_THRESHOLD,
} from './duplicates.js';
import type { CheckDefinition, CheckSnapshot, ParamContext } from './types.js';

const context: ParamContext = {
  features: ['descriptor', 'clip'],
  defaultFeature: 'descriptor',
  classes: [],
  splits: ['test', 'train', 'validation'],
};

function check(key: string, task: TaskType = 'classification'): CheckDefinition {
  const found = duplicateChecks.filter((d) => d.key === key && d.levels(task).length > 0);
  expect(found).toHaveLength(1);
  return found[0]!;
}

const [TEST, TRAIN, VALIDATION] = [0, 1, 2];

/**
 * Ten samples. Content hashes: a = s0 (test), s1 (train), s6 (validation); b = s2, s3 (both
 * train); c = s5 (validation), s7 (test). Vectors and perceptual hashes make near-duplicates of
 * s0–s1 (vectors), s2–s3 (vectors, both train), s4–s8 (hashes 3 bits apart) and s5–s9 (s9 has
 * no split).
 */
function snapshot(task: TaskType = 'classification'): CheckSnapshot {
  const vectors = [
    [1, 0, 0],
    [1, 0.01, 0],
    [0, 1, 0],
    [0, 1, 0.05],
    [0, 0, 1],
    [1, -1, 0],
    [-1, 1, 0],
    [0, -1, 1],
    [1, 1, 1],
    [1, -1, 0.02],
  ];
  const n = vectors.length;
  return {
    datasetId: 'dataset',
    task,
    media: task === 'audio_classification' ? 'audio' : 'image',
    classes: [],
    samples: {
      ids: vectors.map((_, i) => `s${i}`),
      split: Int32Array.from([
        TEST,
        TRAIN,
        TRAIN,
        TRAIN,
        TEST,
        VALIDATION,
        VALIDATION,
        TEST,
        TRAIN,
        -1,
      ]),
      splitNames: ['test', 'train', 'validation'],
      label: new Int32Array(n).fill(-1),
      numeric: {},
      strings: {
        'image.content_hash': ['a', 'a', 'b', 'b', null, 'c', 'a', 'c', 'd', 'e'],
        'audio.content_hash': ['a', 'a', 'b', 'b', null, 'c', 'a', 'c', 'd', 'e'],
        'image.phash': [
          'ffffffffffffffff',
          '00000000ffffffff',
          'ffffffff00000000',
          '0f0f0f0f0f0f0f0f',
          '0000000000000000',
          'f0f0f0f0f0f0f0f0',
          '3333333333333333',
          'cccccccccccccccc',
          '0000000000000007',
          '5555555555555555',
        ],
      },
      booleans: {},
    },
    objects: null,
    features: {
      descriptor: {
        name: 'descriptor',
        dimension: 3,
        data: Float32Array.from(vectors.flat()),
        present: new Uint8Array(n).fill(1),
      },
    },
    predictions: null,
  };
}

function run(definition: CheckDefinition, snap: CheckSnapshot, overrides: CheckParams = {}) {
  const level = definition.levels(snap.task)[0]!;
  const params = { ...definition.params(context), ...overrides };
  return definition.run({ snapshot: snap, params, level, checkId: `${definition.key}.${level}` });
}

describe('duplicate checks', () => {
  it('are offered once per key for image tasks and once for audio tasks, in order', () => {
    const keys = ['duplicate_leaked', 'duplicate', 'near_duplicate_leaked', 'near_duplicate'];
    for (const task of [
      'classification',
      'regression',
      'object_detection',
      'instance_segmentation',
      'semantic_segmentation',
    ] as const) {
      const offered = duplicateChecks.filter((d) => d.levels(task).length > 0);
      expect(offered.map((d) => d.key)).toEqual(keys);
      expect(offered.map((d) => d.levels(task))).toEqual(keys.map(() => ['image']));
      expect(offered.map((d) => d.order)).toEqual([0, 1, 2, 3]);
    }
    for (const task of ['audio_classification', 'automatic_speech_recognition'] as const) {
      const offered = duplicateChecks.filter((d) => d.levels(task).length > 0);
      expect(offered.map((d) => d.key)).toEqual(keys);
      expect(offered.map((d) => d.levels(task))).toEqual(keys.map(() => ['audio']));
    }
    expect(duplicateChecks.every((d) => d.group === 'Data Leakage & Duplicates')).toBe(true);
    expect(check('duplicate_leaked').name('image')).toBe('Duplicate images leaked across splits');
    expect(check('duplicate').name('image')).toBe('Duplicate images');
    expect(check('near_duplicate_leaked').name('image')).toBe(
      'Near-duplicate images leaked across splits',
    );
    expect(check('near_duplicate', 'audio_classification').name('audio')).toBe(
      'Near-duplicate audio clips',
    );
  });

  it('require the content hash, or a feature (and the perceptual hash for images)', () => {
    expect(check('duplicate').requires).toEqual({ metadata: ['image.content_hash'] });
    expect(check('duplicate', 'audio_classification').requires).toEqual({
      metadata: ['audio.content_hash'],
    });
    expect(check('near_duplicate').requires).toEqual({ feature: true, metadata: ['image.phash'] });
    expect(check('near_duplicate_leaked', 'audio_classification').requires).toEqual({
      feature: true,
      metadata: [],
    });
    expect(check('duplicate_leaked').inputs).toEqual(['split', { metadata: 'image.content_hash' }]);
    expect(check('duplicate').inputs).toEqual([{ metadata: 'image.content_hash' }]);
    expect(check('near_duplicate_leaked').inputs).toEqual([
      'split',
      'feature',
      { metadata: 'image.phash' },
    ]);
  });

  it('offer the feature, the distance threshold and (images) the hash distance', () => {
    const params = check('near_duplicate').params(context);
    expect(params.feature).toMatchObject({
      type: 'categorical',
      value: ['descriptor'],
      categories: ['descriptor', 'clip'],
      single: true,
    });
    expect(params.threshold).toMatchObject({ type: 'float', value: NEAR_DUPLICATE_THRESHOLD });
    expect(params.hash_distance).toMatchObject({
      type: 'int',
      value: NEAR_DUPLICATE_HASH_DISTANCE,
      min: 0,
      max: 16,
    });
    expect(check('near_duplicate', 'audio_classification').params(context).hash_distance).toBe(
      undefined,
    );
    expect(check('duplicate').params(context)).toEqual({});
  });

  it('flag every member of a group of identical content and delete all but the first', () => {
    const out = run(check('duplicate'), snapshot());
    expect(out.checked).toBe(9);
    expect(out.flagged.ids).toEqual(['s0', 's1', 's6', 's2', 's3', 's5', 's7']);
    expect(out.flagged.values).toEqual({ group: [1, 1, 1, 2, 2, 3, 3] });
    expect(out.summary).toBe('{n} images have a duplicate');
    expect(out.is_approximate).toBe(false);
    expect(out.preview?.sort_by).toEqual([{ name: 'group', direction: 'ascending' }]);
    expect(out.recommendation).toEqual({
      type: 'actions',
      actions: [
        {
          type: 'delete',
          suggestions: [
            {
              id: 'delete',
              name: 'Delete all but one per group',
              item_ids: ['s1', 's6', 's3', 's7'],
            },
          ],
        },
      ],
    });
    expect(out.evidence[0]).toMatchObject({ type: 'text' });
    expect((out.evidence[0] as { value: string }).value).toMatch(
      /^3 groups of duplicates; the largest has 3 images\./,
    );
  });

  it('flag leaked groups, keep the copy in the preferred split and move the others there', () => {
    const out = run(check('duplicate_leaked'), snapshot());
    // a spans test, train, validation; c validation and test; b stays in train.
    expect(out.flagged.ids).toEqual(['s0', 's1', 's6', 's5', 's7']);
    expect(out.flagged.values).toEqual({ group: [1, 1, 1, 2, 2] });
    expect(out.summary).toBe('{n} images are duplicated across splits');
    expect(out.recommendation).toEqual({
      type: 'actions',
      actions: [
        {
          type: 'delete',
          suggestions: [
            { id: 'delete', name: 'Delete all but one per group', item_ids: ['s0', 's6', 's7'] },
          ],
        },
        {
          type: 'update_item_field',
          field_name: 'split',
          updates: {
            train: { id: 'split:train', name: 'Move the copies to train', item_ids: ['s0', 's6'] },
            validation: {
              id: 'split:validation',
              name: 'Move the copies to validation',
              item_ids: ['s7'],
            },
          },
        },
      ],
    });
  });

  it('pass with no recommendation when nothing repeats, for audio too', () => {
    const snap = snapshot('audio_classification');
    snap.samples.strings['audio.content_hash'] = snap.samples.ids.map((id) => id);
    const out = run(check('duplicate', 'audio_classification'), snap);
    expect(out.flagged.ids).toEqual([]);
    expect(out.recommendation).toBeNull();
    expect(out.summary).toBe('{n} audio clips have a duplicate');
  });

  it('join near vectors and near perceptual hashes into groups, with distances', () => {
    const out = run(check('near_duplicate'), snapshot());
    expect(out.checked).toBe(10);
    expect(out.flagged.ids).toEqual(['s0', 's1', 's2', 's3', 's4', 's8', 's5', 's9']);
    expect(out.flagged.values.group).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
    const distance = out.flagged.values.distance as number[];
    const expected = [
      1 - 1 / Math.sqrt(1.0001),
      1 - 1 / Math.sqrt(1.0025),
      1 - 1 / Math.sqrt(3), // s4–s8: by hash; their vectors are far apart
      1 - 1 / Math.sqrt(1.0002),
    ];
    expected.forEach((d, g) => {
      expect(distance[2 * g]).toBeCloseTo(d, 5);
      expect(distance[2 * g + 1]).toBeCloseTo(d, 5);
    });
    expect(out.summary).toBe('{n} images are near-duplicates');
    expect(out.preview).toEqual({
      sort_by: [
        { name: 'group', direction: 'ascending' },
        { name: 'distance', direction: 'ascending' },
      ],
      visible_metadata_ids: ['group', 'split', 'distance'],
    });
    expect(out.is_approximate).toBe(false);
    // Without the hash (distance 2 < 3 bits), s4 and s8 are not near-duplicates.
    const strict = run(check('near_duplicate'), snapshot(), {
      hash_distance: { type: 'int', label: 'Hash distance', value: 2, min: 0, max: 16 },
    });
    expect(strict.flagged.ids).toEqual(['s0', 's1', 's2', 's3', 's5', 's9']);
  });

  it('flag near-duplicates across splits (no split counts as its own) and move copies', () => {
    const out = run(check('near_duplicate_leaked'), snapshot());
    expect(out.flagged.ids).toEqual(['s0', 's1', 's4', 's8', 's5', 's9']);
    expect(out.flagged.values.group).toEqual([1, 1, 2, 2, 3, 3]);
    expect(out.summary).toBe('{n} images are near-duplicates across splits');
    expect(out.recommendation).toEqual({
      type: 'actions',
      actions: [
        {
          type: 'delete',
          suggestions: [
            { id: 'delete', name: 'Delete all but one per group', item_ids: ['s0', 's4', 's9'] },
          ],
        },
        {
          type: 'update_item_field',
          field_name: 'split',
          updates: {
            train: { id: 'split:train', name: 'Move the copies to train', item_ids: ['s0', 's4'] },
            validation: {
              id: 'split:validation',
              name: 'Move the copies to validation',
              item_ids: ['s9'],
            },
          },
        },
      ],
    });
  });

  it('say when a large dataset was searched approximately, and still find planted copies', () => {
    const random = createRandom(4);
    const n = 6000;
    const d = 32;
    const data = Float32Array.from({ length: n * d }, () => random.normal());
    for (let k = 0; k < 20; k++)
      for (let j = 0; j < d; j++)
        data[(300 * k + 7) * d + j] = data[300 * k * d + j]! + 0.001 * random.normal();
    const snap = snapshot('audio_classification');
    snap.samples = {
      ...snap.samples,
      ids: Array.from({ length: n }, (_, i) => `s${i}`),
      split: Int32Array.from({ length: n }, (_, i) => i % 3),
      label: new Int32Array(n).fill(-1),
    };
    snap.features = {
      descriptor: { name: 'descriptor', dimension: d, data, present: new Uint8Array(n).fill(1) },
    };
    const out = run(check('near_duplicate', 'audio_classification'), snap);
    expect(out.is_approximate).toBe(true);
    expect(out.flagged.ids).toEqual(
      Array.from({ length: 20 }, (_, k) => [`s${300 * k}`, `s${300 * k + 7}`]).flat(),
    );
    expect((out.evidence[0] as { value: string }).value).toMatch(/locality-sensitive hashing/);
  });
});

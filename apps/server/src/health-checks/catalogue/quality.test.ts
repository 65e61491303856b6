import type { CheckParams, DataLevel, TaskType } from '@loupe/contracts';
import { describe, expect, it } from 'vitest';
import { qualityChecks } from './quality.js';
import type { CheckDefinition, CheckSnapshot, ParamContext } from './types.js';

const context: ParamContext = { features: [], defaultFeature: null, classes: [], splits: [] };

function check(key: string, media: 'image' | 'audio'): CheckDefinition {
  const task: TaskType = media === 'image' ? 'classification' : 'audio_classification';
  const found = qualityChecks.find((c) => c.key === key && c.levels(task).length > 0);
  if (!found) throw new Error(`no check ${key} for ${media}`);
  return found;
}

function snapshot(
  media: 'image' | 'audio',
  numeric: Record<string, number[]>,
  booleans: Record<string, number[]> = {},
): CheckSnapshot {
  const n = Object.values({ ...numeric, ...booleans })[0]!.length;
  return {
    datasetId: 'dataset',
    task: media === 'image' ? 'object_detection' : 'automatic_speech_recognition',
    media,
    classes: [],
    samples: {
      ids: Array.from({ length: n }, (_, i) => `s${i}`),
      split: new Int32Array(n),
      splitNames: ['train'],
      label: new Int32Array(n).fill(-1),
      numeric: Object.fromEntries(
        Object.entries(numeric).map(([id, values]) => [id, Float64Array.from(values)]),
      ),
      strings: {},
      booleans: Object.fromEntries(
        Object.entries(booleans).map(([id, values]) => [id, Int8Array.from(values)]),
      ),
    },
    objects: null,
    features: {},
    predictions: null,
  };
}

function run(definition: CheckDefinition, snap: CheckSnapshot, overrides: CheckParams = {}) {
  const level: DataLevel = definition.levels(snap.task)[0]!;
  const params = { ...definition.params(context), ...overrides };
  return definition.run({ snapshot: snap, params, level, checkId: `${definition.key}.${level}` });
}

const float = (value: number): CheckParams[string] => ({ type: 'float', label: 'x', value });

describe('quality checks catalogue', () => {
  it('offers image checks to image tasks and audio checks to audio tasks', () => {
    const keysFor = (task: TaskType) =>
      qualityChecks.filter((c) => c.levels(task).length > 0).map((c) => c.key);
    expect(keysFor('instance_segmentation')).toEqual([
      'dark',
      'bright',
      'blurry',
      'low_information',
      'odd_aspect_ratio',
      'odd_size',
      'grayscale',
      'corrupt',
    ]);
    expect(keysFor('automatic_speech_recognition')).toEqual([
      'silent',
      'clipped',
      'too_quiet',
      'duration',
      'corrupt',
    ]);
    expect(check('dark', 'image').levels('regression')).toEqual(['image']);
    expect(check('silent', 'audio').levels('audio_classification')).toEqual(['audio']);
    expect(check('corrupt', 'audio').group).toBe('Audio Quality');
    expect(check('corrupt', 'image').name('image')).toBe('Corrupt images');
    expect(check('too_quiet', 'audio').requires).toEqual({
      metadata: ['audio.rms_dbfs', 'audio.silence_fraction'],
    });
  });

  it('flags dark images with their brightness, darkest first, and offers to delete them', () => {
    const dark = check('dark', 'image');
    expect(dark.params(context).threshold).toMatchObject({
      type: 'float',
      value: 0.12,
      min: 0,
      max: 1,
    });
    const outcome = run(dark, snapshot('image', { 'image.brightness': [0.5, 0.05, NaN, 0.11999] }));
    expect(outcome.flagged).toEqual({ ids: ['s1', 's3'], values: { value: [0.05, 0.11999] } });
    expect(outcome.checked).toBe(3);
    expect(outcome.summary).toBe('{n} images are too dark');
    expect(outcome.preview).toEqual({
      sort_by: [{ name: 'value', direction: 'ascending' }],
      visible_metadata_ids: ['image.brightness'],
    });
    expect(outcome.recommendation).toEqual({
      type: 'actions',
      actions: [
        {
          type: 'delete',
          suggestions: [{ id: 'delete', name: 'Delete dark images', item_ids: ['s1', 's3'] }],
        },
      ],
    });
    // A user's threshold replaces the default.
    const stricter = run(dark, snapshot('image', { 'image.brightness': [0.5, 0.05, 0.2] }), {
      threshold: float(0.3),
    });
    expect(stricter.flagged.ids).toEqual(['s1', 's2']);
  });

  it('flags bright, blurry and low-information images by their measures', () => {
    const values = (key: string, id: string, data: number[]) =>
      run(check(key, 'image'), snapshot('image', { [id]: data })).flagged;
    expect(values('bright', 'image.brightness', [0.5, 0.95]).ids).toEqual(['s1']);
    expect(values('blurry', 'image.sharpness', [12.5, 400, 49.9]).ids).toEqual(['s0', 's2']);
    expect(values('low_information', 'image.contrast', [0.2, 0.01]).ids).toEqual(['s1']);
  });

  it('flags unusual aspect ratios and sizes against the dataset', () => {
    const ratios = snapshot('image', { 'image.aspect_ratio': [1.5, 1.5, 1.5, 1.5, 5, 0.5] });
    // 5 is beyond 4:1; 0.5 is ln 3 ≈ 1.1 from the median log ratio, over 4 × 0.1.
    expect(run(check('odd_aspect_ratio', 'image'), ratios).flagged).toEqual({
      ids: ['s4', 's5'],
      values: { value: [5, 0.5] },
    });
    const sizes = snapshot('image', {
      'image.width': [640, 640, 640, 640, 4000, 640],
      'image.height': [480, 480, 480, 480, 3000, 24],
    });
    const outcome = run(check('odd_size', 'image'), sizes);
    expect(outcome.flagged).toEqual({ ids: ['s4', 's5'], values: { value: [12_000_000, 15_360] } });
    expect(outcome.preview?.visible_metadata_ids).toEqual(['image.width', 'image.height']);
  });

  it('flags grey images only among mostly colour images', () => {
    const grey = check('grayscale', 'image');
    const mostlyColour = [30, 42, 25, 60, 0.4];
    expect(
      run(grey, snapshot('image', { 'image.colorfulness': mostlyColour })).flagged.ids,
    ).toEqual(['s4']);
    const mixed = [30, 0.2, 0.1, 60, 0.4];
    expect(run(grey, snapshot('image', { 'image.colorfulness': mixed })).flagged.ids).toEqual([]);
  });

  it('flags corrupt files from the boolean column, missing values unchecked', () => {
    const outcome = run(
      check('corrupt', 'image'),
      snapshot('image', {}, { 'image.corrupt': [0, 1, -1, 0] }),
    );
    expect(outcome.flagged).toEqual({ ids: ['s1'], values: { value: [1] } });
    expect(outcome.checked).toBe(3);
    const audio = run(
      check('corrupt', 'audio'),
      snapshot('audio', {}, { 'audio.corrupt': [1, 0] }),
    );
    expect(audio.summary).toBe('{n} audio files are corrupt');
    expect(audio.flagged.ids).toEqual(['s0']);
  });

  it('flags silent, clipped and too quiet clips', () => {
    const snap = snapshot('audio', {
      'audio.silence_fraction': [0, 0.97, 0.5, 0.1],
      'audio.clipped_fraction': [0, 0, 0.002, 0.0005],
      'audio.rms_dbfs': [-20, -70, -50, -30],
    });
    expect(run(check('silent', 'audio'), snap).flagged.ids).toEqual(['s1']);
    expect(run(check('clipped', 'audio'), snap).flagged).toEqual({
      ids: ['s2'],
      values: { value: [0.002] },
    });
    // s1 is quieter still but silent: the silent check's finding.
    expect(run(check('too_quiet', 'audio'), snap).flagged.ids).toEqual(['s2']);
    expect(run(check('too_quiet', 'audio'), snap).preview?.sort_by).toEqual([
      { name: 'value', direction: 'ascending' },
    ]);
  });

  it("flags clips too short or beyond the dataset's upper fence, or a user's maximum", () => {
    const duration = check('duration', 'audio');
    // Quartiles 2 and 3 s: fence 6 s.
    const snap = snapshot('audio', { 'audio.duration': [2, 2, 2, 2.5, 3, 3, 3, 0.3, 7] });
    expect(run(duration, snap).flagged).toEqual({ ids: ['s7', 's8'], values: { value: [0.3, 7] } });
    const custom = run(duration, snap, { max_seconds: float(2.9), min_seconds: float(0.2) });
    expect(custom.flagged.ids).toEqual(['s4', 's5', 's6', 's8']);
  });

  it('throws when a measure is missing from the snapshot', () => {
    expect(() =>
      run(check('blurry', 'image'), snapshot('image', { 'image.brightness': [1] })),
    ).toThrow("The metadata 'image.sharpness' is not available");
  });
});

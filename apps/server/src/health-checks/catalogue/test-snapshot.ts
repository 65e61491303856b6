// A check snapshot for tests, from plain arrays: samples (s0, s1, … unless named) with their split and label
// indexes; everything not given is empty (no metadata, features, objects or predictions).
import type { TaskType } from '@loupe/contracts';
import type { CheckSnapshot } from './types.js';

export interface TestSnapshotInput {
  task?: TaskType;
  classes: string[];
  /** Label index per sample (−1: none); its length is the number of samples. */
  label: number[];
  /** Split index per sample (−1: none); all 0 unless given. */
  split?: number[];
  splitNames?: string[];
  ids?: string[];
}

export function testSnapshot(
  {
    task = 'classification',
    classes,
    label,
    split,
    splitNames = ['train'],
    ids,
  }: TestSnapshotInput,
  extra: Partial<CheckSnapshot> = {},
): CheckSnapshot {
  return {
    datasetId: 'dataset',
    task,
    media: task === 'audio_classification' ? 'audio' : 'image',
    classes,
    samples: {
      ids: ids ?? label.map((_, i) => `s${i}`),
      split: split ? Int32Array.from(split) : new Int32Array(label.length),
      splitNames,
      label: Int32Array.from(label),
      numeric: {},
      strings: {},
      booleans: {},
    },
    objects: null,
    features: {},
    predictions: null,
    ...extra,
  };
}

import { describe, expect, it } from 'vitest';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import type { MetadataFieldRecord } from '../datasets/metadata-fields.repository.js';
import { fieldDefs } from './field-catalogue.js';

const dataset = (task: DatasetRecord['task_type'], valueNames: string[] = []) =>
  ({
    id: 'd',
    task_type: task,
    value_names: valueNames,
    class_names: [],
  }) as unknown as DatasetRecord;

const stored = (id: string, source: string): MetadataFieldRecord => ({
  dataset_id: 'd',
  data_level: 'image',
  id,
  name: id,
  label: id,
  description: '',
  group_name: source === 'computed' ? 'Image' : 'Uploaded',
  source,
  type: 'numeric',
  state: 'available',
  created_at: 0,
});

describe('fieldDefs', () => {
  it('lists built-in, then stored, then prediction fields, each id once', () => {
    const ids = fieldDefs(
      dataset('classification'),
      'image',
      [
        stored('image.width', 'computed'),
        stored('camera', 'uploaded'),
        stored('split', 'uploaded'),
      ],
      true,
    ).map((f) => [f.id, f.source]);
    expect(ids).toEqual([
      ['card_index', 'builtin'],
      ['split', 'builtin'],
      ['label', 'builtin'],
      ['image.width', 'computed'],
      ['camera', 'uploaded'],
      ['prediction.label', 'prediction'],
      ['prediction.score', 'prediction'],
      ['prediction.is_correct', 'prediction'],
    ]);
  });

  it('gives regression one field per value, and errors per value with predictions', () => {
    const ids = fieldDefs(dataset('regression', ['age', 'height']), 'image', [], true).map(
      (f) => f.id,
    );
    expect(ids).toEqual([
      'card_index',
      'split',
      'label.values.age',
      'label.values.height',
      'prediction.values.age',
      'prediction.absolute_error.age',
      'prediction.values.height',
      'prediction.absolute_error.height',
      'prediction.absolute_error',
      'prediction.squared_error',
    ]);
  });

  it('describes objects at the object level, with matching when there are predictions', () => {
    const ids = fieldDefs(dataset('object_detection'), 'image_object', [], true).map((f) => f.id);
    expect(ids).toEqual([
      'card_index',
      'split',
      'sample_id',
      'object.label',
      'object.type',
      'prediction.score',
      'prediction.is_matched',
      'prediction.match_status',
      'prediction.iou',
    ]);
    // At image level: counts per image.
    const image = fieldDefs(dataset('instance_segmentation'), 'image', [], true);
    expect(image.filter((f) => f.source === 'prediction').map((f) => [f.id, f.label])).toEqual([
      ['prediction.object_count', 'Predicted objects'],
      ['prediction.tp', 'True positives'],
      ['prediction.fp', 'False positives'],
      ['prediction.fn', 'False negatives'],
    ]);
    expect(image.every((f) => f.source !== 'prediction' || f.group === 'Prediction')).toBe(true);
  });

  it('gives speech recognition its word measures and counts, all numeric', () => {
    const defs = fieldDefs(dataset('automatic_speech_recognition'), 'audio', [], true).filter(
      (f) => f.source === 'prediction',
    );
    expect(defs.map((f) => f.id)).toEqual([
      'prediction.wer',
      'prediction.mer',
      'prediction.wil',
      'prediction.word_hits',
      'prediction.word_substitutions',
      'prediction.word_deletions',
      'prediction.word_insertions',
    ]);
    expect(defs.every((f) => f.type === 'numeric' && f.group === 'Prediction')).toBe(true);
  });
});

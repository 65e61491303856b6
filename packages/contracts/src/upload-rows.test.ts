// The upload row rules shared by the server and the CLI: exact reserved names, unknown keys refused
// with a suggestion, and the rows that must still pass.
import { describe, expect, it } from 'vitest';
import {
  checkPredictionBatch,
  checkSampleBatch,
  closestKey,
  type DatasetShape,
} from './upload-rows.js';

const shape = (task: DatasetShape['task_type'] = 'classification'): DatasetShape => ({
  task_type: task,
  class_names: ['cat', 'dog'],
  closed_classes: true,
  value_names: [],
  metadata_types: new Map(),
});
const check = (rows: unknown[], task?: DatasetShape['task_type']) =>
  checkSampleBatch(rows, shape(task), {}, () => undefined);

describe('reserved metadata names', () => {
  it('refuses exactly the reserved names and prefixes, and nothing that merely starts like one', () => {
    const free = [
      'labeler',
      'idx',
      'ideal',
      'splits',
      'labelsmith',
      'card_index2',
      'imagery',
      'Label',
    ];
    expect(
      check([{ id: 'a', metadata: Object.fromEntries(free.map((k) => [k, 1])) }]).errors,
    ).toEqual([]);
    const reserved = [
      'id',
      'split',
      'label',
      'labels',
      'card_index',
      'image.width',
      'audio.duration',
      'object.count',
      'prediction.score',
      'concept.x',
      'check.blur',
    ];
    expect(
      check([{ id: 'a', metadata: Object.fromEntries(reserved.map((k) => [k, 1])) }]).errors,
    ).toEqual(
      reserved.map((key) => ({
        row: 0,
        id: 'a',
        field: `metadata.${key}`,
        message: `'${key}' is a reserved name: choose another key`,
      })),
    );
  });
});

describe('unknown keys', () => {
  it('are refused with the row and field, suggesting the key meant and where own values go', () => {
    const { errors } = check([
      { id: 'a', label: 'cat' },
      { id: 'b', lable: 'cat', spilt: 'train', camera: 'north' },
    ]);
    expect(errors).toEqual([
      {
        row: 1,
        id: 'b',
        field: 'lable',
        message: `unknown key 'lable': did you mean 'label'? Values of your own go in metadata: {"metadata": {"lable": …}}.`,
      },
      {
        row: 1,
        id: 'b',
        field: 'spilt',
        message: `unknown key 'spilt': did you mean 'split'? Values of your own go in metadata: {"metadata": {"spilt": …}}.`,
      },
      {
        row: 1,
        id: 'b',
        field: 'camera',
        message: `unknown key 'camera': not a field of a sample. Values of your own go in metadata: {"metadata": {"camera": …}}.`,
      },
    ]);
  });

  it('are refused inside objects and predictions too', () => {
    const objects = check(
      [{ id: 'a', objects: [{ label: 'cat', bbox: [0, 0, 1, 1], iscorwd: true }] }],
      'object_detection',
    );
    expect(objects.errors).toEqual([
      {
        row: 0,
        id: 'a',
        field: 'objects.0.iscorwd',
        message:
          "unknown key 'iscorwd': did you mean 'iscrowd'? An object takes id, label, bbox, segmentation and iscrowd.",
      },
    ]);
    const predictions = checkPredictionBatch(
      [{ id: 'a', label: 'cat', scroe: 0.5 }],
      shape(),
      () => true,
      () => undefined,
    );
    expect(predictions.errors).toEqual([
      {
        row: 0,
        id: 'a',
        field: 'scroe',
        message:
          "unknown key 'scroe': did you mean 'score'? A prediction takes id, label, score, probabilities, values, objects, mask and transcript.",
      },
    ]);
  });

  it('suggest only a close key', () => {
    const keys = ['id', 'label', 'split', 'transcript', 'metadata'];
    expect(closestKey('lable', keys)).toBe('label');
    expect(closestKey('Split', keys)).toBe('split');
    expect(closestKey('trnscript', keys)).toBe('transcript');
    expect(closestKey('x', keys)).toBeUndefined();
    expect(closestKey('camera', keys)).toBeUndefined();
  });

  it('name a huge key by its start, and do not measure it against the known keys', () => {
    const key = 'x'.repeat(2_000_000);
    const { errors } = check([{ id: 'a', label: 'cat', [key]: 1 }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.field).toBe(`${'x'.repeat(64)}…`);
    expect(errors[0]!.message.length).toBeLessThan(400);
  });
});

describe('predicted masks', () => {
  const known = 'blob:' + 'a'.repeat(64);
  const mediaAllowed = (ref: string) => (ref === known ? undefined : `${ref} was not uploaded`);
  const predict = (rows: unknown[], task: DatasetShape['task_type']) =>
    checkPredictionBatch(rows, shape(task), () => true, mediaAllowed);

  it('take media the dataset may use, checked like a sample mask', () => {
    const other = 'blob:' + 'b'.repeat(64);
    const result = predict(
      [
        { id: 'a', mask: known },
        { id: 'b', mask: other },
      ],
      'semantic_segmentation',
    );
    expect(result.predictions.map((p) => p.input.id)).toEqual(['a']);
    expect(result.errors).toEqual([
      { row: 1, id: 'b', field: 'mask', message: `${other} was not uploaded` },
    ]);
    const sample = checkSampleBatch(
      [{ id: 'b', image: known, mask: other }],
      shape('semantic_segmentation'),
      {},
      mediaAllowed,
    );
    expect(sample.errors).toEqual(result.errors.map((error) => ({ ...error, row: 0 })));
  });

  it('are refused on a task without masks', () => {
    expect(predict([{ id: 'a', label: 'cat', mask: known }], 'classification').errors).toEqual([
      {
        row: 0,
        id: 'a',
        field: 'mask',
        message: 'only semantic segmentation predictions take a mask',
      },
    ]);
  });
});

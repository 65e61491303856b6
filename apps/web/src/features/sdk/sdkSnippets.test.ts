// Each task type's snippet calls the SDK's real methods with that task's label and prediction
// fields (docs/sdk-python.md); the same snippets were run against a server with the Python SDK.
import type { TaskType } from '@loupe/contracts';
import { describe, expect, test } from 'vitest';
import { TASK_TYPES } from '../../lib/taskTypes';
import { uploadDatasetSnippet, uploadPredictionsSnippet } from './sdkSnippets';

const connection = { origin: 'http://loupe.acme.com', apiKey: 'lp_abc' };

/** What a task's samples and predictions must carry, and what they must not. */
const SHAPES: Record<TaskType, { create: RegExp; sample: RegExp[]; prediction: RegExp[] }> = {
  classification: {
    create: /"pets", "classification", class_names=\["cat", "dog"\]/,
    sample: [/"image": "photos\/cat-1\.jpg"/, /"label": "cat", "split": "train"/],
    prediction: [/"label": "cat", "score": 0\.92, "probabilities": \[0\.92, 0\.08\]/],
  },
  regression: {
    create: /"faces", "regression", value_names=\["age"\]/,
    sample: [/"image": /, /"values": \{"age": 31\.5\}/],
    prediction: [/"values": \{"age": 29\.8\}/],
  },
  object_detection: {
    create: /"street", "object_detection", class_names=\["car", "person"\]/,
    sample: [/"image": /, /"objects": \[/, /\{"label": "car", "bbox": \[10, 20, 50, 30\]\}/],
    prediction: [/\{"label": "car", "bbox": \[12, 20, 48, 31\], "score": 0\.81\}/],
  },
  instance_segmentation: {
    create: /"street-masks", "instance_segmentation", class_names=/,
    sample: [/"image": /, /"objects": \[/, /"segmentation": \[\[10, 20, 60, 20/],
    prediction: [/"segmentation": \[\[12, 20, .*\]\], "score": 0\.77/],
  },
  semantic_segmentation: {
    create: /"roads", "semantic_segmentation", label_map=\{0: "background"/,
    sample: [/"image": "images\/road-1\.png", "mask": "masks\/road-1\.png"/],
    prediction: [/"mask": "predicted\/road-1\.png"/],
  },
  audio_classification: {
    create: /"sounds", "audio_classification", class_names=\["bark", "purr"\]/,
    sample: [/"audio": "clips\/bark\.wav"/, /"label": "bark"/],
    prediction: [/"label": "bark", "score": 0\.88, "probabilities": \[0\.88, 0\.12\]/],
  },
  automatic_speech_recognition: {
    create: /"calls", "automatic_speech_recognition", exist_ok=True\)/,
    sample: [/"audio": "calls\/call-1\.wav"/, /"transcript": "turn left here"/],
    prediction: [/"transcript": "turn left there"/],
  },
};

/** A call laid out over several lines (Black's way) read back as one line. */
const flat = (snippet: string) =>
  snippet
    .replace(/\(\n {4}/g, '(')
    .replace(/,\n {4}(?=\S)/g, ', ')
    .replace(/,?\n\)/g, ')');

const FIELDS = ['image', 'audio', 'label', 'values', 'objects', 'mask', 'transcript'];
/** The fields each task's rows take (docs/sdk-python.md, upload_samples). */
const OWN: Record<TaskType, string[]> = {
  classification: ['image', 'label'],
  regression: ['image', 'values'],
  object_detection: ['image', 'objects', 'label'],
  instance_segmentation: ['image', 'objects', 'label'],
  semantic_segmentation: ['image', 'mask'],
  audio_classification: ['audio', 'label'],
  automatic_speech_recognition: ['audio', 'transcript'],
};
/** The fields no row of `task` takes, as they would appear in a dict literal. */
const foreignFields = (task: TaskType) =>
  FIELDS.filter((field) => !OWN[task].includes(field)).map((field) => `"${field}":`);

describe.each(TASK_TYPES)('%s', (task) => {
  const shape = SHAPES[task];

  test('the dataset snippet creates the dataset (again safely) and uploads samples of its shape', () => {
    const snippet = uploadDatasetSnippet(connection, task);
    expect(snippet).toMatch(
      /^import loupe\n\nclient = loupe\.Client\("http:\/\/loupe\.acme\.com", "lp_abc"\)\n/,
    );
    expect(flat(snippet)).toMatch(shape.create);
    expect(flat(snippet)).toMatch(/= client\.create_dataset\("[^"]+", "[a-z_]+"/);
    expect(flat(snippet)).toMatch(/exist_ok=True\)\ndataset\.upload_samples\(\[\n/);
    expect(snippet).toMatch(/\n\]\)$/);
    for (const field of shape.sample) expect(snippet).toMatch(field);
    for (const field of foreignFields(task)) expect(snippet).not.toContain(field);
  });

  test('the predictions snippet uploads a model for that dataset with its prediction shape', () => {
    const snippet = uploadPredictionsSnippet(connection, task);
    const name = /create_dataset\("([^"]+)"/.exec(flat(uploadDatasetSnippet(null, task)))![1]!;
    expect(snippet).toContain(
      `dataset = client.get_dataset("${name}")\ndataset.upload_predictions("`,
    );
    for (const field of shape.prediction) expect(snippet).toMatch(field);
    for (const field of foreignFields(task)) expect(snippet).not.toContain(field);
    expect(snippet).not.toContain('"split"');
  });
});

test('without a connection the client uses the saved configuration', () => {
  const snippet = uploadDatasetSnippet(null, 'regression');
  expect(snippet).toContain(
    'client = loupe.Client()  # the address and key saved by loupe configure',
  );
  expect(snippet).not.toContain('lp_');
});

test('a dataset in context is fetched by name and its task decides the shape', () => {
  const dataset = { name: 'Dashcam "north"', task_type: 'object_detection' as const };
  const samples = uploadDatasetSnippet(connection, 'classification', dataset);
  expect(samples).toContain('dataset = client.get_dataset("Dashcam \\"north\\"")\n');
  expect(samples).not.toContain('create_dataset');
  expect(samples).toContain('"objects": [');
  const predictions = uploadPredictionsSnippet(null, 'classification', dataset);
  expect(predictions).toContain('client.get_dataset("Dashcam \\"north\\"")');
  expect(predictions).toContain('"bbox": [12, 20, 48, 31], "score": 0.81');
});

test('every line fits the dialogs (88 characters), a long address and key included', () => {
  const long = {
    origin: 'https://loupe.research-cluster.example.com:8443',
    apiKey: `lp_${'x'.repeat(43)}`,
  };
  for (const task of TASK_TYPES) {
    for (const snippet of [
      uploadDatasetSnippet(long, task),
      uploadPredictionsSnippet(long, task),
      uploadDatasetSnippet(null, task),
    ]) {
      for (const line of snippet.split('\n')) expect(line.length, line).toBeLessThanOrEqual(88);
    }
  }
  expect(uploadDatasetSnippet(long, 'classification')).toContain(
    `client = loupe.Client(\n    "${long.origin}",\n    "${long.apiKey}",\n)\n`,
  );
});

// Data of the model performance benchmark, written by bulk SQL on SQLite or PostgreSQL and reused
// by the next run, each dataset with one prediction set: classification (1,000,000 samples, 10
// classes, 3 splits, label + score predictions about 80 % right), object detection (5,000 images,
// 36,000 boxes, 100,000 predicted boxes: ground truth jittered, and false positives) and speech
// recognition (100,000 utterances from a word list, hypotheses with some errors). Every value
// comes from a seeded generator, so the benchmark rebuilds the same data in memory to check the
// server's numbers against @loupe/metrics run directly.
import type { DatabaseConfig } from '@loupe/server/embedded';
import { tableBatches, type BulkWriter, type Columns } from '../support/bulk-sql.js';
import {
  datasetRow,
  generateOnce,
  historyRow,
  metadataFieldRow,
  predictionSetRow,
  type FieldSpec,
  type GeneratedDataset,
  type NewDataset,
} from '../support/datasets.js';
import { mulberry32 } from '../support/random.js';

export const SPLITS = ['train', 'val', 'test'];
export const CLASSES = Array.from({ length: 10 }, (_, i) => `class_${i}`);
export const DETECTION_CLASSES = ['car', 'person', 'bike', 'truck', 'dog'];
export const IMAGE_WIDTH = 640;
export const IMAGE_HEIGHT = 480;
/** The numeric field the metadata performance chart bins. */
export const NUMERIC_FIELD = 'brightness';
export const PREDICTION_SET = 'bench-model';

const splitOf = (i: number) => SPLITS[i % 10 < 8 ? 0 : i % 10 === 8 ? 1 : 2]!;
/** Rounded to `digits` decimals (what a user's upload would carry). */
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

export interface Box {
  id: string;
  label: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** Predicted boxes only. */
  score?: number;
}

/** Everything generated for one sample, in upload (seq) order. */
export interface GeneratedSample {
  id: string;
  split: string;
  label: string | null;
  transcript: string | null;
  metadata: Record<string, unknown> | null;
  computed: Record<string, unknown> | null;
  objects: Box[];
  /** Null: the model has no prediction for this sample. */
  prediction: { label: string | null; score: number | null; transcript: string | null } | null;
  predictedObjects: Box[];
}

export interface PerformanceSpec {
  name: string;
  task: 'classification' | 'object_detection' | 'automatic_speech_recognition';
  mediaType: 'image' | 'audio';
  samples: number;
  objects: number;
  classes: string[];
  fields: FieldSpec[];
  seed: number;
  sample(i: number, random: () => number): GeneratedSample;
}

/** The samples of a spec, as generated (the same on every call). */
export function* samplesOf(spec: PerformanceSpec): Generator<GeneratedSample> {
  const random = mulberry32(spec.seed);
  for (let i = 0; i < spec.samples; i++) yield spec.sample(i, random);
}

// ---- classification

/**
 * `count` samples over 10 classes; the model is right with probability 0.7 + 0.2 × brightness
 * (about 80 % overall, so the metadata chart has a slope), and has no prediction for one sample
 * in 200.
 */
export function classificationSpec(count: number): PerformanceSpec {
  return {
    name: `performance-bench-classification-${count}`,
    task: 'classification',
    mediaType: 'image',
    samples: count,
    objects: 0,
    classes: CLASSES,
    fields: [
      ['image', NUMERIC_FIELD, 'numeric', 'uploaded', 'Uploaded'],
      ['image', 'camera', 'string', 'uploaded', 'Uploaded'],
    ],
    seed: 17,
    sample(i, random) {
      const truth = (Math.imul(i, 2654435761) >>> 0) % CLASSES.length;
      const brightness = round(random(), 4);
      const right = random() < 0.7 + 0.2 * brightness;
      const other = (truth + 1 + Math.floor(random() * (CLASSES.length - 1))) % CLASSES.length;
      const score = round(right ? 0.5 + 0.5 * random() : 0.2 + 0.6 * random(), 4);
      return {
        id: `cls-${String(i).padStart(7, '0')}.jpg`,
        split: splitOf(i),
        label: CLASSES[truth]!,
        transcript: null,
        metadata: { [NUMERIC_FIELD]: brightness, camera: `cam-${i % 20}` },
        computed: null,
        objects: [],
        prediction:
          i % 200 === 199
            ? null
            : { label: CLASSES[right ? truth : other]!, score, transcript: null },
        predictedObjects: [],
      };
    },
  };
}

// ---- object detection

/**
 * `count` images of 640×480 with 7.2 boxes each on average and 20 predicted boxes each: 85 % of
 * the ground-truth boxes found again (jittered, 92 % with the right class, scores 0.4-1), the rest
 * false positives (random boxes, scores 0-0.6).
 */
export function detectionSpec(count: number, predictions = count * 20): PerformanceSpec {
  const objects = Math.round(count * 7.2);
  const spread = (total: number, i: number) =>
    Math.floor((total * (i + 1)) / count) - Math.floor((total * i) / count);
  const classOf = (random: () => number) =>
    DETECTION_CLASSES[Math.floor(random() * DETECTION_CLASSES.length)]!;
  return {
    name: `performance-bench-detection-${count}`,
    task: 'object_detection',
    mediaType: 'image',
    samples: count,
    objects,
    classes: DETECTION_CLASSES,
    fields: [
      ['image', 'image.width', 'numeric', 'computed', 'Image'],
      ['image', 'image.height', 'numeric', 'computed', 'Image'],
      ['image', 'image.object_count', 'numeric', 'computed', 'Image'],
    ],
    seed: 29,
    sample(i, random) {
      // Zero-padded ids: the server reads objects by id, so id order is generation order.
      const id = `det-${String(i).padStart(5, '0')}.jpg`;
      const boxes: Box[] = [];
      for (let k = 0, n = spread(objects, i); k < n; k++) {
        const w = round(10 + random() * 150, 2);
        const h = round(10 + random() * 120, 2);
        boxes.push({
          id: `${id}#${String(k).padStart(3, '0')}`,
          label: classOf(random),
          x: round(random() * (IMAGE_WIDTH - w), 2),
          y: round(random() * (IMAGE_HEIGHT - h), 2),
          w,
          h,
        });
      }
      const predicted: Box[] = [];
      const budget = spread(predictions, i);
      const predictedId = () => `${id}@${String(predicted.length).padStart(3, '0')}`;
      for (const gt of boxes) {
        if (predicted.length >= budget || random() >= 0.85) continue;
        const jitter = (size: number) => (random() - 0.5) * 0.16 * size;
        predicted.push({
          id: predictedId(),
          label: random() < 0.92 ? gt.label : classOf(random),
          x: round(gt.x + jitter(gt.w), 2),
          y: round(gt.y + jitter(gt.h), 2),
          w: round(gt.w * (1 + (random() - 0.5) * 0.2), 2),
          h: round(gt.h * (1 + (random() - 0.5) * 0.2), 2),
          score: 0.4 + 0.6 * random(),
        });
      }
      while (predicted.length < budget) {
        const w = round(10 + random() * 150, 2);
        const h = round(10 + random() * 120, 2);
        predicted.push({
          id: predictedId(),
          label: classOf(random),
          x: round(random() * (IMAGE_WIDTH - w), 2),
          y: round(random() * (IMAGE_HEIGHT - h), 2),
          w,
          h,
          score: 0.6 * random(),
        });
      }
      return {
        id,
        split: splitOf(i),
        label: null,
        transcript: null,
        metadata: null,
        computed: {
          'image.width': IMAGE_WIDTH,
          'image.height': IMAGE_HEIGHT,
          'image.object_count': boxes.length,
        },
        objects: boxes,
        prediction: { label: null, score: null, transcript: null },
        predictedObjects: predicted,
      };
    },
  };
}

// ---- speech recognition

/** 400 made-up words of two or three syllables. */
export const WORDS: string[] = (() => {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'to', 'sa', 'vi', 'po', 'de', 'ga', 'fu'];
  const words: string[] = [];
  for (const a of syllables) for (const b of syllables) words.push(a + b);
  for (const a of syllables)
    for (const b of syllables)
      for (const c of syllables) if (words.length < 400) words.push(a + b + c);
  return words;
})();

/**
 * `count` utterances of 4-12 words (frequent words more often); each hypothesis word is right
 * with probability 0.9, else substituted (0.05), deleted (0.03) or followed by an inserted word.
 */
export function speechSpec(count: number): PerformanceSpec {
  const word = (random: () => number) => WORDS[Math.floor(WORDS.length * random() ** 2)]!;
  return {
    name: `performance-bench-speech-${count}`,
    task: 'automatic_speech_recognition',
    mediaType: 'audio',
    samples: count,
    objects: 0,
    classes: [],
    fields: [],
    seed: 41,
    sample(i, random) {
      const reference: string[] = [];
      const hypothesis: string[] = [];
      for (let k = 0, n = 4 + Math.floor(random() * 9); k < n; k++) {
        const w = word(random);
        reference.push(w);
        const r = random();
        if (r < 0.9) hypothesis.push(w);
        else if (r < 0.95) hypothesis.push(word(random));
        else if (r < 0.98) continue;
        else hypothesis.push(w, word(random));
      }
      return {
        id: `utt-${String(i).padStart(6, '0')}.wav`,
        split: splitOf(i),
        label: null,
        transcript: reference.join(' '),
        metadata: null,
        computed: null,
        objects: [],
        prediction: { label: null, score: null, transcript: hypothesis.join(' ') },
        predictedObjects: [],
      };
    },
  };
}

// ---- writing

const SAMPLES: Columns = [
  ['dataset_id', 'text'], ['id', 'text'], ['seq', 'int4'], ['media_type', 'text'],
  ['media', 'text'], ['split', 'text'], ['label', 'text'], ['transcript', 'text'],
  ['metadata', 'text'], ['computed', 'text'], ['processed', 'int4'], ['deleted', 'int4'],
  ['created_record_id', 'text'], ['created_at', 'int8'], ['updated_at', 'int8'],
]; // prettier-ignore
const OBJECTS: Columns = [
  ['dataset_id', 'text'], ['id', 'text'], ['sample_id', 'text'], ['label', 'text'],
  ['x', 'float8'], ['y', 'float8'], ['w', 'float8'], ['h', 'float8'], ['iscrowd', 'int4'],
  ['deleted', 'int4'], ['created_at', 'int8'], ['updated_at', 'int8'],
]; // prettier-ignore
export const PREDICTIONS: Columns = [
  ['prediction_set_id', 'text'], ['sample_id', 'text'], ['sample_seq', 'int4'], ['label', 'text'],
  ['score', 'float8'], ['transcript', 'text'], ['created_at', 'int8'],
]; // prettier-ignore
export const PREDICTED_OBJECTS: Columns = [
  ['prediction_set_id', 'text'], ['id', 'text'], ['sample_id', 'text'], ['label', 'text'],
  ['score', 'float8'], ['x', 'float8'], ['y', 'float8'], ['w', 'float8'], ['h', 'float8'],
]; // prettier-ignore

export type Generated = GeneratedDataset;

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

async function write(bulk: BulkWriter, spec: PerformanceSpec, ids: NewDataset): Promise<void> {
  const { datasetId, predictionSetId, recordId, now } = ids;
  await bulk.insert('datasets', datasetRow(datasetId, spec, now));
  for (const field of spec.fields)
    await bulk.insert('metadata_fields', metadataFieldRow(datasetId, field, now));
  await bulk.insert(
    'history_records',
    historyRow(recordId, datasetId, spec.mediaType, spec.samples, now),
  );
  await bulk.insert(
    'prediction_sets',
    predictionSetRow(predictionSetId, datasetId, PREDICTION_SET, 0, now),
  );
  let present = 0;
  const rows = tableBatches(
    bulk,
    {
      samples: SAMPLES,
      objects: OBJECTS,
      predictions: PREDICTIONS,
      predicted_objects: PREDICTED_OBJECTS,
    },
    10_000,
  );
  let seq = 0;
  for (const s of samplesOf(spec)) {
    const media = `https://media.example.com/${spec.task}/${s.id}`;
    const sampleSeq = seq++;
    rows.push('samples', [
      datasetId, s.id, sampleSeq, spec.mediaType, media, s.split, s.label, s.transcript,
      json(s.metadata), json(s.computed), 1, 0, recordId, now, now,
    ]); // prettier-ignore
    for (const o of s.objects)
      rows.push('objects', [datasetId, o.id, s.id, o.label, o.x, o.y, o.w, o.h, 0, 0, now, now]);
    if (s.prediction) {
      present++;
      const p = s.prediction;
      rows.push('predictions', [
        predictionSetId, s.id, sampleSeq, p.label, p.score, p.transcript, now,
      ]); // prettier-ignore
    }
    for (const o of s.predictedObjects)
      rows.push('predicted_objects', [
        predictionSetId, o.id, s.id, o.label, o.score, o.x, o.y, o.w, o.h,
      ]); // prettier-ignore
    await rows.next();
  }
  await rows.end();
  await bulk.run('update prediction_sets set num_present = ? where id = ?', [
    present,
    predictionSetId,
  ]);
}

/** Writes the dataset and its prediction set unless a complete one exists (or `regenerate`). */
export function generate(
  database: DatabaseConfig,
  spec: PerformanceSpec,
  regenerate: boolean,
): Promise<Generated> {
  return generateOnce(database, spec.name, PREDICTION_SET, regenerate, (bulk, ids) =>
    write(bulk, spec, ids),
  );
}

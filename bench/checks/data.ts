// Data of the health-checks benchmark (issue 19): an image classification dataset of N samples
// (1,000,000 by default) over 10 classes and three splits, with what the metadata pass would have
// computed for each image (measures, perceptual hash, content hash) and its default descriptor
// (196 dimensions, clustered by class), one prediction set with class probabilities, and planted
// problems of known count:
//   - exact duplicates: every sample i ≡ 3 (mod 1000) repeats the content of sample i − 1;
//   - near-duplicates: every sample i ≡ 7 (mod 1000) is sample i − 1's descriptor plus noise 100×
//     smaller than the class spread, and its perceptual hash with one bit flipped;
//   - label errors: 5 % of the samples carry another class than the one their descriptor and the
//     model's probabilities point at (the model is right about 97 % of the time, and unsure when
//     wrong);
//   - too dark images: samples i ≡ 11, 12, 13 (mod 1000) have brightness 0.04;
//   - outliers: samples i ≡ 17 (mod 2000) lie far from every class centre.
// Splits are drawn independently of the plants, so about a third of the duplicate pairs straddle
// two splits. Written by bulk SQL and reused by the next run (kept per database).
import type { DatabaseConfig } from '@loupe/server/embedded';
import { tableBatches, type BulkWriter, type Columns } from '../support/bulk-sql.js';
import {
  datasetRow,
  generateOnce,
  historyRow,
  metadataFieldRow,
  predictionSetRow,
  type GeneratedDataset,
  type NewDataset,
} from '../support/datasets.js';
import { mulberry32 } from '../support/random.js';

export const CLASSES = Array.from({ length: 10 }, (_, i) => `class_${i}`);
export const SPLITS = ['train', 'validation', 'test'];
/** The default image descriptor's name and dimension (apps/server/src/metadata/computed-fields.ts). */
export const FEATURE = 'loupe.image_descriptor';
export const DIMENSION = 196;
export const PREDICTION_SET = 'bench-checks-model';

export const isExactCopy = (i: number) => i % 1000 === 3;
export const isNearCopy = (i: number) => i % 1000 === 7;
export const isDark = (i: number) => i % 1000 >= 11 && i % 1000 <= 13;
export const isOutlier = (i: number) => i % 2000 === 17;

export interface ChecksSpec {
  name: string;
  samples: number;
  seed: number;
}

export function checksSpec(samples: number): ChecksSpec {
  return { name: `checks-bench-${samples}`, samples, seed: 53 };
}

/** One generated sample, the same on every run for a spec. */
export interface CheckSample {
  id: string;
  split: string;
  /** The class the descriptor and the model point at. */
  truth: number;
  /** The uploaded label: `truth`, or another class for a planted label error. */
  label: number;
  vector: Float32Array;
  computed: Record<string, number | string | boolean>;
  probabilities: number[];
}

const hex16 = (random: () => number) => {
  let s = '';
  for (let k = 0; k < 2; k++)
    s += Math.floor(random() * 2 ** 32)
      .toString(16)
      .padStart(8, '0');
  return s;
};

/** The class centres: 10 points in 196 dimensions, seeded. */
function centres(seed: number): Float32Array[] {
  const random = mulberry32(seed);
  return CLASSES.map(() => {
    const c = new Float32Array(DIMENSION);
    for (let d = 0; d < DIMENSION; d++) c[d] = gaussian(random) * 3;
    return c;
  });
}

function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** The samples of a spec, in upload order. */
export function* checkSamples(spec: ChecksSpec): Generator<CheckSample> {
  const random = mulberry32(spec.seed);
  const centre = centres(spec.seed + 1);
  let previous: CheckSample | null = null;
  for (let i = 0; i < spec.samples; i++) {
    const r = random();
    const split = r < 0.8 ? 'train' : r < 0.9 ? 'validation' : 'test';
    let sample: CheckSample;
    if (previous && isExactCopy(i)) {
      sample = {
        ...previous,
        id: `chk-${String(i).padStart(7, '0')}.jpg`,
        split,
        vector: previous.vector,
      };
    } else if (previous && isNearCopy(i)) {
      const vector = new Float32Array(DIMENSION);
      for (let d = 0; d < DIMENSION; d++) vector[d] = previous.vector[d]! + gaussian(random) * 0.01;
      const phash = previous.computed['image.phash'] as string;
      const flipped = (parseInt(phash.slice(-1), 16) ^ 1).toString(16);
      sample = {
        ...previous,
        id: `chk-${String(i).padStart(7, '0')}.jpg`,
        split,
        vector,
        computed: {
          ...previous.computed,
          'image.phash': phash.slice(0, -1) + flipped,
          'image.content_hash': hex16(random),
        },
      };
    } else {
      const truth = Math.floor(random() * CLASSES.length);
      const vector = new Float32Array(DIMENSION);
      const far = isOutlier(i);
      for (let d = 0; d < DIMENSION; d++)
        vector[d] = far ? gaussian(random) * 12 : centre[truth]![d]! + gaussian(random);
      const flipped = random() < 0.05;
      const label = flipped
        ? (truth + 1 + Math.floor(random() * (CLASSES.length - 1))) % CLASSES.length
        : truth;
      // A reasonable model: right about 97 % of the time and confident then; when wrong, torn
      // between the truth and another class.
      const right = random() < 0.97;
      const other = (truth + 1 + Math.floor(random() * (CLASSES.length - 1))) % CLASSES.length;
      const logits = CLASSES.map(() => gaussian(random) * 0.5);
      logits[truth]! += right ? 4 : 1.5;
      if (!right) logits[other]! += 2;
      const max = Math.max(...logits);
      const exp = logits.map((l) => Math.exp(l - max));
      const sum = exp.reduce((a, b) => a + b, 0);
      const brightness = isDark(i) ? 0.04 : 0.25 + 0.5 * random();
      sample = {
        id: `chk-${String(i).padStart(7, '0')}.jpg`,
        split,
        truth,
        label,
        vector,
        computed: {
          'image.width': 640,
          'image.height': 480,
          'image.aspect_ratio': 640 / 480,
          'image.file_size': 50_000 + Math.floor(random() * 100_000),
          'image.format': 'jpeg',
          'image.brightness': Math.round(brightness * 1e4) / 1e4,
          'image.contrast': Math.round((0.1 + 0.15 * random()) * 1e4) / 1e4,
          'image.sharpness': Math.round((200 + 800 * random()) * 10) / 10,
          'image.colorfulness': Math.round((20 + 40 * random()) * 100) / 100,
          'image.phash': hex16(random),
          'image.content_hash': hex16(random),
          'image.corrupt': false,
        },
        probabilities: exp.map((e) => Math.round((e / sum) * 1e5) / 1e5),
      };
    }
    previous = sample;
    yield sample;
  }
}

const FIELDS: [id: string, type: string, group: string][] = [
  ['image.width', 'numeric', 'Image'],
  ['image.height', 'numeric', 'Image'],
  ['image.aspect_ratio', 'numeric', 'Image'],
  ['image.file_size', 'numeric', 'Image'],
  ['image.format', 'string', 'Image'],
  ['image.brightness', 'numeric', 'Image quality'],
  ['image.contrast', 'numeric', 'Image quality'],
  ['image.sharpness', 'numeric', 'Image quality'],
  ['image.colorfulness', 'numeric', 'Image quality'],
  ['image.phash', 'string', 'Image'],
  ['image.content_hash', 'string', 'Image'],
  ['image.corrupt', 'boolean', 'Image'],
];

const SAMPLES: Columns = [
  ['dataset_id', 'text'], ['id', 'text'], ['seq', 'int4'], ['media_type', 'text'],
  ['media', 'text'], ['split', 'text'], ['label', 'text'], ['computed', 'text'],
  ['processed', 'int4'], ['deleted', 'int4'], ['created_record_id', 'text'],
  ['created_at', 'int8'], ['updated_at', 'int8'],
]; // prettier-ignore
const VECTORS: Columns = [
  ['dataset_id', 'text'], ['data_level', 'text'], ['feature_name', 'text'], ['item_id', 'text'],
  ['vector', 'bytea'],
]; // prettier-ignore
const PREDICTIONS: Columns = [
  ['prediction_set_id', 'text'], ['sample_id', 'text'], ['sample_seq', 'int4'], ['label', 'text'],
  ['score', 'float8'], ['probabilities', 'text'], ['created_at', 'int8'],
]; // prettier-ignore

async function write(bulk: BulkWriter, spec: ChecksSpec, ids: NewDataset): Promise<void> {
  const { datasetId, predictionSetId, recordId, now } = ids;
  await bulk.insert(
    'datasets',
    datasetRow(datasetId, { ...spec, task: 'classification', classes: CLASSES, objects: 0 }, now),
  );
  for (const [id, type, group] of FIELDS)
    await bulk.insert(
      'metadata_fields',
      metadataFieldRow(datasetId, ['image', id, type, 'computed', group], now),
    );
  await bulk.insert('features', {
    dataset_id: datasetId,
    data_level: 'image',
    name: FEATURE,
    dimension: DIMENSION,
    source: 'computed',
    created_at: now,
    updated_at: now,
  });
  await bulk.insert('history_records', historyRow(recordId, datasetId, 'image', spec.samples, now));
  await bulk.insert(
    'prediction_sets',
    predictionSetRow(predictionSetId, datasetId, PREDICTION_SET, spec.samples, now),
  );
  const rows = tableBatches(
    bulk,
    { samples: SAMPLES, feature_vectors: VECTORS, predictions: PREDICTIONS },
    5_000,
  );
  let seq = 0;
  for (const s of checkSamples(spec)) {
    const media = `https://media.example.com/checks/${s.id}`;
    const sampleSeq = seq++;
    rows.push('samples', [
      datasetId, s.id, sampleSeq, 'image', media, s.split, CLASSES[s.label]!,
      JSON.stringify(s.computed), 1, 0, recordId, now, now,
    ]); // prettier-ignore
    rows.push('feature_vectors', [
      datasetId,
      'image',
      FEATURE,
      s.id,
      Buffer.from(s.vector.buffer, s.vector.byteOffset, s.vector.byteLength),
    ]);
    const top = s.probabilities.indexOf(Math.max(...s.probabilities));
    rows.push('predictions', [
      predictionSetId,
      s.id,
      sampleSeq,
      CLASSES[top]!,
      s.probabilities[top]!,
      JSON.stringify(s.probabilities),
      now,
    ]);
    await rows.next();
  }
  await rows.end();
}

/** Writes the dataset unless a complete one of the spec exists (or `regenerate`). */
export function generateChecks(
  database: DatabaseConfig,
  spec: ChecksSpec,
  regenerate: boolean,
): Promise<GeneratedDataset> {
  return generateOnce(database, spec.name, PREDICTION_SET, regenerate, (bulk, ids) =>
    write(bulk, spec, ids),
  );
}

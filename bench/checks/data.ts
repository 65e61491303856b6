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
import { randomUUID } from 'node:crypto';
import type { DatabaseConfig } from '@loupe/server/embedded';
import { openBulkWriter, type BulkWriter, type Columns } from '../support/bulk-sql.js';
import { mulberry32 } from '../support/random.js';

export const CLASSES = Array.from({ length: 10 }, (_, i) => `class_${i}`);
export const SPLITS = ['train', 'validation', 'test'];
/** The default image descriptor's name and dimension (apps/server/src/metadata/computed-fields.ts). */
export const FEATURE = 'loupe.image_descriptor';
export const DIMENSION = 196;
export const PREDICTION_SET = 'bench-checks-model';
const GENERATING = 'generating';

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
  ['prediction_set_id', 'text'], ['sample_id', 'text'], ['label', 'text'], ['score', 'float8'],
  ['probabilities', 'text'], ['created_at', 'int8'],
]; // prettier-ignore

export interface GeneratedChecks {
  datasetId: string;
  predictionSetId: string;
  generated: boolean;
}

async function write(bulk: BulkWriter, spec: ChecksSpec): Promise<GeneratedChecks> {
  const datasetId = randomUUID();
  const predictionSetId = randomUUID();
  const recordId = randomUUID();
  const now = Date.now();
  await bulk.insert('datasets', {
    id: datasetId,
    name: spec.name,
    description: GENERATING,
    task_type: 'classification',
    class_names: JSON.stringify(CLASSES),
    value_names: '[]',
    label_map: null,
    closed_classes: 1,
    iou_threshold: 0.5,
    thumbnails_enabled: 0,
    samples_count: spec.samples,
    objects_count: 0,
    next_seq: spec.samples,
    data_version: 1,
    created_by: null,
    created_at: now,
    updated_at: now,
  });
  for (const [id, type, group] of FIELDS)
    await bulk.insert('metadata_fields', {
      dataset_id: datasetId,
      data_level: 'image',
      id,
      name: id,
      label: id,
      description: '',
      group_name: group,
      source: 'computed',
      type,
      state: 'available',
      created_at: now,
    });
  await bulk.insert('features', {
    dataset_id: datasetId,
    data_level: 'image',
    name: FEATURE,
    dimension: DIMENSION,
    source: 'computed',
    created_at: now,
    updated_at: now,
  });
  await bulk.insert('history_records', {
    id: recordId,
    dataset_id: datasetId,
    operation_type: 'sample:create',
    data_level: 'image',
    num_items: spec.samples,
    user_id: null,
    created_at: now,
    updated_at: now,
    restored_by: null,
  });
  await bulk.insert('prediction_sets', {
    id: predictionSetId,
    dataset_id: datasetId,
    name: PREDICTION_SET,
    num_present: spec.samples,
    created_at: now,
    updated_at: now,
  });
  let samples: unknown[][] = [];
  let vectors: unknown[][] = [];
  let predictions: unknown[][] = [];
  const flush = async () => {
    await bulk.batch([
      { table: 'samples', columns: SAMPLES, rows: samples },
      { table: 'feature_vectors', columns: VECTORS, rows: vectors },
      { table: 'predictions', columns: PREDICTIONS, rows: predictions },
    ]);
    samples = [];
    vectors = [];
    predictions = [];
  };
  let seq = 0;
  for (const s of checkSamples(spec)) {
    const media = `https://media.example.com/checks/${s.id}`;
    samples.push([
      datasetId, s.id, seq++, 'image', media, s.split, CLASSES[s.label]!,
      JSON.stringify(s.computed), 1, 0, recordId, now, now,
    ]); // prettier-ignore
    vectors.push([
      datasetId,
      'image',
      FEATURE,
      s.id,
      Buffer.from(s.vector.buffer, s.vector.byteOffset, s.vector.byteLength),
    ]);
    const top = s.probabilities.indexOf(Math.max(...s.probabilities));
    predictions.push([
      predictionSetId,
      s.id,
      CLASSES[top]!,
      s.probabilities[top]!,
      JSON.stringify(s.probabilities),
      now,
    ]);
    if (samples.length === 5_000) await flush();
  }
  if (samples.length > 0) await flush();
  await bulk.run('update datasets set description = ? where id = ?', ['complete', datasetId]);
  await bulk.analyze();
  return { datasetId, predictionSetId, generated: true };
}

/** Writes the dataset unless a complete one of the spec exists (or `regenerate`). */
export async function generateChecks(
  database: DatabaseConfig,
  spec: ChecksSpec,
  regenerate: boolean,
): Promise<GeneratedChecks> {
  const bulk = await openBulkWriter(database);
  try {
    const [existing] = await bulk.select<{ id: string; description: string }>(
      'select id, description from datasets where name = ?',
      [spec.name],
    );
    if (existing && existing.description !== GENERATING && !regenerate) {
      const [set] = await bulk.select<{ id: string }>(
        'select id from prediction_sets where dataset_id = ? and name = ?',
        [existing.id, PREDICTION_SET],
      );
      if (set) return { datasetId: existing.id, predictionSetId: set.id, generated: false };
    }
    if (existing) await bulk.run('delete from datasets where id = ?', [existing.id]);
    return await write(bulk, spec);
  } finally {
    await bulk.close();
  }
}

// Data of the curation benchmark, written by bulk SQL on SQLite or PostgreSQL and reused by the
// next run: a classification dataset of N samples (URL media, 5 metadata fields, labels among
// the first 9 of 10 classes) with a subset of all its samples, and an object_detection dataset
// of 5,000 small images with 36,000 boxes whose media are a few tiny JPEGs shared by media key,
// with a subset of all its images.
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { insertObject, unnest } from '../support/bulk-sql.js';
import { GENERATING, datasetRow, historyRow, metadataFieldRow } from '../support/datasets.js';
import { mulberry32 } from '../support/random.js';

export const CLASSES = Array.from({ length: 10 }, (_, i) => `class_${i}`);
/** The class no generated sample has: the relabel moves 100,000 samples into it. */
export const NEW_CLASS = CLASSES[9]!;
export const DETECTION_CLASSES = ['car', 'person', 'bike', 'truck', 'dog'];
export const IMAGE_WIDTH = 160;
export const IMAGE_HEIGHT = 120;
const SPLITS = ['train', 'val', 'test'];

/** A sample's generated label: one of the first 9 classes, spread by a multiplicative hash. */
export function labelOf(i: number): string {
  return CLASSES[(Math.imul(i, 2654435761) >>> 0) % 9]!;
}

export const sampleId = (i: number) => `img-${String(i).padStart(7, '0')}.jpg`;
export const imageId = (i: number) => `det-${String(i).padStart(5, '0')}.jpg`;

function metadata(i: number, random: () => number): string {
  return JSON.stringify({
    weather: ['sunny', 'rain', 'fog, light'][i % 3],
    hour: Math.floor(random() * 24),
    indoor: random() < 0.3,
    camera: `cam-${i % 50}`,
    score: Math.round(random() * 1e6) / 1e6,
  });
}
const METADATA_FIELDS: [string, string][] = [
  ['weather', 'string'],
  ['hour', 'numeric'],
  ['indoor', 'boolean'],
  ['camera', 'string'],
  ['score', 'numeric'],
];

export interface DatasetSpec {
  name: string;
  task: 'classification' | 'object_detection';
  samples: number;
  objects: number;
  classes: string[];
  /** Rows of one sample (table column order) and its objects. */
  rows(i: number, random: () => number): { sample: unknown[]; objects: unknown[][] };
}

export interface Generated {
  datasetId: string;
  /** The subset holding every sample. */
  allSubsetId: string;
  generated: boolean;
}

export const SAMPLE_COLUMNS =
  'dataset_id, id, seq, media_type, media, split, label, labels, values_json, transcript, mask, metadata, computed, thumbnail, processed, deleted, created_record_id, created_at, updated_at';
const SAMPLE_TYPES = [
  'text', 'text', 'int4', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text',
  'text', 'text', 'int4', 'int4', 'text', 'int8', 'int8',
]; // prettier-ignore
const OBJECT_COLUMNS =
  'dataset_id, id, sample_id, label, x, y, w, h, segmentation, iscrowd, deleted, computed, created_at, updated_at';
const OBJECT_TYPES = [
  'text', 'text', 'text', 'text', 'float8', 'float8', 'float8', 'float8', 'text', 'int4', 'int4',
  'text', 'int8', 'int8',
]; // prettier-ignore
const ITEM_COLUMNS = 'subset_id, item_id, position';
const ITEM_TYPES = ['text', 'text', 'int4'];

/** The classification dataset: `count` samples with URL media and 5 metadata fields. */
export function classificationSpec(count: number): DatasetSpec {
  return {
    name: `curation-bench-classification-${count}`,
    task: 'classification',
    samples: count,
    objects: 0,
    classes: CLASSES,
    rows: (i, random) => ({
      sample: [
        sampleId(i),
        i,
        'image',
        `https://images.example.com/cam-${i % 50}/${sampleId(i)}`,
        SPLITS[i % 10 < 8 ? 0 : i % 10 === 8 ? 1 : 2],
        labelOf(i),
        metadata(i, random),
        null,
      ],
      objects: [],
    }),
  };
}

/** The detection dataset: `count` images, 7.2 boxes each on average, media among `blobs`. */
export function detectionSpec(count: number, blobs: string[]): DatasetSpec {
  const objects = Math.round(count * 7.2);
  return {
    name: `curation-bench-detection-${count}`,
    task: 'object_detection',
    samples: count,
    objects,
    classes: DETECTION_CLASSES,
    rows: (i, random) => {
      const id = imageId(i);
      const n = Math.floor((objects * (i + 1)) / count) - Math.floor((objects * i) / count);
      const boxes: unknown[][] = [];
      for (let k = 0; k < n; k++) {
        const w = 4 + Math.floor(random() * 60);
        const h = 4 + Math.floor(random() * 40);
        const x = Math.floor(random() * (IMAGE_WIDTH - w));
        const y = Math.floor(random() * (IMAGE_HEIGHT - h));
        boxes.push([
          `${id}#${k}`,
          id,
          DETECTION_CLASSES[Math.floor(random() * DETECTION_CLASSES.length)],
          x,
          y,
          w,
          h,
          JSON.stringify({
            'object.area': w * h,
            'object.relative_area': (w * h) / (IMAGE_WIDTH * IMAGE_HEIGHT),
            'object.aspect_ratio': w / h,
          }),
        ]);
      }
      return {
        sample: [
          id,
          i,
          'image',
          `blob:${blobs[i % blobs.length]}`,
          SPLITS[i % 3],
          null,
          metadata(i, random),
          JSON.stringify({
            'image.width': IMAGE_WIDTH,
            'image.height': IMAGE_HEIGHT,
            'image.object_count': n,
          }),
        ],
        objects: boxes,
      };
    },
  };
}

interface Header {
  dataset: Record<string, unknown>;
  fields: Record<string, unknown>[];
  history: Record<string, unknown>;
  subset: Record<string, unknown>;
}

function headerRows(spec: DatasetSpec, ids: Ids, now: number): Header {
  const { datasetId } = ids;
  const field = (level: string, id: string, type: string, source: string, group: string) =>
    metadataFieldRow(datasetId, [level, id, type, source, group], now);
  const detection = spec.task === 'object_detection';
  return {
    dataset: datasetRow(datasetId, spec, now),
    fields: [
      ...METADATA_FIELDS.map(([id, type]) => field('image', id, type, 'uploaded', 'Uploaded')),
      ...(detection
        ? [
            field('image', 'image.width', 'numeric', 'computed', 'Image'),
            field('image', 'image.height', 'numeric', 'computed', 'Image'),
            field('image', 'image.object_count', 'numeric', 'computed', 'Image'),
            field('image_object', 'object.area', 'numeric', 'computed', 'Object'),
            field('image_object', 'object.relative_area', 'numeric', 'computed', 'Object'),
            field('image_object', 'object.aspect_ratio', 'numeric', 'computed', 'Object'),
          ]
        : []),
    ],
    history: historyRow(ids.recordId, datasetId, 'image', spec.samples, now),
    subset: {
      id: ids.subsetId,
      dataset_id: ids.datasetId,
      name: 'all',
      description: 'Every sample (made by the benchmark)',
      data_level: 'image',
      enabled_for_performance: 0,
      num_items: spec.samples,
      next_position: spec.samples,
      created_by: null,
      created_at: now,
      updated_at: now,
    },
  };
}

interface Ids {
  datasetId: string;
  recordId: string;
  subsetId: string;
}

/** Batches of sample, object and subset item rows (table column order), made lazily. */
function* batches(
  spec: DatasetSpec,
  ids: Ids,
  now: number,
  size: number,
): Generator<[unknown[][], unknown[][], unknown[][]]> {
  const random = mulberry32(42);
  let samples: unknown[][] = [];
  let objects: unknown[][] = [];
  let items: unknown[][] = [];
  for (let i = 0; i < spec.samples; i++) {
    const { sample, objects: own } = spec.rows(i, random);
    const [id, seq, mediaType, media, split, label, meta, computed] = sample;
    samples.push([
      ids.datasetId,
      id,
      seq,
      mediaType,
      media,
      split,
      label,
      null,
      null,
      null,
      null,
      meta,
      computed,
      null,
      1,
      0,
      ids.recordId,
      now,
      now,
    ]);
    for (const [objectId, sampleOf, objectLabel, x, y, w, h, objectComputed] of own)
      objects.push([
        ids.datasetId,
        objectId,
        sampleOf,
        objectLabel,
        x,
        y,
        w,
        h,
        null,
        0,
        0,
        objectComputed,
        now,
        now,
      ]);
    items.push([ids.subsetId, id, i]);
    if (samples.length === size) {
      yield [samples, objects, items];
      samples = [];
      objects = [];
      items = [];
    }
  }
  if (samples.length > 0) yield [samples, objects, items];
}

function newIds(): Ids {
  return { datasetId: randomUUID(), recordId: randomUUID(), subsetId: randomUUID() };
}

/** Writes the dataset unless a complete one of that name exists (or `regenerate`). */
export function generateSqlite(path: string, spec: DatasetSpec, regenerate: boolean): Generated {
  const db = new SQLite(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    const existing = db
      .prepare('select id, description from datasets where name = ?')
      .get(spec.name) as { id: string; description: string } | undefined;
    if (existing && existing.description !== GENERATING && !regenerate) {
      const subset = db
        .prepare("select id from subsets where dataset_id = ? and name = 'all'")
        .get(existing.id) as { id: string };
      return { datasetId: existing.id, allSubsetId: subset.id, generated: false };
    }
    if (existing) db.prepare('delete from datasets where id = ?').run(existing.id);
    const ids = newIds();
    const now = Date.now();
    const header = headerRows(spec, ids, now);
    const insert = (table: string, row: Record<string, unknown>) => {
      const keys = Object.keys(row);
      db.prepare(
        `insert into ${table} (${keys.join(', ')}) values (${keys.map(() => '?').join(', ')})`,
      ).run(...Object.values(row));
    };
    insert('datasets', header.dataset);
    for (const field of header.fields) insert('metadata_fields', field);
    insert('history_records', header.history);
    insert('subsets', header.subset);
    const statement = (table: string, columns: string, n: number) =>
      db.prepare(`insert into ${table} (${columns}) values (${new Array(n).fill('?').join(', ')})`);
    const sampleInsert = statement('samples', SAMPLE_COLUMNS, SAMPLE_TYPES.length);
    const objectInsert = statement('objects', OBJECT_COLUMNS, OBJECT_TYPES.length);
    const itemInsert = statement('subset_items', ITEM_COLUMNS, ITEM_TYPES.length);
    const write = db.transaction((s: unknown[][], o: unknown[][], it: unknown[][]) => {
      for (const row of s) sampleInsert.run(...row);
      for (const row of o) objectInsert.run(...row);
      for (const row of it) itemInsert.run(...row);
    });
    for (const [s, o, it] of batches(spec, ids, now, 20_000)) write(s, o, it);
    db.prepare('update datasets set description = ? where id = ?').run('complete', ids.datasetId);
    return { datasetId: ids.datasetId, allSubsetId: ids.subsetId, generated: true };
  } finally {
    db.close();
  }
}

/** The same on PostgreSQL, in `schema`. */
export async function generatePostgres(
  url: string,
  schema: string,
  spec: DatasetSpec,
  regenerate: boolean,
): Promise<Generated> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    const existing = await client.query<{ id: string; description: string }>(
      'select id, description from datasets where name = $1',
      [spec.name],
    );
    const found = existing.rows[0];
    if (found && found.description !== GENERATING && !regenerate) {
      const subset = await client.query<{ id: string }>(
        "select id from subsets where dataset_id = $1 and name = 'all'",
        [found.id],
      );
      return { datasetId: found.id, allSubsetId: subset.rows[0]!.id, generated: false };
    }
    if (found) await client.query('delete from datasets where id = $1', [found.id]);
    const ids = newIds();
    const now = Date.now();
    const header = headerRows(spec, ids, now);
    await client.query(insertObject('datasets', header.dataset));
    for (const field of header.fields) await client.query(insertObject('metadata_fields', field));
    await client.query(insertObject('history_records', header.history));
    await client.query(insertObject('subsets', header.subset));
    for (const [s, o, it] of batches(spec, ids, now, 10_000)) {
      await client.query('begin');
      await client.query(unnest('samples', SAMPLE_COLUMNS, SAMPLE_TYPES, s));
      if (o.length > 0) await client.query(unnest('objects', OBJECT_COLUMNS, OBJECT_TYPES, o));
      await client.query(unnest('subset_items', ITEM_COLUMNS, ITEM_TYPES, it));
      await client.query('commit');
    }
    await client.query('update datasets set description = $1 where id = $2', [
      'complete',
      ids.datasetId,
    ]);
    await client.query('analyze');
    return { datasetId: ids.datasetId, allSubsetId: ids.subsetId, generated: true };
  } finally {
    await client.end();
  }
}

// Checks an upload batch row by row against the dataset's task type, classes and metadata
// types, and turns valid rows into database rows. Every problem is reported with its row and
// field; a batch with any problem is refused whole. It lives here, not in the server, so the
// `loupe` CLI checks a whole folder exactly the way the server will before it sends anything.
import type { z } from 'zod';
import {
  PredictedObjectInput,
  PredictionInput,
  SampleInput,
  ObjectInput,
  type MetadataType,
  type MetadataValue,
  type RowError,
  type TaskType,
} from './datasets.js';
import { TASK_TRAITS, type MediaKind } from './task-traits.js';

/** The largest media file the server takes (POST /api/datasets/{id}/media). */
export const MAX_MEDIA_BYTES = 200 * 1024 * 1024;

export interface DatasetShape {
  task_type: TaskType;
  class_names: string[];
  /** Whether class_names were declared up front (then labels must be among them). */
  closed_classes: boolean;
  value_names: string[];
  /** Types of the metadata fields uploaded so far, by key. */
  metadata_types: Map<string, MetadataType>;
}

/**
 * Metadata names the server keeps for itself: these exact names, and names under these prefixes.
 * Case matters (`Label` is a name of its own), and a longer name (`labeler`, `idx`) is free.
 */
export const RESERVED_METADATA =
  /^(?:id|split|label|labels|card_index)$|^(?:image|audio|object|prediction|concept|check)\./;

export interface ValidatedObject {
  id: string;
  label: string;
  bbox: [number, number, number, number] | null;
  segmentation: ObjectInput['segmentation'] | null;
  iscrowd: boolean;
  score?: number;
}

export interface ValidatedSample {
  input: SampleInput;
  media: { type: MediaKind; ref: string } | null;
  values: Record<string, number> | null;
  objects: ValidatedObject[] | null;
  metadata: Record<string, number | string | boolean | null> | null;
}

function zodErrors(row: number, id: string | undefined, error: z.ZodError): RowError[] {
  return error.issues.map((issue) => ({
    row,
    ...(id ? { id } : {}),
    field: issue.path.join('.') || '(row)',
    message: issue.message,
  }));
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The known key a misspelt one most likely meant (`lable` → `label`), when one is close enough. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const allowed = Math.max(1, Math.min(2, Math.floor(key.length / 3)));
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    // The distance is at least the difference in length: a long key is never close, and is not
    // measured (the key is the uploader's and may be megabytes long).
    if (Math.abs(key.length - candidate.length) > allowed) continue;
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance <= allowed && (!best || distance < best.distance))
      best = { key: candidate, distance };
  }
  return best?.key;
}

/** What a row (or an object inside it) may hold, for naming keys nobody reads. */
interface RowKeys {
  /** "a sample", "an object", … */
  what: string;
  keys: readonly string[];
  /** Where values of the uploader's own belong, when the row has such a place. */
  custom?: string;
  objects?: RowKeys;
}

const listed = (keys: readonly string[]) =>
  `${keys.slice(0, -1).join(', ')} and ${keys[keys.length - 1]}`;

const SAMPLE_KEYS: RowKeys = {
  what: 'a sample',
  keys: Object.keys(SampleInput.shape),
  custom: 'metadata',
  objects: { what: 'an object', keys: Object.keys(ObjectInput.shape) },
};
const PREDICTION_KEYS: RowKeys = {
  what: 'a prediction',
  keys: Object.keys(PredictionInput.shape),
  objects: { what: 'a predicted object', keys: Object.keys(PredictedObjectInput.shape) },
};

/** How much of an unknown key an error repeats. */
const SHOWN_KEY_LENGTH = 64;

/**
 * Keys of a row that no field reads. Refused rather than dropped: a typo such as `lable` or
 * `spilt` would otherwise vanish without a word, and the row land without its label or split.
 */
function unknownKeys(raw: unknown, shape: RowKeys, prefix: string): Omit<RowError, 'row'>[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [];
  const errors: Omit<RowError, 'row'>[] = [];
  for (const key of Object.keys(raw)) {
    if (shape.keys.includes(key)) continue;
    const guess = closestKey(key, shape.keys);
    // The key is the uploader's and may be huge: the answer names at most its start.
    const shown = key.length > SHOWN_KEY_LENGTH ? `${key.slice(0, SHOWN_KEY_LENGTH)}…` : key;
    const custom = shape.custom
      ? `Values of your own go in ${shape.custom}: {"${shape.custom}": {${JSON.stringify(shown)}: …}}.`
      : `${shape.what[0]!.toUpperCase()}${shape.what.slice(1)} takes ${listed(shape.keys)}.`;
    errors.push({
      field: `${prefix}${shown}`,
      message: `unknown key '${shown}': ${guess ? `did you mean '${guess}'?` : `not a field of ${shape.what}.`} ${custom}`,
    });
  }
  const objects = (raw as { objects?: unknown }).objects;
  if (shape.objects && Array.isArray(objects))
    objects.forEach((object, i) =>
      errors.push(...unknownKeys(object, shape.objects!, `${prefix}objects.${i}.`)),
    );
  return errors;
}

/** Problems a batch reports at most; checking stops at the row that reaches them. */
export const MAX_BATCH_ERRORS = 1_000;

/**
 * Parses each row with `schema`; reports keys no field reads, parse errors and ids repeated in
 * the batch, then visits the row.
 */
function eachParsedRow<T extends { id: string }>(
  rows: unknown[],
  schema: z.ZodType<T>,
  keys: RowKeys,
  errors: RowError[],
  visit: (input: T, row: number) => void,
): void {
  const ids = new Map<string, number>();
  for (let row = 0; row < rows.length; row++) {
    // A refused batch is refused whole: past MAX_BATCH_ERRORS, more problems only cost time.
    if (errors.length >= MAX_BATCH_ERRORS) return;
    const raw = rows[row];
    const rawId =
      typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : undefined;
    const unknown = unknownKeys(raw, keys, '');
    errors.push(...unknown.map((error) => ({ row, ...(rawId ? { id: rawId } : {}), ...error })));
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      errors.push(...zodErrors(row, rawId, parsed.error));
      continue;
    }
    const { id } = parsed.data;
    if (ids.has(id))
      errors.push({
        row,
        id,
        field: 'id',
        message: `duplicate of row ${ids.get(id)} in this batch`,
      });
    ids.set(id, row);
    visit(parsed.data, row);
  }
}

/** The bounding box of polygons, COCO style [x, y, w, h]. */
export function polygonBbox(polygons: number[][]): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const polygon of polygons) {
    for (let i = 0; i + 1 < polygon.length; i += 2) {
      minX = Math.min(minX, polygon[i]!);
      maxX = Math.max(maxX, polygon[i]!);
      minY = Math.min(minY, polygon[i + 1]!);
      maxY = Math.max(maxY, polygon[i + 1]!);
    }
  }
  return [minX, minY, maxX - minX, maxY - minY];
}

function checkObjects(
  task: TaskType,
  sampleId: string,
  objects: (ObjectInput & { score?: number })[],
  row: number,
  shape: DatasetShape,
  errors: RowError[],
  learned: Set<string>,
): ValidatedObject[] {
  const seen = new Set<string>();
  return objects.map((object, index) => {
    const field = `objects.${index}`;
    // Object ids are derived from the sample id, so they are unique across the dataset.
    const id = `${sampleId}#${object.id ?? index}`;
    if (seen.has(id))
      errors.push({
        row,
        id: sampleId,
        field: `${field}.id`,
        message: `duplicate object id '${object.id ?? index}' in this sample`,
      });
    seen.add(id);
    checkLabel(object.label, `${field}.label`, row, sampleId, shape, errors, learned);
    let bbox = object.bbox ?? null;
    const segmentation = object.segmentation ?? null;
    if (!bbox && segmentation && Array.isArray(segmentation)) bbox = polygonBbox(segmentation);
    if (!bbox)
      errors.push({
        row,
        id: sampleId,
        field: `${field}.bbox`,
        message: 'bbox is required (or polygon segmentation to derive it from)',
      });
    if (task === 'instance_segmentation' && !segmentation) {
      errors.push({
        row,
        id: sampleId,
        field: `${field}.segmentation`,
        message: 'instance segmentation objects need a segmentation (polygons or RLE)',
      });
    }
    if (segmentation && Array.isArray(segmentation)) {
      segmentation.forEach((polygon, p) => {
        if (polygon.length % 2 !== 0) {
          errors.push({
            row,
            id: sampleId,
            field: `${field}.segmentation.${p}`,
            message: 'a polygon needs an even number of coordinates (x, y pairs)',
          });
        }
      });
    }
    return {
      id,
      label: object.label,
      bbox,
      segmentation,
      iscrowd: object.iscrowd ?? false,
      ...(object.score !== undefined ? { score: object.score } : {}),
    };
  });
}

function checkLabel(
  label: string,
  field: string,
  row: number,
  id: string,
  shape: DatasetShape,
  errors: RowError[],
  learned: Set<string>,
): void {
  if (shape.class_names.includes(label)) return;
  if (shape.closed_classes) {
    errors.push({ row, id, field, message: `'${label}' is not one of the dataset's class names` });
  } else learned.add(label);
}

function checkValues(
  values: Record<string, number> | number[],
  shape: DatasetShape,
  row: number,
  id: string,
  errors: RowError[],
): Record<string, number> | null {
  if (Array.isArray(values)) {
    if (values.length !== shape.value_names.length) {
      errors.push({
        row,
        id,
        field: 'values',
        message: `expected ${shape.value_names.length} values (${shape.value_names.join(', ')}), got ${values.length}`,
      });
      return null;
    }
    return Object.fromEntries(shape.value_names.map((name, i) => [name, values[i]!]));
  }
  for (const name of Object.keys(values)) {
    if (!shape.value_names.includes(name))
      errors.push({
        row,
        id,
        field: `values.${name}`,
        message: `'${name}' is not one of the dataset's value names (${shape.value_names.join(', ')})`,
      });
  }
  for (const name of shape.value_names) {
    if (!(name in values))
      errors.push({ row, id, field: `values.${name}`, message: 'missing value' });
  }
  return values;
}

/** The metadata type a value implies; timestamps are declared, not guessed. */
function typeOf(value: MetadataValue, declared: MetadataType | undefined): MetadataType | null {
  if (value === null) return null;
  if (declared === 'timestamp') return 'timestamp';
  if (typeof value === 'number') return 'numeric';
  if (typeof value === 'boolean') return 'boolean';
  return 'string';
}

function toTimestamp(value: MetadataValue): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value * 1000; // seconds → ms
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  return undefined;
}

function checkMetadata(
  metadata: Record<string, MetadataValue>,
  declared: Record<string, MetadataType>,
  shape: DatasetShape,
  row: number,
  id: string,
  errors: RowError[],
  newTypes: Map<string, MetadataType>,
): Record<string, number | string | boolean | null> {
  const out: Record<string, number | string | boolean | null> = {};
  for (const [key, value] of Object.entries(metadata)) {
    const field = `metadata.${key}`;
    if (RESERVED_METADATA.test(key)) {
      errors.push({ row, id, field, message: `'${key}' is a reserved name: choose another key` });
      continue;
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      errors.push({ row, id, field, message: 'numbers must be finite' });
      continue;
    }
    const expected = shape.metadata_types.get(key) ?? newTypes.get(key) ?? declared[key];
    const actual = typeOf(value, expected ?? declared[key]);
    if (actual === null) {
      out[key] = null;
      continue;
    }
    if (expected && expected !== actual) {
      errors.push({
        row,
        id,
        field,
        message: `expected a ${expected} value (the field is ${expected}), got ${JSON.stringify(value)}`,
      });
      continue;
    }
    if (actual === 'timestamp') {
      const ms = toTimestamp(value);
      if (ms === undefined) {
        errors.push({
          row,
          id,
          field,
          message: `expected an ISO 8601 date-time or seconds since the epoch, got ${JSON.stringify(value)}`,
        });
        continue;
      }
      out[key] = ms;
    } else out[key] = value;
    if (!shape.metadata_types.has(key)) newTypes.set(key, actual);
  }
  return out;
}

export interface SampleBatchCheck {
  samples: ValidatedSample[];
  errors: RowError[];
  newClasses: string[];
  newMetadataTypes: Map<string, MetadataType>;
}

/**
 * A mask (semantic segmentation's label map) names media the dataset may use, as its samples'
 * media do; any other task refuses it.
 */
function checkMask(
  mask: string,
  row: number,
  id: string,
  task: TaskType,
  what: 'datasets' | 'predictions',
  mediaAllowed: (ref: string) => string | undefined,
  errors: RowError[],
): void {
  if (TASK_TRAITS[task].label !== 'mask') {
    errors.push({
      row,
      id,
      field: 'mask',
      message: `only semantic segmentation ${what} take a mask`,
    });
    return;
  }
  const problem = mediaAllowed(mask);
  if (problem) errors.push({ row, id, field: 'mask', message: problem });
}

/**
 * Validates an upload batch of samples. `mediaAllowed` says why a media reference (image, audio,
 * mask) cannot be used, e.g. a blob not uploaded to this dataset, or nothing when it can.
 */
export function checkSampleBatch(
  rows: unknown[],
  shape: DatasetShape,
  declaredTypes: Record<string, MetadataType>,
  mediaAllowed: (ref: string) => string | undefined,
): SampleBatchCheck {
  const errors: RowError[] = [];
  const samples: ValidatedSample[] = [];
  const learned = new Set<string>();
  const newTypes = new Map<string, MetadataType>();
  const task = shape.task_type;
  const traits = TASK_TRAITS[task];
  const mediaType = traits.media;

  eachParsedRow(rows, SampleInput, SAMPLE_KEYS, errors, (input, row) => {
    const id = input.id;
    const before = errors.length;

    const other = mediaType === 'image' ? 'audio' : 'image';
    if (input[other] !== undefined)
      errors.push({
        row,
        id,
        field: other,
        message: `a ${task} dataset takes ${mediaType}, not ${other}`,
      });
    const ref = input[mediaType];
    if (ref !== undefined) {
      const problem = mediaAllowed(ref);
      if (problem) errors.push({ row, id, field: mediaType, message: problem });
    }
    if (input.mask !== undefined)
      checkMask(input.mask, row, id, task, 'datasets', mediaAllowed, errors);

    const labelled = traits.label === 'class';
    if (input.label !== undefined) {
      if (labelled) checkLabel(input.label, 'label', row, id, shape, errors, learned);
      else
        errors.push({ row, id, field: 'label', message: `a ${task} dataset has no sample label` });
    }
    if (input.labels !== undefined) {
      if (labelled)
        input.labels.forEach((label, i) =>
          checkLabel(label, `labels.${i}`, row, id, shape, errors, learned),
        );
      else
        errors.push({
          row,
          id,
          field: 'labels',
          message: `a ${task} dataset has no sample labels`,
        });
    }
    let values: Record<string, number> | null = null;
    if (input.values !== undefined) {
      if (traits.label === 'value') values = checkValues(input.values, shape, row, id, errors);
      else
        errors.push({ row, id, field: 'values', message: 'only regression datasets take values' });
    }
    let objects: ValidatedObject[] | null = null;
    if (input.objects !== undefined) {
      if (traits.hasObjects)
        objects = checkObjects(task, id, input.objects, row, shape, errors, learned);
      else errors.push({ row, id, field: 'objects', message: `a ${task} dataset has no objects` });
    }
    if (input.transcript !== undefined && traits.label !== 'transcript') {
      errors.push({
        row,
        id,
        field: 'transcript',
        message: 'only speech recognition datasets take a transcript',
      });
    }
    const metadata = input.metadata
      ? checkMetadata(input.metadata, declaredTypes, shape, row, id, errors, newTypes)
      : null;
    if (errors.length === before) {
      samples.push({
        input,
        media: ref !== undefined ? { type: mediaType, ref } : null,
        values,
        objects,
        metadata,
      });
    }
  });
  return { samples, errors, newClasses: [...learned], newMetadataTypes: newTypes };
}

export interface ValidatedPrediction {
  input: PredictionInput;
  objects: ValidatedObject[] | null;
  probabilities: number[] | null;
}

/**
 * Validates a batch of predictions for the samples of a dataset; `mediaAllowed` checks a
 * predicted mask the way checkSampleBatch checks a sample's media.
 */
export function checkPredictionBatch(
  rows: unknown[],
  shape: DatasetShape,
  sampleExists: (id: string) => boolean,
  mediaAllowed: (ref: string) => string | undefined,
): { predictions: ValidatedPrediction[]; errors: RowError[] } {
  const errors: RowError[] = [];
  const predictions: ValidatedPrediction[] = [];
  const task = shape.task_type;
  const traits = TASK_TRAITS[task];
  const classes = { ...shape, closed_classes: shape.class_names.length > 0 };
  eachParsedRow(rows, PredictionInput, PREDICTION_KEYS, errors, (input, row) => {
    const id = input.id;
    const before = errors.length;
    if (!sampleExists(id))
      errors.push({ row, id, field: 'id', message: `no sample with id '${id}' in this dataset` });
    const labelled = traits.label === 'class';
    const ignored = new Set<string>();
    if (input.label !== undefined) {
      if (labelled) checkLabel(input.label, 'label', row, id, classes, errors, ignored);
      else errors.push({ row, id, field: 'label', message: `a ${task} prediction has no label` });
    }
    let probabilities: number[] | null = null;
    if (input.probabilities !== undefined) {
      if (!labelled)
        errors.push({
          row,
          id,
          field: 'probabilities',
          message: `a ${task} prediction has no class probabilities`,
        });
      else if (Array.isArray(input.probabilities)) {
        if (input.probabilities.length !== shape.class_names.length) {
          errors.push({
            row,
            id,
            field: 'probabilities',
            message: `expected ${shape.class_names.length} probabilities, one per class name, got ${input.probabilities.length}`,
          });
        } else probabilities = input.probabilities;
      } else {
        const byName = input.probabilities;
        const unknown = Object.keys(byName).filter((name) => !shape.class_names.includes(name));
        if (unknown.length)
          errors.push({
            row,
            id,
            field: 'probabilities',
            message: `unknown class names: ${unknown.join(', ')}`,
          });
        else probabilities = shape.class_names.map((name) => byName[name] ?? 0);
      }
    }
    if (input.values !== undefined) {
      if (traits.label === 'value') checkValues(input.values, shape, row, id, errors);
      else
        errors.push({
          row,
          id,
          field: 'values',
          message: 'only regression predictions take values',
        });
    }
    let objects: ValidatedObject[] | null = null;
    if (input.objects !== undefined) {
      if (traits.hasObjects)
        objects = checkObjects(task, id, input.objects, row, classes, errors, ignored);
      else
        errors.push({ row, id, field: 'objects', message: `a ${task} prediction has no objects` });
    }
    if (input.transcript !== undefined && traits.label !== 'transcript') {
      errors.push({
        row,
        id,
        field: 'transcript',
        message: 'only speech recognition predictions take a transcript',
      });
    }
    if (input.mask !== undefined)
      checkMask(input.mask, row, id, task, 'predictions', mediaAllowed, errors);
    if (errors.length === before) predictions.push({ input, objects, probabilities });
  });
  return { predictions, errors };
}

/**
 * Columns of the CSV folder layout (docs/formats.md) that are not metadata: the `loupe import`
 * reader takes every other column as a metadata field, and an export names its metadata
 * columns around them.
 */
export const CSV_LAYOUT_COLUMNS: readonly string[] = [
  'id',
  'image',
  'audio',
  'label',
  'values',
  'semantic_masks',
  'mask',
  'transcript',
  'class_names',
  'objects',
];

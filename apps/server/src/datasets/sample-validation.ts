// Checks an upload batch row by row against the dataset's task type, classes and metadata
// types, and turns valid rows into database rows. Every problem is reported with its row and
// field; a batch with any problem is refused whole.
import {
  PredictionInput,
  SampleInput,
  isAudioTask,
  type MetadataValue,
  type ObjectInput,
  type RowError,
  type TaskType,
} from '@loupe/contracts';
import type { z } from 'zod';

export type MetadataType = 'numeric' | 'string' | 'boolean' | 'timestamp';

export interface DatasetShape {
  task_type: TaskType;
  class_names: string[];
  /** Whether class_names were declared up front (then labels must be among them). */
  closed_classes: boolean;
  value_names: string[];
  /** Types of the metadata fields uploaded so far, by key. */
  metadata_types: Map<string, MetadataType>;
}

export const RESERVED_METADATA =
  /^(id|split|label|labels|card_index|image\.|audio\.|object\.|prediction\.|concept\.|check\.)/;

const MEDIA_FIELD: Record<'image' | 'audio', string> = { image: 'image', audio: 'audio' };

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
  media: { type: 'image' | 'audio'; ref: string } | null;
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

/** Parses each row with `schema`; reports parse errors and ids repeated in the batch, then visits the row. */
function eachParsedRow<T extends { id: string }>(
  rows: unknown[],
  schema: z.ZodType<T>,
  errors: RowError[],
  visit: (input: T, row: number) => void,
): void {
  const ids = new Map<string, number>();
  rows.forEach((raw, row) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const rawId =
        typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : undefined;
      errors.push(...zodErrors(row, rawId, parsed.error));
      return;
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
  });
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

/** Validates an upload batch of samples. `knownMedia` holds the blob keys uploaded for this dataset. */
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
  const mediaType: 'image' | 'audio' = isAudioTask(task) ? 'audio' : 'image';

  eachParsedRow(rows, SampleInput, errors, (input, row) => {
    const id = input.id;
    const before = errors.length;

    const other = mediaType === 'image' ? 'audio' : 'image';
    if (input[other] !== undefined)
      errors.push({
        row,
        id,
        field: other,
        message: `a ${task} dataset takes ${MEDIA_FIELD[mediaType]}, not ${other}`,
      });
    const ref = input[mediaType];
    if (ref !== undefined) {
      const problem = mediaAllowed(ref);
      if (problem) errors.push({ row, id, field: mediaType, message: problem });
    }
    if (input.mask !== undefined) {
      if (task !== 'semantic_segmentation')
        errors.push({
          row,
          id,
          field: 'mask',
          message: 'only semantic segmentation datasets take a mask',
        });
      else {
        const problem = mediaAllowed(input.mask);
        if (problem) errors.push({ row, id, field: 'mask', message: problem });
      }
    }

    const labelled = task === 'classification' || task === 'audio_classification';
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
      if (task === 'regression') values = checkValues(input.values, shape, row, id, errors);
      else
        errors.push({ row, id, field: 'values', message: 'only regression datasets take values' });
    }
    let objects: ValidatedObject[] | null = null;
    if (input.objects !== undefined) {
      if (task === 'object_detection' || task === 'instance_segmentation')
        objects = checkObjects(task, id, input.objects, row, shape, errors, learned);
      else errors.push({ row, id, field: 'objects', message: `a ${task} dataset has no objects` });
    }
    if (input.transcript !== undefined && task !== 'automatic_speech_recognition') {
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

/** Validates a batch of predictions for the samples of a dataset. */
export function checkPredictionBatch(
  rows: unknown[],
  shape: DatasetShape,
  sampleExists: (id: string) => boolean,
): { predictions: ValidatedPrediction[]; errors: RowError[] } {
  const errors: RowError[] = [];
  const predictions: ValidatedPrediction[] = [];
  const task = shape.task_type;
  const classes = { ...shape, closed_classes: shape.class_names.length > 0 };
  eachParsedRow(rows, PredictionInput, errors, (input, row) => {
    const id = input.id;
    const before = errors.length;
    if (!sampleExists(id))
      errors.push({ row, id, field: 'id', message: `no sample with id '${id}' in this dataset` });
    const labelled = task === 'classification' || task === 'audio_classification';
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
      if (task === 'regression') checkValues(input.values, shape, row, id, errors);
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
      if (task === 'object_detection' || task === 'instance_segmentation')
        objects = checkObjects(task, id, input.objects, row, classes, errors, ignored);
      else
        errors.push({ row, id, field: 'objects', message: `a ${task} prediction has no objects` });
    }
    if (input.transcript !== undefined && task !== 'automatic_speech_recognition') {
      errors.push({
        row,
        id,
        field: 'transcript',
        message: 'only speech recognition predictions take a transcript',
      });
    }
    if (errors.length === before) predictions.push({ input, objects, probabilities });
  });
  return { predictions, errors };
}

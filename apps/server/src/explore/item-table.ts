// Builds the explorer's item table of one dataset, data level and prediction set from the
// database: pages of rows in upload order go straight into typed columns (no per-row objects
// kept), so a million samples or millions of objects fit in a few hundred MB.
import {
  fromColumns,
  prepareSortIndex,
  type ColumnInput,
  type ItemTable,
  type MetadataType,
} from '@loupe/analysis';
import { matchObjects, wordErrors, type MatchableObject } from '@loupe/metrics';
import type { DataLevel, TaskType } from '@loupe/contracts';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import type { MetadataFieldRecord } from '../datasets/metadata-fields.repository.js';
import type { ExploreRepository } from './explore.repository.js';

/** One metadata field of a table (docs/product.md §3 "Metadata field", without its per-request state). */
export interface FieldDef {
  id: string;
  name: string;
  label: string;
  description: string;
  group: string;
  source: 'builtin' | 'uploaded' | 'computed' | 'prediction';
  type: MetadataType;
}

export interface FieldStats {
  num_missing: number;
  num_total: number;
  min?: number;
  max?: number;
  allowed_values?: string[];
}

/** An item table with what the explorer needs besides the columns. */
export interface ExploreTable {
  table: ItemTable;
  fields: FieldDef[];
  /** The dataset's data_version the table was built from (also table.version, as uint32). */
  dataVersion: number;
  /** Approximate bytes held, for the cache's memory budget. */
  bytes: number;
  /** Per-field statistics, filled on first use. */
  stats: Map<string, FieldStats>;
}

/** Predicted objects are items too at object level; their ids carry this prefix. */
export const PREDICTED_OBJECT_PREFIX = 'pred:';
/** Distinct string values up to which a field lists its values (docs/product.md: allowed_values). */
export const MAX_ALLOWED_VALUES = 200;
const PAGE = 10_000;

export function regressionFieldId(name: string): string {
  return `label.values.${name}`;
}

// ---- growable columns

class NumberColumn {
  values: Float64Array;
  constructor(capacity: number) {
    this.values = new Float64Array(capacity).fill(NaN);
  }
  set(row: number, value: number): void {
    if (row >= this.values.length) {
      const next = new Float64Array(Math.max(row + 1, this.values.length * 2)).fill(NaN);
      next.set(this.values);
      this.values = next;
    }
    this.values[row] = value;
  }
  input(type: 'numeric' | 'timestamp', length: number): ColumnInput {
    return {
      type,
      values: this.values.length === length ? this.values : this.values.slice(0, length),
    };
  }
}

class CodeColumn {
  codes: Int32Array;
  categories: string[] = [];
  private index = new Map<string, number>();
  constructor(capacity: number) {
    this.codes = new Int32Array(capacity).fill(-1);
  }
  private ensure(row: number): void {
    if (row < this.codes.length) return;
    const next = new Int32Array(Math.max(row + 1, this.codes.length * 2)).fill(-1);
    next.set(this.codes);
    this.codes = next;
  }
  set(row: number, value: string): void {
    this.ensure(row);
    let code = this.index.get(value);
    if (code === undefined) {
      code = this.categories.length;
      this.categories.push(value);
      this.index.set(value, code);
    }
    this.codes[row] = code;
  }
  setBoolean(row: number, value: boolean): void {
    this.ensure(row);
    this.codes[row] = value ? 1 : 0;
  }
  trimmed(length: number): Int32Array {
    return this.codes.length === length ? this.codes : this.codes.slice(0, length);
  }
}

type Sink = NumberColumn | CodeColumn;

/** Columns by field id, written row by row. */
class Columns {
  private readonly sinks = new Map<string, { def: FieldDef; sink: Sink }>();
  constructor(
    readonly defs: FieldDef[],
    private readonly capacity: number,
  ) {
    for (const def of defs) {
      this.sinks.set(def.id, {
        def,
        sink:
          def.type === 'numeric' || def.type === 'timestamp'
            ? new NumberColumn(capacity)
            : new CodeColumn(capacity),
      });
    }
  }

  /** The values written so far to a numeric column (row-indexed), or null. */
  numbers(id: string): Float64Array | null {
    const sink = this.sinks.get(id)?.sink;
    return sink instanceof NumberColumn ? sink.values : null;
  }

  /** Writes a JSON metadata value; a value of the wrong type counts as missing. */
  set(id: string, row: number, value: unknown): void {
    const entry = this.sinks.get(id);
    if (!entry || value === null || value === undefined) return;
    const { def, sink } = entry;
    if (sink instanceof NumberColumn) {
      if (typeof value === 'number' && Number.isFinite(value)) sink.set(row, value);
      else if (def.type === 'timestamp' && typeof value === 'string') {
        const ms = Date.parse(value);
        if (Number.isFinite(ms)) sink.set(row, ms);
      }
    } else if (def.type === 'boolean') {
      if (typeof value === 'boolean') sink.setBoolean(row, value);
    } else if (typeof value === 'string') sink.set(row, value);
  }

  /** Column inputs for `fromColumns`, permuted by `order` (new row → old row) when given. */
  inputs(length: number, order?: Uint32Array): Record<string, ColumnInput> {
    const out: Record<string, ColumnInput> = {};
    for (const { def, sink } of this.sinks.values()) {
      if (sink instanceof NumberColumn) {
        let values = sink.values;
        if (order) {
          const permuted = new Float64Array(length);
          for (let i = 0; i < length; i++) permuted[i] = values[order[i]!]!;
          values = permuted;
        } else if (values.length !== length) values = values.slice(0, length);
        out[def.id] = { type: def.type as 'numeric' | 'timestamp', values };
      } else {
        let codes = sink.codes;
        if (order) {
          const permuted = new Int32Array(length);
          for (let i = 0; i < length; i++) permuted[i] = codes[order[i]!]!;
          codes = permuted;
        } else codes = sink.trimmed(length);
        out[def.id] =
          def.type === 'boolean'
            ? { type: 'boolean', codes }
            : { type: 'string', codes, categories: sink.categories };
      }
    }
    return out;
  }
}

function parseJson(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function valuesRecord(text: string | null, names: string[]): Record<string, unknown> | null {
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (Array.isArray(parsed)) return Object.fromEntries(names.map((n, i) => [n, parsed[i]]));
  return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
}

// ---- field definitions

const builtin = (
  id: string,
  label: string,
  type: MetadataType,
  group: string,
  description: string,
): FieldDef => ({ id, name: id, label, description, group, source: 'builtin', type });
const predicted = (
  id: string,
  label: string,
  type: MetadataType,
  description: string,
): FieldDef => ({
  id,
  name: id,
  label,
  description,
  group: 'Prediction',
  source: 'prediction',
  type,
});

const isClassification = (task: TaskType) =>
  task === 'classification' || task === 'audio_classification';
const hasObjects = (task: TaskType) =>
  task === 'object_detection' || task === 'instance_segmentation';

/** Every field of a table, in the order the explorer lists them. */
export function fieldDefs(
  dataset: DatasetRecord,
  level: DataLevel,
  stored: MetadataFieldRecord[],
  withPredictions: boolean,
): FieldDef[] {
  const task = dataset.task_type;
  const valueNames = dataset.value_names;
  const defs: FieldDef[] = [
    builtin('card_index', 'Index', 'numeric', 'General', 'Position in upload order'),
    builtin('split', 'Split', 'string', 'General', 'Dataset split'),
  ];
  if (level === 'image_object') {
    defs.push(
      builtin('sample_id', 'Sample id', 'string', 'General', 'Id of the image the object is in'),
      builtin('object.label', 'Label', 'string', 'Object', 'Label of the object'),
      builtin(
        'object.type',
        'Object type',
        'string',
        'Object',
        "'gt' for ground truth, 'pred' for a predicted object",
      ),
    );
  } else if (isClassification(task)) {
    defs.push(builtin('label', 'Label', 'string', 'Label', 'Ground-truth label'));
  } else if (task === 'regression') {
    for (const name of valueNames)
      defs.push(builtin(regressionFieldId(name), name, 'numeric', 'Label', `Ground-truth ${name}`));
  }
  const taken = new Set(defs.map((d) => d.id));
  for (const row of stored) {
    if (taken.has(row.id)) continue;
    if (row.source !== 'uploaded' && row.source !== 'computed') continue;
    taken.add(row.id);
    defs.push({
      id: row.id,
      name: row.name,
      label: row.label,
      description: row.description,
      group: row.group_name,
      source: row.source,
      type: row.type,
    });
  }
  if (!withPredictions) return defs;
  if (level === 'image_object') {
    defs.push(
      predicted('prediction.score', 'Score', 'numeric', 'Confidence of a predicted object'),
      predicted(
        'prediction.is_matched',
        'Matched',
        'boolean',
        'A predicted object that matches a ground truth of its label at the IoU threshold, or a ground truth that such a prediction matches',
      ),
    );
  } else if (isClassification(task)) {
    defs.push(
      predicted('prediction.label', 'Predicted label', 'string', 'Label the model predicted'),
      predicted('prediction.score', 'Score', 'numeric', 'Confidence of the predicted label'),
      predicted(
        'prediction.is_correct',
        'Prediction is correct',
        'boolean',
        'Predicted label equals the ground-truth label',
      ),
    );
  } else if (task === 'regression') {
    for (const name of valueNames) {
      defs.push(
        predicted(`prediction.values.${name}`, `Predicted ${name}`, 'numeric', `Predicted ${name}`),
        predicted(
          `prediction.absolute_error.${name}`,
          `Absolute error of ${name}`,
          'numeric',
          `|predicted − ground truth| of ${name}`,
        ),
      );
    }
    defs.push(
      predicted(
        'prediction.absolute_error',
        'Absolute error',
        'numeric',
        'Mean absolute error over all values',
      ),
    );
  } else if (task === 'automatic_speech_recognition') {
    defs.push(
      predicted('prediction.wer', 'Word error rate', 'numeric', 'WER of the predicted transcript'),
    );
  } else if (hasObjects(task)) {
    defs.push(
      predicted(
        'prediction.object_count',
        'Predicted objects',
        'numeric',
        'Number of predicted objects in the image',
      ),
    );
  }
  return defs;
}

// ---- loading

export interface LoadInput {
  repo: ExploreRepository;
  dataset: DatasetRecord;
  level: DataLevel;
  stored: MetadataFieldRecord[];
  predictionsId: string | null;
}

function approximateBytes(table: ItemTable): number {
  let bytes = table.ids.length * 64;
  for (const column of table.columns.values())
    bytes +=
      'values' in column
        ? column.values.byteLength + 8 * column.values.length // and its sort index (ranks, order)
        : column.codes.byteLength;
  if (table.split) bytes += table.split.codes.byteLength;
  if (table.createdRecord) bytes += table.createdRecord.codes.byteLength;
  return bytes;
}

export async function loadItemTable(input: LoadInput): Promise<ExploreTable> {
  const defs = fieldDefs(input.dataset, input.level, input.stored, input.predictionsId !== null);
  const built =
    input.level === 'image_object'
      ? await loadObjects(input, defs)
      : await loadSamples(input, defs);
  const dataVersion = input.dataset.data_version;
  const table = fromColumns({ ...built, version: dataVersion >>> 0 });
  return { table, fields: defs, dataVersion, bytes: approximateBytes(table), stats: new Map() };
}

/**
 * Builds the sort index of every numeric and timestamp column after a table is loaded, one
 * column per turn of the event loop (≈ 0.2 s a column at a million rows), so requests keep
 * being answered in between. Sorts by a column whose index is not built yet still work, with
 * more radix passes (six instead of two at 1M rows). Answers when every index is built.
 */
export function prepareSortIndexesInBackground(table: ItemTable): Promise<void> {
  const pending = [...table.columns].filter(([, column]) => 'values' in column).map(([id]) => id);
  return new Promise((done) => {
    const next = (): void => {
      const id = pending.shift();
      if (id === undefined) return done();
      prepareSortIndex(table, id);
      setImmediate(next);
    };
    setImmediate(next);
  });
}

interface Built {
  ids: string[];
  columns: Record<string, ColumnInput>;
  split: { codes: Int32Array; categories: string[] };
  createdRecord: { codes: Int32Array; categories: string[] };
}

async function loadSamples(input: LoadInput, defs: FieldDef[]): Promise<Built> {
  const { repo, dataset } = input;
  const task = dataset.task_type;
  const valueNames = dataset.value_names;
  const capacity = dataset.samples_count + 16;
  const columns = new Columns(defs, capacity);
  const split = new CodeColumn(capacity);
  const created = new CodeColumn(capacity);
  const uploaded = defs.filter((d) => d.source === 'uploaded').map((d) => d.id);
  const computed = defs.filter((d) => d.source === 'computed').map((d) => d.id);
  const ids: string[] = [];
  const withPredictions = input.predictionsId !== null;
  const rowOf = withPredictions ? new Map<string, number>() : null;
  const labels: (string | null)[] = [];
  const transcripts: (string | null)[] = [];
  let after = -1;
  for (;;) {
    const page = await repo.samplesAfter(dataset.id, after, PAGE);
    for (const sample of page) {
      const row = ids.length;
      ids.push(sample.id);
      rowOf?.set(sample.id, row);
      columns.set('card_index', row, sample.seq);
      if (sample.split !== null) {
        split.set(row, sample.split);
        columns.set('split', row, sample.split);
      }
      if (sample.created_record_id !== null) created.set(row, sample.created_record_id);
      if (isClassification(task)) {
        columns.set('label', row, sample.label);
        if (withPredictions) labels[row] = sample.label;
      }
      if (task === 'automatic_speech_recognition' && withPredictions)
        transcripts[row] = sample.transcript;
      if (task === 'regression' && sample.values_json) {
        const values = valuesRecord(sample.values_json, valueNames);
        for (const name of valueNames) columns.set(regressionFieldId(name), row, values?.[name]);
      }
      if (uploaded.length > 0) {
        const metadata = parseJson(sample.metadata);
        if (metadata) for (const id of uploaded) columns.set(id, row, metadata[id]);
      }
      if (computed.length > 0) {
        const values = parseJson(sample.computed);
        if (values) for (const id of computed) columns.set(id, row, values[id]);
      }
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.seq;
  }
  const length = ids.length;
  const built = {
    ids,
    columns: {} as Record<string, ColumnInput>,
    split: { codes: split.trimmed(length), categories: split.categories },
    createdRecord: { codes: created.trimmed(length), categories: created.categories },
  };
  if (withPredictions && rowOf) {
    await loadPredictions(input, columns, rowOf, { labels, transcripts, valueNames, task });
  }
  built.columns = columns.inputs(length);
  return built;
}

async function loadPredictions(
  input: LoadInput,
  columns: Columns,
  rowOf: Map<string, number>,
  truth: {
    labels: (string | null)[];
    transcripts: (string | null)[];
    valueNames: string[];
    task: TaskType;
  },
): Promise<void> {
  const setId = input.predictionsId!;
  const { task, valueNames } = truth;
  if (hasObjects(task)) {
    const counts = new Map<number, number>();
    let after = '';
    for (;;) {
      const page = await input.repo.predictedObjectsAfter(setId, after, PAGE);
      for (const object of page) {
        const row = rowOf.get(object.sample_id);
        if (row !== undefined) counts.set(row, (counts.get(row) ?? 0) + 1);
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1]!.id;
    }
    // Every image with a prediction row counts, even with no predicted object.
    let afterSample = '';
    for (;;) {
      const page = await input.repo.predictionsAfter(setId, afterSample, PAGE);
      for (const p of page) {
        const row = rowOf.get(p.sample_id);
        if (row !== undefined) columns.set('prediction.object_count', row, counts.get(row) ?? 0);
      }
      if (page.length < PAGE) break;
      afterSample = page[page.length - 1]!.sample_id;
    }
    for (const [row, n] of counts) columns.set('prediction.object_count', row, n);
    return;
  }
  const truthValues =
    task === 'regression' ? valueNames.map((name) => columns.numbers(regressionFieldId(name))) : [];
  let after = '';
  for (;;) {
    const page = await input.repo.predictionsAfter(setId, after, PAGE);
    for (const p of page) {
      const row = rowOf.get(p.sample_id);
      if (row === undefined) continue;
      if (isClassification(task)) {
        columns.set('prediction.label', row, p.label);
        columns.set('prediction.score', row, p.score);
        const gt = truth.labels[row];
        if (gt !== null && gt !== undefined && p.label !== null)
          columns.set('prediction.is_correct', row, gt === p.label);
      } else if (task === 'regression') {
        const values = valuesRecord(p.values_json, valueNames);
        let sum = 0;
        let n = 0;
        valueNames.forEach((name, k) => {
          const predictedValue = values?.[name];
          if (typeof predictedValue !== 'number') return;
          columns.set(`prediction.values.${name}`, row, predictedValue);
          const gt = truthValues[k]?.[row];
          if (gt === undefined || Number.isNaN(gt)) return;
          const error = Math.abs(predictedValue - gt);
          columns.set(`prediction.absolute_error.${name}`, row, error);
          sum += error;
          n++;
        });
        if (n > 0) columns.set('prediction.absolute_error', row, sum / n);
      } else if (task === 'automatic_speech_recognition') {
        const reference = truth.transcripts[row];
        if (reference !== null && reference !== undefined && p.transcript !== null)
          columns.set('prediction.wer', row, wordErrors(reference, p.transcript).wer);
      }
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.sample_id;
  }
}

/** Growable per-object scratch data, kept in arrival (id) order until the final permutation. */
interface ObjectScratch {
  ids: string[];
  sampleRow: Int32Array;
  isPred: Uint8Array;
  box: Float64Array; // x, y, w, h per object; NaN when the object has no box
  labels: string[];
  score: Float64Array;
}

function growScratch(s: ObjectScratch, needed: number): void {
  if (needed <= s.sampleRow.length) return;
  const size = Math.max(needed, s.sampleRow.length * 2);
  const sampleRow = new Int32Array(size);
  sampleRow.set(s.sampleRow);
  const isPred = new Uint8Array(size);
  isPred.set(s.isPred);
  const box = new Float64Array(size * 4).fill(NaN);
  box.set(s.box);
  const score = new Float64Array(size).fill(NaN);
  score.set(s.score);
  Object.assign(s, { sampleRow, isPred, box, score });
}

async function loadObjects(input: LoadInput, defs: FieldDef[]): Promise<Built> {
  const { repo, dataset } = input;
  // Samples first: their upload order orders the objects, and objects take their split.
  const rowOf = new Map<string, number>();
  const sampleIds: string[] = [];
  const sampleSplit = new CodeColumn(dataset.samples_count + 16);
  const sampleCreated = new CodeColumn(dataset.samples_count + 16);
  let afterSeq = -1;
  for (;;) {
    const page = await repo.sampleKeysAfter(dataset.id, afterSeq, PAGE * 5);
    for (const sample of page) {
      const row = sampleIds.length;
      sampleIds.push(sample.id);
      rowOf.set(sample.id, row);
      if (sample.split !== null) sampleSplit.set(row, sample.split);
      if (sample.created_record_id !== null) sampleCreated.set(row, sample.created_record_id);
    }
    if (page.length < PAGE * 5) break;
    afterSeq = page[page.length - 1]!.seq;
  }

  const capacity = dataset.objects_count + 16;
  const columns = new Columns(defs, capacity);
  const computed = defs.filter((d) => d.source === 'computed').map((d) => d.id);
  const s: ObjectScratch = {
    ids: [],
    labels: [],
    sampleRow: new Int32Array(0),
    isPred: new Uint8Array(0),
    box: new Float64Array(0),
    score: new Float64Array(0),
  };
  growScratch(s, capacity);
  const add = (
    id: string,
    sampleId: string,
    label: string,
    box: [number | null, number | null, number | null, number | null],
    pred: boolean,
    score: number | null,
  ): number => {
    const sampleRow = rowOf.get(sampleId);
    if (sampleRow === undefined) return -1; // an object of a deleted sample
    const k = s.ids.length;
    growScratch(s, k + 1);
    s.ids.push(id);
    s.labels.push(label);
    s.sampleRow[k] = sampleRow;
    s.isPred[k] = pred ? 1 : 0;
    if (box.every((v) => v !== null)) for (let c = 0; c < 4; c++) s.box[k * 4 + c] = box[c]!;
    if (score !== null) s.score[k] = score;
    return k;
  };
  let after = '';
  for (;;) {
    const page = await repo.objectsAfter(dataset.id, after, PAGE);
    for (const object of page) {
      const k = add(
        object.id,
        object.sample_id,
        object.label,
        [object.x, object.y, object.w, object.h],
        false,
        null,
      );
      if (k < 0 || computed.length === 0) continue;
      const values = parseJson(object.computed);
      if (values) for (const id of computed) columns.set(id, k, values[id]);
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.id;
  }
  if (input.predictionsId !== null) {
    after = '';
    for (;;) {
      const page = await repo.predictedObjectsAfter(input.predictionsId, after, PAGE);
      for (const object of page) {
        add(
          PREDICTED_OBJECT_PREFIX + object.id,
          object.sample_id,
          object.label,
          [object.x, object.y, object.w, object.h],
          true,
          object.score,
        );
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1]!.id;
    }
  }

  // Order: by sample upload order, ground truths before predictions, then by id (a stable
  // counting sort over the id-ordered arrival).
  const n = s.ids.length;
  const keys = sampleIds.length * 2;
  const starts = new Uint32Array(keys + 1);
  for (let k = 0; k < n; k++) starts[s.sampleRow[k]! * 2 + s.isPred[k]! + 1]!++;
  for (let key = 0; key < keys; key++) starts[key + 1]! += starts[key]!;
  const order = new Uint32Array(n);
  const next = starts.slice(0, keys);
  for (let k = 0; k < n; k++) order[next[s.sampleRow[k]! * 2 + s.isPred[k]!]!++] = k;

  if (input.predictionsId !== null)
    matchPerSample(s, order, starts, sampleIds.length, columns, input);

  const ids = new Array<string>(n);
  const split = new Int32Array(n);
  const created = new Int32Array(n);
  const sampleCodes = new Int32Array(n);
  for (let row = 0; row < n; row++) {
    const k = order[row]!;
    ids[row] = s.ids[k]!;
    const sampleRow = s.sampleRow[k]!;
    split[row] = sampleSplit.codes[sampleRow]!;
    created[row] = sampleCreated.codes[sampleRow]!;
    sampleCodes[row] = sampleRow;
  }
  // Built-in columns are written in final row order, after the permutation of the rest.
  const inputs = columns.inputs(n, order);
  const labelCodes = new Int32Array(n);
  const labelIndex = new Map<string, number>();
  const labelCategories: string[] = [];
  const typeCodes = new Int32Array(n);
  const cardIndex = new Float64Array(n);
  for (let row = 0; row < n; row++) {
    const k = order[row]!;
    const label = s.labels[k]!;
    let code = labelIndex.get(label);
    if (code === undefined) {
      code = labelCategories.length;
      labelCategories.push(label);
      labelIndex.set(label, code);
    }
    labelCodes[row] = code;
    typeCodes[row] = s.isPred[k]!;
    cardIndex[row] = row;
  }
  inputs['card_index'] = { type: 'numeric', values: cardIndex };
  inputs['split'] = { type: 'string', codes: split, categories: sampleSplit.categories };
  inputs['sample_id'] = { type: 'string', codes: sampleCodes, categories: sampleIds };
  inputs['object.label'] = { type: 'string', codes: labelCodes, categories: labelCategories };
  inputs['object.type'] = { type: 'string', codes: typeCodes, categories: ['gt', 'pred'] };
  if (input.predictionsId !== null) {
    const score = new Float64Array(n);
    for (let row = 0; row < n; row++) score[row] = s.score[order[row]!]!;
    inputs['prediction.score'] = { type: 'numeric', values: score };
  }
  return {
    ids,
    columns: inputs,
    split: { codes: split, categories: sampleSplit.categories },
    createdRecord: { codes: created, categories: sampleCreated.categories },
  };
}

/** Marks matched ground truths and predictions per image at the dataset's IoU threshold. */
function matchPerSample(
  s: ObjectScratch,
  order: Uint32Array,
  starts: Uint32Array,
  numSamples: number,
  columns: Columns,
  input: LoadInput,
): void {
  const threshold = input.dataset.iou_threshold;
  const box = (k: number): MatchableObject | null =>
    Number.isNaN(s.box[k * 4]!)
      ? null
      : { label: s.labels[k]!, box: s.box.subarray(k * 4, k * 4 + 4), score: s.score[k]! };
  for (let sample = 0; sample < numSamples; sample++) {
    const gtStart = starts[sample * 2]!;
    const predStart = starts[sample * 2 + 1]!;
    const end = starts[sample * 2 + 2]!;
    if (predStart === gtStart && end === predStart) continue;
    const gts: { k: number; object: MatchableObject }[] = [];
    const preds: { k: number; object: MatchableObject }[] = [];
    for (let i = gtStart; i < end; i++) {
      const k = order[i]!;
      const object = box(k);
      if (object) (i < predStart ? gts : preds).push({ k, object });
      // An object without a box cannot match; when there are predictions it is unmatched.
      else columns.set('prediction.is_matched', k, false);
    }
    const matching = matchObjects(
      gts.map((g) => g.object),
      preds.map((p) => p.object),
      { iouThreshold: threshold },
    );
    matching.groundTruths.forEach((m, i) =>
      columns.set('prediction.is_matched', gts[i]!.k, m.status === 'TP'),
    );
    matching.predictions.forEach((m, i) =>
      columns.set('prediction.is_matched', preds[i]!.k, m.status === 'TP'),
    );
  }
}

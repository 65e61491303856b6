// Loads the explorer's item table of one dataset, data level and prediction set from the
// database: pages of rows in upload order go straight into typed columns (no per-row objects
// kept), so a million samples or millions of objects fit in a few hundred MB.
import { fromColumns, prepareSortIndex, type ColumnInput, type ItemTable } from '@loupe/analysis';
import { matchObjects, wordErrors, type MatchableObject } from '@loupe/metrics';
import { TASK_TRAITS, type DataLevel, type TaskType } from '@loupe/contracts';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import type { MetadataFieldRecord } from '../datasets/metadata-fields.repository.js';
import type { NumericValues } from '../samples/samples.repository.js';
import type { ExploreRepository } from './explore.repository.js';
import { CodeColumn, Columns } from './item-table-columns.js';
import {
  fieldDefs,
  PREDICTED_OBJECT_PREFIX,
  regressionFieldId,
  type FieldDef,
} from './field-catalogue.js';

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

const PAGE = 10_000;

/** Regression values by name (stored by name, or in the dataset's value order). */
function valuesRecord(
  values: NumericValues | null,
  names: string[],
): Record<string, unknown> | null {
  if (Array.isArray(values)) return Object.fromEntries(names.map((n, i) => [n, values[i]]));
  return values;
}

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
  const { label } = TASK_TRAITS[task];
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
    const page = await repo.samplesAfter(dataset.id, after, PAGE, {
      values: label === 'value',
      metadata: uploaded.length > 0,
      computed: computed.length > 0,
    });
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
      if (label === 'class') {
        columns.set('label', row, sample.label);
        if (withPredictions) labels[row] = sample.label;
      }
      if (label === 'transcript' && withPredictions) transcripts[row] = sample.transcript;
      if (label === 'value' && sample.values) {
        const values = valuesRecord(sample.values, valueNames);
        for (const name of valueNames) columns.set(regressionFieldId(name), row, values?.[name]);
      }
      if (uploaded.length > 0) {
        const metadata = sample.metadata;
        if (metadata) for (const id of uploaded) columns.set(id, row, metadata[id]);
      }
      if (computed.length > 0) {
        const values = sample.computed;
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
  const { valueNames } = truth;
  const { hasObjects, label } = TASK_TRAITS[truth.task];
  if (hasObjects) {
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
    label === 'value' ? valueNames.map((name) => columns.numbers(regressionFieldId(name))) : [];
  let after = '';
  for (;;) {
    const page = await input.repo.predictionsAfter(setId, after, PAGE, {
      values: label === 'value',
    });
    for (const p of page) {
      const row = rowOf.get(p.sample_id);
      if (row === undefined) continue;
      if (label === 'class') {
        columns.set('prediction.label', row, p.label);
        columns.set('prediction.score', row, p.score);
        const gt = truth.labels[row];
        if (gt !== null && gt !== undefined && p.label !== null)
          columns.set('prediction.is_correct', row, gt === p.label);
      } else if (label === 'value') {
        const values = valuesRecord(p.values, valueNames);
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
      } else if (label === 'transcript') {
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
    const page = await repo.objectsAfter(dataset.id, after, PAGE, {
      computed: computed.length > 0,
    });
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
      const values = object.computed;
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

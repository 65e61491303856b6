// Loads the explorer's item table of one dataset, data level and prediction set from the
// database: pages of rows in upload order go straight into typed columns (no per-row objects
// kept), so a million samples or millions of objects fit in a few hundred MB.
import {
  fromColumns,
  prepareSortIndex,
  verifySortIndex,
  type ColumnInput,
  type ItemTable,
  type NumericColumn,
} from '@loupe/analysis';
import { wordErrors } from '@loupe/metrics';
import { TASK_TRAITS, type DataLevel, type TaskType } from '@loupe/contracts';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import type { MetadataFieldRecord } from '../datasets/metadata-fields.repository.js';
import { maskScores } from '../processing/mask-confusion.js';
import type { NumericValues } from '../samples/samples.repository.js';
import type { ExploreRepository } from './explore.repository.js';
import { CodeColumn, Columns } from './item-table-columns.js';
import {
  ImageObjectsBuilder,
  imageObjectsBytes,
  MATCH_STATUS,
  matchAllImages,
  type Box,
  type ImageObjects,
} from './image-matching.js';
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
  /**
   * With a prediction set of an object task: the objects of every image, which label edits
   * re-match (item-table-patch.ts). At object level in the table's row order.
   */
  objects?: ImageObjects;
  /**
   * What the table's columns were made from besides its rows (table-snapshots.ts): a snapshot
   * file of it is read back only while this stays the same. Patches keep it.
   */
  fingerprint?: string;
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

/** Approximate bytes a table holds (with its sort indexes), for the cache's memory budget. */
export function exploreTableBytes(table: ItemTable, objects: ImageObjects | undefined): number {
  let bytes = table.ids.length * 64;
  for (const column of table.columns.values())
    bytes +=
      'values' in column
        ? column.values.byteLength + 8 * column.values.length // and its sort index (ranks, order)
        : column.codes.byteLength;
  if (table.split) bytes += table.split.codes.byteLength;
  if (table.createdRecord) bytes += table.createdRecord.codes.byteLength;
  // At object level the objects' ids are the table's, counted with it.
  if (objects) bytes += imageObjectsBytes(objects, objects.ids !== table.ids);
  return bytes;
}

export async function loadItemTable(input: LoadInput): Promise<ExploreTable> {
  const defs = fieldDefs(input.dataset, input.level, input.stored, input.predictionsId !== null);
  const built =
    input.level === 'image_object'
      ? await loadObjects(input, defs)
      : await loadSamples(input, defs);
  const dataVersion = input.dataset.data_version;
  const { objects, ...columns } = built;
  const table = fromColumns({ ...columns, version: dataVersion >>> 0 });
  const bytes = exploreTableBytes(table, objects);
  return {
    table,
    fields: defs,
    dataVersion,
    bytes,
    stats: new Map(),
    ...(objects ? { objects } : {}),
  };
}

/**
 * Builds the sort index of every numeric and timestamp column after a table is loaded, one
 * column per turn of the event loop (≈ 0.2 s a column at a million rows), so requests keep
 * being answered in between. Sorts by a column whose index is not built yet still work, with
 * more radix passes (six instead of two at 1M rows). An index read back from a file
 * (table-snapshots.ts) is checked instead, in the same turns (≈ 0.02-0.05 s a column), and
 * built again if it does not order its column. Answers when every index is ready.
 */
export function prepareSortIndexesInBackground(
  table: ItemTable,
  refused: (metadataId: string) => void = () => undefined,
): Promise<void> {
  const pending = [...table.columns].filter(
    (entry): entry is [string, NumericColumn] => 'values' in entry[1],
  );
  return new Promise((done) => {
    const next = (): void => {
      const entry = pending.shift();
      if (entry === undefined) return done();
      const [id, column] = entry;
      if (!verifySortIndex(column)) refused(id);
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
  objects?: ImageObjects;
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
  const objects =
    withPredictions && rowOf
      ? await loadPredictions(input, columns, rowOf, { labels, transcripts, valueNames, task })
      : undefined;
  return {
    ids,
    columns: columns.inputs(length),
    split: { codes: split.trimmed(length), categories: split.categories },
    createdRecord: { codes: created.trimmed(length), categories: created.categories },
    ...(objects ? { objects } : {}),
  };
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
): Promise<ImageObjects | undefined> {
  const setId = input.predictionsId!;
  const { valueNames } = truth;
  const { hasObjects, label } = TASK_TRAITS[truth.task];
  if (hasObjects) {
    const builder = new ImageObjectsBuilder(rowOf.size, input.dataset.objects_count + 16);
    await collectObjects(input, rowOf, builder);
    const { objects } = builder.build(input.dataset.iou_threshold);
    const { starts } = objects;
    // Every image: one the set has no prediction for counts its ground truths as missed.
    const matches = matchAllImages(objects);
    for (let row = 0; row < rowOf.size; row++) {
      columns.set('prediction.tp', row, matches.tp[row]);
      columns.set('prediction.fp', row, matches.fp[row]);
      columns.set('prediction.fn', row, matches.fn[row]);
      const predicted = starts[row * 2 + 2]! - starts[row * 2 + 1]!;
      if (predicted > 0) columns.set('prediction.object_count', row, predicted);
    }
    // Every image with a prediction row counts, even with no predicted object.
    let afterSample = '';
    for (;;) {
      const page = await input.repo.predictionsAfter(setId, afterSample, PAGE);
      for (const p of page) {
        const row = rowOf.get(p.sample_id);
        if (row !== undefined)
          columns.set('prediction.object_count', row, starts[row * 2 + 2]! - starts[row * 2 + 1]!);
      }
      if (page.length < PAGE) break;
      afterSample = page[page.length - 1]!.sample_id;
    }
    return objects;
  }
  const truthValues =
    label === 'value' ? valueNames.map((name) => columns.numbers(regressionFieldId(name))) : [];
  let after = '';
  for (;;) {
    const page = await input.repo.predictionsAfter(setId, after, PAGE, {
      values: label === 'value',
      maskStats: label === 'mask',
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
        let squares = 0;
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
          squares += error * error;
          n++;
        });
        if (n > 0) {
          columns.set('prediction.absolute_error', row, sum / n);
          columns.set('prediction.squared_error', row, squares / n);
        }
      } else if (label === 'transcript') {
        const reference = truth.transcripts[row];
        if (reference !== null && reference !== undefined && p.transcript !== null) {
          const errors = wordErrors(reference, p.transcript);
          columns.set('prediction.wer', row, errors.wer);
          columns.set('prediction.mer', row, errors.mer);
          columns.set('prediction.wil', row, errors.wil);
          columns.set('prediction.word_hits', row, errors.hits);
          columns.set('prediction.word_substitutions', row, errors.substitutions);
          columns.set('prediction.word_deletions', row, errors.deletions);
          columns.set('prediction.word_insertions', row, errors.insertions);
        }
      } else if (label === 'mask' && p.mask_stats) {
        const scores = maskScores(p.mask_stats);
        columns.set('prediction.iou', row, scores.iou);
        columns.set('prediction.pixel_accuracy', row, scores.pixel_accuracy);
      }
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.sample_id;
  }
  return undefined;
}

/**
 * Adds the live ground-truth objects of the table's images (`rowOf`: sample id → image), then
 * the prediction set's objects when there is one. `computed`, when given, gets each ground
 * truth's computed metadata with its builder index (the metadata is read only then).
 */
async function collectObjects(
  input: LoadInput,
  rowOf: Map<string, number>,
  builder: ImageObjectsBuilder,
  computed?: (k: number, values: Record<string, unknown>) => void,
): Promise<void> {
  let after = '';
  for (;;) {
    const page = await input.repo.objectsAfter(input.dataset.id, after, PAGE, {
      computed: computed !== undefined,
    });
    for (const object of page) {
      const image = rowOf.get(object.sample_id);
      if (image === undefined) continue; // an object of a deleted sample
      const box: Box = [object.x, object.y, object.w, object.h];
      const k = builder.add(object.id, image, object.label, box, false, null);
      if (computed && object.computed) computed(k, object.computed);
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.id;
  }
  if (input.predictionsId === null) return;
  after = '';
  for (;;) {
    const page = await input.repo.predictedObjectsAfter(input.predictionsId, after, PAGE);
    for (const object of page) {
      const image = rowOf.get(object.sample_id);
      if (image === undefined) continue;
      const box: Box = [object.x, object.y, object.w, object.h];
      builder.add(
        PREDICTED_OBJECT_PREFIX + object.id,
        image,
        object.label,
        box,
        true,
        object.score,
      );
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.id;
  }
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
  const builder = new ImageObjectsBuilder(sampleIds.length, capacity);
  await collectObjects(
    input,
    rowOf,
    builder,
    computed.length > 0
      ? (k, values) => {
          for (const id of computed) columns.set(id, k, values[id]);
        }
      : undefined,
  );
  // Rows: by sample upload order, ground truths before predictions, then by id.
  const { objects, order } = builder.build(dataset.iou_threshold);
  const n = objects.ids.length;
  const split = new Int32Array(n);
  const created = new Int32Array(n);
  const cardIndex = new Float64Array(n);
  for (let row = 0; row < n; row++) {
    const sampleRow = objects.image[row]!;
    split[row] = sampleSplit.codes[sampleRow]!;
    created[row] = sampleCreated.codes[sampleRow]!;
    cardIndex[row] = row;
  }
  // Built-in columns are in row order already; the metadata columns follow the permutation.
  const inputs = columns.inputs(n, order);
  inputs['card_index'] = { type: 'numeric', values: cardIndex };
  inputs['split'] = { type: 'string', codes: split, categories: sampleSplit.categories };
  inputs['sample_id'] = { type: 'string', codes: objects.image, categories: sampleIds };
  inputs['object.label'] = {
    type: 'string',
    codes: objects.label,
    categories: [...objects.labels],
  };
  inputs['object.type'] = {
    type: 'string',
    codes: Int32Array.from(objects.isPred),
    categories: ['gt', 'pred'],
  };
  if (input.predictionsId !== null) {
    const matches = matchAllImages(objects);
    inputs['prediction.score'] = { type: 'numeric', values: objects.score };
    inputs['prediction.match_status'] = {
      type: 'string',
      codes: Int32Array.from(matches.status),
      categories: [...MATCH_STATUS],
    };
    inputs['prediction.iou'] = { type: 'numeric', values: matches.iou };
    inputs['prediction.is_matched'] = {
      type: 'boolean',
      codes: Int32Array.from(matches.status, (code) => (MATCH_STATUS[code] === 'TP' ? 1 : 0)),
    };
  }
  return {
    ids: objects.ids as string[],
    columns: inputs,
    split: { codes: split, categories: sampleSplit.categories },
    createdRecord: { codes: created, categories: sampleCreated.categories },
    ...(input.predictionsId !== null ? { objects } : {}),
  };
}

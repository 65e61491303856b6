// A slice is a set of items of one data level (a metadata bin, a selection, a subset), as indexes
// into a prediction set's evaluation data: samples at the sample level, ground-truth and predicted
// objects at the object level. Here slices are made from item ids or explorer rows (ids are looked
// up on the main thread, a turn of the event loop apart), and cut by split, counted and measured
// (on the performance thread: compute.ts).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ALL_SPLITS, type DataLevel } from '@loupe/contracts';
import type { ItemTable } from '@loupe/analysis';
import { objectMatches, sliceMetrics } from '@loupe/metrics';
import type { Evaluation } from './evaluation-loader.js';
import type { EvaluationData } from './evaluation-wire.js';
import { countMetrics, sliceCounts } from './object-matches.js';
import { PREDICTED_OBJECT_PREFIX } from '../explore/field-catalogue.js';

export type Slice =
  | { level: 'sample'; samples: Uint32Array }
  | { level: 'object'; gt: Uint32Array; pred: Uint32Array };

export function isObjectLevel(level: DataLevel): boolean {
  return level === 'image_object';
}

/** Item ids looked up between two turns of the event loop. */
const LOOKUPS_PER_TURN = 20_000;

/** Runs `step(i)` for i in [0, n), a turn of the event loop every LOOKUPS_PER_TURN steps. */
async function inTurns(n: number, step: (i: number) => void): Promise<void> {
  for (let start = 0; start < n; start += LOOKUPS_PER_TURN) {
    if (start > 0) await nextTurn();
    const end = Math.min(n, start + LOOKUPS_PER_TURN);
    for (let i = start; i < end; i++) step(i);
  }
}

const sampleIndexes = new WeakMap<Evaluation, Promise<Map<string, number>>>();

/** Each sample id's index, built when a slice first needs it (a report needs none). */
function sampleIndex(evaluation: Evaluation): Promise<Map<string, number>> {
  let index = sampleIndexes.get(evaluation);
  if (!index) {
    index = (async () => {
      const ids = evaluation.sampleIds;
      const map = new Map<string, number>();
      await inTurns(ids.length, (i) => map.set(ids[i]!, i));
      return map;
    })();
    sampleIndexes.set(evaluation, index);
  }
  return index;
}

const objectIndexes = new WeakMap<
  Evaluation,
  Promise<{ gt: Map<string, number>; pred: Map<string, number> }>
>();

function objectIndex(evaluation: Evaluation) {
  let index = objectIndexes.get(evaluation);
  if (!index) {
    index = (async () => {
      const gt = new Map<string, number>();
      const pred = new Map<string, number>();
      const ids = evaluation.objects ?? { gtIds: [], predIds: [] };
      await inTurns(ids.gtIds.length, (k) => gt.set(ids.gtIds[k]!, k));
      await inTurns(ids.predIds.length, (k) => pred.set(ids.predIds[k]!, k));
      return { gt, pred };
    })();
    objectIndexes.set(evaluation, index);
  }
  return index;
}

/**
 * The evaluation index of each item id of a level (unknown ids left out): a sample index, or at
 * the object level a ground truth's index (≥ 0) or a prediction's as −2 − index.
 */
async function indexOfId(
  evaluation: Evaluation,
  level: DataLevel,
): Promise<(id: string) => number | undefined> {
  if (!isObjectLevel(level)) {
    const samples = await sampleIndex(evaluation);
    return (id) => samples.get(id);
  }
  const { gt, pred } = await objectIndex(evaluation);
  return (id) => {
    if (id.startsWith(PREDICTED_OBJECT_PREFIX)) {
      const k = pred.get(id.slice(PREDICTED_OBJECT_PREFIX.length));
      return k === undefined ? undefined : -2 - k;
    }
    return gt.get(id);
  };
}

function sliceOfIndexes(level: DataLevel, indexes: ArrayLike<number>): Slice {
  if (!isObjectLevel(level)) return { level: 'sample', samples: Uint32Array.from(indexes) };
  let gts = 0;
  for (let i = 0; i < indexes.length; i++) if (indexes[i]! >= 0) gts++;
  const gt = new Uint32Array(gts);
  const pred = new Uint32Array(indexes.length - gts);
  for (let i = 0, g = 0, p = 0; i < indexes.length; i++) {
    const k = indexes[i]!;
    if (k >= 0) gt[g++] = k;
    else pred[p++] = -2 - k;
  }
  return { level: 'object', gt, pred };
}

/** The slice of these item ids (ids the evaluation does not know are left out). */
export async function sliceOfIds(
  evaluation: Evaluation,
  level: DataLevel,
  ids: readonly string[],
): Promise<Slice> {
  const of = await indexOfId(evaluation, level);
  const indexes: number[] = [];
  await inTurns(ids.length, (i) => {
    const k = of(ids[i]!);
    if (k !== undefined) indexes.push(k);
  });
  return sliceOfIndexes(level, indexes);
}

const tableMaps = new WeakMap<ItemTable, { evaluation: Evaluation; map: Promise<Int32Array> }>();

/**
 * Each row of an explorer table of the level as an evaluation index (as indexOfId gives it;
 * −1: an item the evaluation lacks), in shared memory for the performance thread; built a few
 * turns of the event loop apart, once per table and evaluation.
 */
export function rowMap(
  evaluation: Evaluation,
  level: DataLevel,
  table: ItemTable,
): Promise<Int32Array> {
  const cached = tableMaps.get(table);
  if (cached && cached.evaluation === evaluation) return cached.map;
  const map = (async () => {
    const of = await indexOfId(evaluation, level);
    const out = new Int32Array(new SharedArrayBuffer(4 * table.length));
    await inTurns(table.length, (row) => (out[row] = of(table.ids[row]!) ?? -1));
    return out;
  })();
  tableMaps.set(table, { evaluation, map });
  return map;
}

/** The slice of these rows of an explorer table, given the table's rowMap. */
export function sliceOfRows(level: DataLevel, map: Int32Array, rows: ArrayLike<number>): Slice {
  let known = 0;
  for (let i = 0; i < rows.length; i++) if (map[rows[i]!]! !== -1) known++;
  const indexes = new Int32Array(known);
  for (let i = 0, j = 0; i < rows.length; i++) {
    const k = map[rows[i]!]!;
    if (k !== -1) indexes[j++] = k;
  }
  return sliceOfIndexes(level, indexes);
}

/** The split of a sample, or of an object's image. */
function imageOf(evaluation: EvaluationData, side: 'gt' | 'pred'): Int32Array {
  const data = evaluation.data;
  if (data.kind !== 'objects') return new Int32Array(0);
  return side === 'gt' ? data.gt.image : data.pred.image;
}

/** The part of a slice in one split ('all' keeps it whole). */
export function inSplit(evaluation: EvaluationData, slice: Slice, split: string): Slice {
  if (split === ALL_SPLITS) return slice;
  const code = evaluation.splitNames.indexOf(split);
  const keep = (indexes: Uint32Array, image?: Int32Array) =>
    indexes.filter((k) => evaluation.splitOf[image ? image[k]! : k] === code);
  if (slice.level === 'sample') return { level: 'sample', samples: keep(slice.samples) };
  return {
    level: 'object',
    gt: keep(slice.gt, imageOf(evaluation, 'gt')),
    pred: keep(slice.pred, imageOf(evaluation, 'pred')),
  };
}

/** Items of a slice. */
export function sliceSize(slice: Slice): number {
  return slice.level === 'sample' ? slice.samples.length : slice.gt.length + slice.pred.length;
}

/**
 * Items of a slice with a prediction: samples the set predicted; ground truths of an image the
 * set predicted, and every predicted object.
 */
export function sliceUsed(evaluation: EvaluationData, slice: Slice): number {
  const has = evaluation.hasPrediction;
  let used = 0;
  if (slice.level === 'sample') {
    for (const k of slice.samples) used += has[k]!;
    return used;
  }
  const image = imageOf(evaluation, 'gt');
  for (const k of slice.gt) used += has[image[k]!]!;
  return used + slice.pred.length;
}

/** The slice's metrics: the task's at the sample level, match counts at the object level. */
export function measureSlice(
  evaluation: EvaluationData,
  slice: Slice,
  metricIds: readonly string[],
  iouThreshold: number,
): Record<string, number | null> {
  if (slice.level === 'sample')
    return sliceMetrics(evaluation.task, evaluation.data, slice.samples, metricIds, {
      iouThreshold,
    });
  if (evaluation.data.kind !== 'objects' || sliceSize(slice) === 0)
    return Object.fromEntries(metricIds.map((id) => [id, null]));
  const matches = objectMatches(evaluation.data, iouThreshold);
  return countMetrics(sliceCounts(matches, slice.gt, slice.pred), metricIds);
}

// Cached item tables brought up to date after a label or split edit without a rebuild
// (docs/curation.md): the edited columns, and what the explorer derives from them, are written
// into a new snapshot that shares every other column with the old one.
import {
  assignCoded,
  emptyBitset,
  rowsOfIds,
  withColumns,
  type Bitset,
  type CategoricalColumn,
  type CodedColumn,
  type Column,
  type NumericColumn,
} from '@loupe/analysis';
import {
  MATCH_STATUS,
  matchImage,
  relabelObjects,
  type ImageCounts,
  type ImageObjects,
} from './image-matching.js';
import type { ExploreTable } from './item-table-loader.js';

/** Samples that take one value: their ids and upload positions (seq, the card_index). */
export interface SampleGroup {
  ids: readonly string[];
  seqs: readonly number[];
}

/** Edits committed in one transaction that changed values but no rows, by new value. */
export interface ItemEdits {
  sampleLabels: ReadonlyMap<string, SampleGroup>;
  sampleSplits: ReadonlyMap<string, SampleGroup>;
  objectLabels: ReadonlyMap<string, readonly string[]>;
}

/** Fields a patched table has new values for (their cached statistics go). */
const PATCHED_FIELDS = [
  'label',
  'split',
  'object.label',
  'prediction.is_correct',
  'prediction.is_matched',
  'prediction.match_status',
  'prediction.iou',
  'prediction.tp',
  'prediction.fp',
  'prediction.fn',
];

/**
 * How to patch a table of a data level after the edits. Every label and split edit patches
 * exactly: object label edits re-match the images they touch (the match status and IoU of
 * their objects at object level, their TP/FP/FN counts at image level).
 */
export function tablePatch(
  level: string,
  edits: ItemEdits,
  toVersion: number,
): (explore: ExploreTable) => ExploreTable {
  const objectLevel = level === 'image_object';
  return (explore) =>
    objectLevel
      ? patchObjectTable(explore, edits, toVersion)
      : patchSampleTable(explore, edits, toVersion);
}

function assignments(
  explore: ExploreTable,
  groups: ReadonlyMap<string, readonly string[]>,
): { value: string; rows: Bitset }[] {
  return [...groups].map(([value, ids]) => ({ value, rows: rowsOfIds(explore.table, ids) }));
}

/**
 * The rows of edited samples. A sample table's rows are in upload order, so each sample's row is
 * found by a binary search of its seq in card_index: no id → row map of a million entries to
 * build for each table.
 */
function sampleAssignments(
  explore: ExploreTable,
  groups: ReadonlyMap<string, SampleGroup>,
): { value: string; rows: Bitset }[] {
  const { table } = explore;
  const index = table.columns.get('card_index');
  if (!index || !('values' in index))
    return [...groups].map(([value, group]) => ({ value, rows: rowsOfIds(table, group.ids) }));
  const seqs = index.values;
  return [...groups].map(([value, group]) => {
    const rows = emptyBitset(table.length);
    for (const seq of group.seqs) {
      let lo = 0;
      let hi = table.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const at = seqs[mid]!;
        if (at === seq) {
          rows[mid >>> 5]! |= 1 << (mid & 31);
          break;
        }
        if (at < seq) lo = mid + 1;
        else hi = mid - 1;
      }
    }
    return { value, rows };
  });
}

function patchSampleTable(explore: ExploreTable, edits: ItemEdits, toVersion: number) {
  const { table } = explore;
  const columns = new Map<string, Column>();
  let split: CodedColumn | undefined;
  const label = table.columns.get('label') as CategoricalColumn | undefined;
  if (edits.sampleLabels.size > 0 && label) {
    const labels = sampleAssignments(explore, edits.sampleLabels);
    columns.set('label', assignCoded(label, labels));
    const correct = table.columns.get('prediction.is_correct') as CategoricalColumn | undefined;
    const predicted = table.columns.get('prediction.label') as CategoricalColumn | undefined;
    if (correct && predicted)
      columns.set('prediction.is_correct', isCorrect(correct, predicted, labels));
  }
  if (edits.sampleSplits.size > 0)
    split = patchSplit(explore, columns, sampleAssignments(explore, edits.sampleSplits));
  // Image tables of object tasks: object labels change the counts of their images.
  const matched = rematch(explore, edits);
  if (matched) {
    const counts = (['tp', 'fp', 'fn'] as const).map((kind) => {
      const id = `prediction.${kind}`;
      const values = (table.columns.get(id) as NumericColumn).values.slice();
      matched.images.forEach((image, i) => (values[image] = matched.counts[i]![kind]));
      return [id, values] as const;
    });
    for (const [id, values] of counts) columns.set(id, { type: 'numeric', values });
  }
  return snapshot(explore, columns, split, toVersion, matched?.objects);
}

/** Images re-matched after object label edits. */
interface Rematched {
  /** The objects with their new labels. */
  objects: ImageObjects;
  /** The images whose objects were relabelled, ascending, and their new counts. */
  images: number[];
  counts: ImageCounts[];
  /** Status code and IoU of the objects of those images (indexed like the objects). */
  status: Uint8Array;
  iou: Float64Array;
}

/** Re-matches the images whose objects the edits relabel; null when the table has no matching. */
function rematch(explore: ExploreTable, edits: ItemEdits): Rematched | null {
  if (!explore.objects || edits.objectLabels.size === 0) return null;
  const { objects, images } = relabelObjects(explore.objects, edits.objectLabels);
  const n = objects.ids.length;
  const status = new Uint8Array(n);
  const iou = new Float64Array(n);
  const counts = images.map((image) => matchImage(objects, image, status, iou));
  return { objects, images, counts, status, iou };
}

/**
 * prediction.is_correct of the relabelled rows: the predicted label equals the new label; rows
 * without a predicted label stay without a value, as the loader leaves them.
 */
function isCorrect(
  correct: CategoricalColumn,
  predicted: CategoricalColumn,
  labels: { value: string; rows: Bitset }[],
): CategoricalColumn {
  const codes = correct.codes.slice();
  for (const { value, rows } of labels) {
    for (let w = 0; w < rows.length; w++) {
      let word = rows[w]!;
      const base = w << 5;
      while (word !== 0) {
        const low = word & -word;
        const row = base + 31 - Math.clz32(low);
        word ^= low;
        const p = predicted.codes[row]!;
        if (p >= 0) codes[row] = predicted.categories[p] === value ? 1 : 0;
      }
    }
  }
  return { ...correct, codes };
}

function patchObjectTable(explore: ExploreTable, edits: ItemEdits, toVersion: number) {
  const { table } = explore;
  const columns = new Map<string, Column>();
  let split: CodedColumn | undefined;
  const label = table.columns.get('object.label') as CategoricalColumn | undefined;
  if (edits.objectLabels.size > 0 && label)
    columns.set('object.label', assignCoded(label, assignments(explore, edits.objectLabels)));
  // With a prediction set: the relabelled images' objects take their new status and IoU.
  const matched = rematch(explore, edits);
  if (matched) {
    const status = table.columns.get('prediction.match_status') as CategoricalColumn;
    const isMatched = table.columns.get('prediction.is_matched') as CategoricalColumn;
    const iou = (table.columns.get('prediction.iou') as NumericColumn).values.slice();
    const matchedCodes = isMatched.codes.slice();
    const byStatus = MATCH_STATUS.map(() => emptyBitset(table.length));
    const { starts } = matched.objects;
    for (const image of matched.images) {
      // At object level the objects are the table's rows.
      for (let row = starts[image * 2]!; row < starts[image * 2 + 2]!; row++) {
        const code = matched.status[row]!;
        byStatus[code]![row >>> 5]! |= 1 << (row & 31);
        matchedCodes[row] = MATCH_STATUS[code] === 'TP' ? 1 : 0;
        iou[row] = matched.iou[row]!;
      }
    }
    const assigned = MATCH_STATUS.map((value, code) => ({ value, rows: byStatus[code]! }));
    columns.set('prediction.match_status', assignCoded(status, assigned));
    columns.set('prediction.is_matched', { ...isMatched, codes: matchedCodes });
    columns.set('prediction.iou', { type: 'numeric', values: iou });
  }
  const samples = table.columns.get('sample_id') as CategoricalColumn | undefined;
  if (edits.sampleSplits.size > 0 && samples) {
    // Objects take their sample's split: find each edited sample's code in the (sorted) sample
    // dictionary, then give every object row of those samples the new split.
    const target = new Int32Array(samples.categories.length).fill(-1);
    const groups = [...edits.sampleSplits];
    groups.forEach(([, { ids }], g) => {
      for (const id of ids) {
        const code = codeOf(samples.categories, id);
        if (code >= 0) target[code] = g;
      }
    });
    const rows = groups.map(() => emptyBitset(table.length));
    for (let row = 0; row < table.length; row++) {
      const code = samples.codes[row]!;
      const g = code < 0 ? -1 : target[code]!;
      if (g >= 0) rows[g]![row >>> 5]! |= 1 << (row & 31);
    }
    split = patchSplit(
      explore,
      columns,
      groups.map(([value], g) => ({ value, rows: rows[g]! })),
    );
  }
  return snapshot(explore, columns, split, toVersion, matched?.objects);
}

/** The split field's column and the table's split (what histograms count by) alike. */
function patchSplit(
  explore: ExploreTable,
  columns: Map<string, Column>,
  splits: { value: string; rows: Bitset }[],
): CodedColumn | undefined {
  const { table } = explore;
  const field = table.columns.get('split') as CategoricalColumn | undefined;
  if (field) columns.set('split', assignCoded(field, splits));
  return table.split ? assignCoded(table.split, splits) : undefined;
}

function codeOf(categories: readonly string[], value: string): number {
  let lo = 0;
  let hi = categories.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = categories[mid]!;
    if (c === value) return mid;
    if (c < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function snapshot(
  explore: ExploreTable,
  columns: Map<string, Column>,
  split: CodedColumn | undefined,
  toVersion: number,
  objects: ImageObjects | undefined,
): ExploreTable {
  const table = withColumns(explore.table, {
    version: toVersion >>> 0,
    columns,
    ...(split ? { split } : {}),
  });
  const stats = new Map(explore.stats);
  for (const id of PATCHED_FIELDS) stats.delete(id);
  return { ...explore, table, dataVersion: toVersion, stats, ...(objects ? { objects } : {}) };
}

import { fromColumns, sortRows } from '@loupe/analysis';
import type { DataLevel, TaskType } from '@loupe/contracts';
import { describe, expect, it } from 'vitest';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import type { ExploreRepository } from './explore.repository.js';
import {
  loadItemTable,
  prepareSortIndexesInBackground,
  type ExploreTable,
} from './item-table-loader.js';
import { tablePatch } from './item-table-patch.js';

describe('prepareSortIndexesInBackground', () => {
  const table = fromColumns({
    ids: ['a', 'b', 'c', 'd', 'e'],
    columns: {
      score: { type: 'numeric', values: [0.5, -1.25, null, 0.5, 3] },
      at: { type: 'timestamp', values: [30, 10, 20, null, 10] },
      label: { type: 'string', values: ['x', 'y', 'x', null, 'y'] },
    },
  });
  const all = Uint32Array.from([0, 1, 2, 3, 4]);
  const order = (name: string, direction: 'ascending' | 'descending') =>
    Array.from(sortRows(table, all, [{ name, direction }]), (row) => table.ids[row]);

  it('builds the indexes in later turns of the event loop and sorts as before', async () => {
    const before = ['score', 'at'].flatMap((name) => [
      order(name, 'ascending'),
      order(name, 'descending'),
    ]);
    // A request arriving meanwhile is answered between two columns' builds.
    let answered = false;
    const ready = prepareSortIndexesInBackground(table);
    setImmediate(() => (answered = true));
    await ready;
    expect(answered).toBe(true);
    const after = ['score', 'at'].flatMap((name) => [
      order(name, 'ascending'),
      order(name, 'descending'),
    ]);
    expect(after).toEqual(before);
    // Missing values last in both directions; ties in upload order.
    expect(after[0]).toEqual(['b', 'a', 'd', 'e', 'c']);
    expect(after[1]).toEqual(['e', 'a', 'd', 'b', 'c']);
    expect(after[2]).toEqual(['b', 'e', 'c', 'a', 'd']);
  });
});

type Box = [number, number, number, number] | null;
interface FakeSample {
  id: string;
  split?: string;
  transcript?: string;
  values?: Record<string, number>;
}
interface FakeObject {
  id: string;
  sample_id: string;
  label: string;
  box: Box;
  score?: number;
}
interface FakeData {
  task: TaskType;
  valueNames?: string[];
  samples: FakeSample[];
  objects?: FakeObject[];
  /** The prediction set 'set': predictions by sample id and predicted objects. */
  predictions: Record<string, { transcript?: string; values?: Record<string, number> }>;
  predictedObjects?: FakeObject[];
}

/** The explorer repository's paging over data held in memory (ids compare as in SQLite). */
function fakeRepository(data: FakeData): ExploreRepository {
  const page = <T>(rows: T[], after: (row: T) => boolean, limit: number) =>
    rows.filter(after).slice(0, limit);
  const byId = <T extends { id: string }>(rows: T[]) =>
    [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
  const samples = data.samples.map((s, seq) => ({
    id: s.id,
    seq,
    split: s.split ?? null,
    label: null,
    values: s.values ?? null,
    transcript: s.transcript ?? null,
    metadata: null,
    computed: null,
    created_record_id: null,
  }));
  const box = (o: FakeObject) => ({
    x: o.box?.[0] ?? null,
    y: o.box?.[1] ?? null,
    w: o.box?.[2] ?? null,
    h: o.box?.[3] ?? null,
  });
  const objects = byId(data.objects ?? []).map((o) => ({
    id: o.id,
    sample_id: o.sample_id,
    label: o.label,
    ...box(o),
    computed: null,
  }));
  const predictedObjects = byId(data.predictedObjects ?? []).map((o) => ({
    id: o.id,
    sample_id: o.sample_id,
    label: o.label,
    score: o.score ?? null,
    ...box(o),
  }));
  const predictions = Object.entries(data.predictions)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([sample_id, p]) => ({
      sample_id,
      label: null,
      score: null,
      values: p.values ?? null,
      transcript: p.transcript ?? null,
    }));
  const repository = {
    samplesAfter: async (_: string, after: number, limit: number) =>
      page(samples, (s) => s.seq > after, limit),
    sampleKeysAfter: async (_: string, after: number, limit: number) =>
      page(samples, (s) => s.seq > after, limit),
    objectsAfter: async (_: string, after: string, limit: number) =>
      page(objects, (o) => o.id > after, limit),
    predictedObjectsAfter: async (_: string, after: string, limit: number) =>
      page(predictedObjects, (o) => o.id > after, limit),
    predictionsAfter: async (_: string, after: string, limit: number) =>
      page(predictions, (p) => p.sample_id > after, limit),
  };
  return repository as unknown as ExploreRepository;
}

function load(data: FakeData, level: DataLevel, withPredictions = true): Promise<ExploreTable> {
  const dataset = {
    id: 'd',
    task_type: data.task,
    class_names: [],
    value_names: data.valueNames ?? [],
    iou_threshold: 0.5,
    samples_count: data.samples.length,
    objects_count: data.objects?.length ?? 0,
    data_version: 1,
  } as unknown as DatasetRecord;
  return loadItemTable({
    repo: fakeRepository(data),
    dataset,
    level,
    stored: [],
    predictionsId: withPredictions ? 'set' : null,
  });
}

/** A column's values by item id (null: missing). */
function valuesOf(explore: ExploreTable, id: string): Record<string, unknown> {
  const column = explore.table.columns.get(id)!;
  return Object.fromEntries(
    explore.table.ids.map((item, row) => {
      if ('values' in column) {
        const v = column.values[row]!;
        return [item, Number.isNaN(v) ? null : Math.round(v * 1000) / 1000];
      }
      const code = column.codes[row]!;
      return [item, code < 0 ? null : column.categories[code]];
    }),
  );
}

/**
 * Images A..D (the example of image-matching.test.ts, through the loader):
 *   A: ground truths g1 cat [0, 0, 10, 10], g2 dog [20, 0, 10, 10], g3 cat [50, 50, 10, 10],
 *      g4 cat without box; predictions p1 cat 0.9 [0, 0, 10, 5] (IoU 0.5 with g1: a match),
 *      p2 cat 0.8 [2, 0, 10, 10] (2/3 with g1, taken), p3 dog 0.7 [25, 0, 10, 10] (1/3 with g2).
 *   B: b1 dog [0, 0, 10, 10]; a prediction without objects.
 *   C: c1 cat [0, 0, 10, 10]; no prediction at all.
 *   D: d1 cat [0, 0, 10, 10]; predicted pd1 cat without score on the same box.
 */
const detection = (relabel: Record<string, string> = {}): FakeData => {
  const gt = (id: string, sample_id: string, label: string, box: Box): FakeObject => ({
    id,
    sample_id,
    label: relabel[id] ?? label,
    box,
  });
  return {
    task: 'object_detection',
    samples: [{ id: 'A' }, { id: 'B' }, { id: 'C' }, { id: 'D' }],
    objects: [
      gt('A#g1', 'A', 'cat', [0, 0, 10, 10]),
      gt('A#g2', 'A', 'dog', [20, 0, 10, 10]),
      gt('A#g3', 'A', 'cat', [50, 50, 10, 10]),
      gt('A#g4', 'A', 'cat', null),
      gt('B#b1', 'B', 'dog', [0, 0, 10, 10]),
      gt('C#c1', 'C', 'cat', [0, 0, 10, 10]),
      gt('D#d1', 'D', 'cat', [0, 0, 10, 10]),
    ],
    predictions: { A: {}, B: {}, D: {} },
    predictedObjects: [
      { id: 'A#p1', sample_id: 'A', label: 'cat', score: 0.9, box: [0, 0, 10, 5] },
      { id: 'A#p2', sample_id: 'A', label: 'cat', score: 0.8, box: [2, 0, 10, 10] },
      { id: 'A#p3', sample_id: 'A', label: 'dog', score: 0.7, box: [25, 0, 10, 10] },
      { id: 'D#pd1', sample_id: 'D', label: 'cat', box: [0, 0, 10, 10] },
    ],
  };
};

/** Every column of a table, by field, with values by item id. */
const everything = (explore: ExploreTable) =>
  Object.fromEntries([...explore.table.columns.keys()].map((id) => [id, valuesOf(explore, id)]));

describe('loadItemTable with a prediction set', () => {
  it('gives objects their match status and IoU at the dataset threshold', async () => {
    const objects = await load(detection(), 'image_object');
    expect(objects.table.ids).toEqual([
      'A#g1',
      'A#g2',
      'A#g3',
      'A#g4',
      'pred:A#p1',
      'pred:A#p2',
      'pred:A#p3',
      'B#b1',
      'C#c1',
      'D#d1',
      'pred:D#pd1',
    ]);
    expect(valuesOf(objects, 'prediction.match_status')).toEqual({
      'A#g1': 'TP',
      'A#g2': 'FN',
      'A#g3': 'FN',
      'A#g4': 'FN',
      'pred:A#p1': 'TP',
      'pred:A#p2': 'FP',
      'pred:A#p3': 'FP',
      'B#b1': 'FN',
      'C#c1': 'FN',
      'D#d1': 'TP',
      'pred:D#pd1': 'TP',
    });
    expect(valuesOf(objects, 'prediction.iou')).toEqual({
      'A#g1': 0.5,
      'A#g2': 0.333,
      'A#g3': 0,
      'A#g4': null,
      'pred:A#p1': 0.5,
      'pred:A#p2': 0.667,
      'pred:A#p3': 0.333,
      'B#b1': null,
      'C#c1': null,
      'D#d1': 1,
      'pred:D#pd1': 1,
    });
    const matched = valuesOf(objects, 'prediction.is_matched');
    expect(Object.keys(matched).filter((id) => matched[id] === 'true')).toEqual([
      'A#g1',
      'pred:A#p1',
      'D#d1',
      'pred:D#pd1',
    ]);
    expect(valuesOf(objects, 'prediction.score')).toMatchObject({
      'A#g1': null,
      'pred:A#p2': 0.8,
      'pred:D#pd1': null,
    });
    expect(valuesOf(objects, 'object.type')['pred:A#p3']).toBe('pred');
    expect(valuesOf(objects, 'sample_id')['pred:A#p3']).toBe('A');
    expect(valuesOf(objects, 'object.label')['pred:A#p3']).toBe('dog');
    // Without a prediction set: the ground truths only, and no matching.
    const plain = await load(detection(), 'image_object', false);
    expect(plain.table.ids).toEqual(['A#g1', 'A#g2', 'A#g3', 'A#g4', 'B#b1', 'C#c1', 'D#d1']);
    expect(plain.table.columns.has('prediction.iou')).toBe(false);
    expect(plain.objects).toBeUndefined();
  });

  it('counts TP, FP and FN per image (an image without prediction misses its objects)', async () => {
    const images = await load(detection(), 'image');
    expect(images.table.ids).toEqual(['A', 'B', 'C', 'D']);
    expect(valuesOf(images, 'prediction.tp')).toEqual({ A: 1, B: 0, C: 0, D: 1 });
    expect(valuesOf(images, 'prediction.fp')).toEqual({ A: 2, B: 0, C: 0, D: 0 });
    expect(valuesOf(images, 'prediction.fn')).toEqual({ A: 3, B: 1, C: 1, D: 0 });
    expect(valuesOf(images, 'prediction.object_count')).toEqual({ A: 3, B: 0, C: null, D: 1 });
  });

  it('re-matches the relabelled images on a patch, as a rebuild would', async () => {
    // g1 becomes a dog: p1 and p2 (cats) meet only g3 (no overlap), p3 meets g1 not at all and
    // g2 by 1/3: image A has TP 0, FP 3, FN 4. b1 becomes a cat: image B stays FN 1.
    const edits = {
      sampleLabels: new Map(),
      sampleSplits: new Map(),
      objectLabels: new Map([
        ['dog', ['A#g1']],
        ['cat', ['B#b1']],
      ]),
    };
    const relabelled = detection({ 'A#g1': 'dog', 'B#b1': 'cat' });
    for (const level of ['image_object', 'image'] as const) {
      const before = await load(detection(), level);
      const after = tablePatch(level, edits, 2)(before);
      const rebuilt = await load(relabelled, level);
      expect(everything(after)).toEqual(everything(rebuilt));
      expect(after.objects!.labels[after.objects!.label[0]!]).toBe('dog');
      // The snapshot before the edit keeps its values.
      expect(
        valuesOf(before, level === 'image' ? 'prediction.tp' : 'prediction.match_status'),
      ).toMatchObject(level === 'image' ? { A: 1 } : { 'A#g1': 'TP' });
    }
    const objects = tablePatch('image_object', edits, 2)(await load(detection(), 'image_object'));
    expect(valuesOf(objects, 'prediction.match_status')).toMatchObject({
      'A#g1': 'FN',
      'pred:A#p1': 'FP',
      'pred:A#p2': 'FP',
      'pred:A#p3': 'FP',
      'B#b1': 'FN',
      'D#d1': 'TP',
    });
    expect(valuesOf(objects, 'prediction.iou')).toMatchObject({
      'A#g1': 0,
      'A#g2': 0.333,
      'pred:A#p1': 0,
      'pred:A#p2': 0,
      'pred:A#p3': 0.333,
    });
    expect(valuesOf(objects, 'prediction.is_matched')['pred:A#p1']).toBe('false');
    const images = tablePatch('image', edits, 2)(await load(detection(), 'image'));
    expect(valuesOf(images, 'prediction.tp')).toEqual({ A: 0, B: 0, C: 0, D: 1 });
    expect(valuesOf(images, 'prediction.fp')).toEqual({ A: 3, B: 0, C: 0, D: 0 });
    expect(valuesOf(images, 'prediction.fn')).toEqual({ A: 4, B: 1, C: 1, D: 0 });
  });

  it('computes squared errors for regression', async () => {
    // r1: errors 2 and 10 → squares 4 and 100, mean 52; r2: 0 and 10 → 50; r3: no prediction.
    const table = await load(
      {
        task: 'regression',
        valueNames: ['age', 'height'],
        samples: [
          { id: 'r1', values: { age: 10, height: 100 } },
          { id: 'r2', values: { age: 20, height: 150 } },
          { id: 'r3', values: { age: 30, height: 170 } },
        ],
        predictions: {
          r1: { values: { age: 12, height: 90 } },
          r2: { values: { age: 20, height: 160 } },
        },
      },
      'image',
    );
    expect(valuesOf(table, 'prediction.squared_error')).toEqual({ r1: 52, r2: 50, r3: null });
    expect(valuesOf(table, 'prediction.absolute_error')).toEqual({ r1: 6, r2: 5, r3: null });
  });

  it('computes word measures for speech recognition', async () => {
    // t1: 'hello big world' → 'hello small world again': 2 hits, 1 substitution, 1 insertion;
    //   WER 2/3, MER 2/4, WIP (2/3)(2/4) = 1/3 so WIL 2/3.
    // t2: 'one two three' → 'one three': 2 hits, 1 deletion; WER 1/3, MER 1/3, WIP 2/3, WIL 1/3.
    const table = await load(
      {
        task: 'automatic_speech_recognition',
        samples: [
          { id: 't1', transcript: 'hello big world' },
          { id: 't2', transcript: 'one two three' },
          { id: 't3', transcript: 'unheard' },
        ],
        predictions: {
          t1: { transcript: 'hello small world again' },
          t2: { transcript: 'one three' },
        },
      },
      'audio',
    );
    const field = (id: string) => valuesOf(table, `prediction.${id}`);
    expect(field('wer')).toEqual({ t1: 0.667, t2: 0.333, t3: null });
    expect(field('mer')).toEqual({ t1: 0.5, t2: 0.333, t3: null });
    expect(field('wil')).toEqual({ t1: 0.667, t2: 0.333, t3: null });
    expect(field('word_hits')).toEqual({ t1: 2, t2: 2, t3: null });
    expect(field('word_substitutions')).toEqual({ t1: 1, t2: 0, t3: null });
    expect(field('word_deletions')).toEqual({ t1: 0, t2: 1, t3: null });
    expect(field('word_insertions')).toEqual({ t1: 1, t2: 0, t3: null });
  });
});

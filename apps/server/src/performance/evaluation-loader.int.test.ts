// The evaluation loader on a real database, read in pages of two rows so that every page boundary
// is crossed: what it loads is what was uploaded, aligned by upload order, with deleted samples
// and objects left out and samples without a prediction flagged, whatever the page size.
import { api } from '@loupe/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetsRepository } from '../datasets/datasets.repository.js';
import { createDatasetWithModel, uploadMedia } from '../testing/datasets.js';
import { testImage } from '../testing/media.js';
import { startLicensedApp, type Client, type TestApp } from '../testing/test-app.js';
import { EvaluationCache } from './evaluation-cache.js';
import { loadEvaluation, loadEvaluationPair, type Evaluation } from './evaluation-loader.js';
import { PerformanceRepository } from './performance.repository.js';
import { ClassPredictionsCache } from './prediction-columns.js';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterAll(() => t.close());

type Params = { id: string; predictionSetId: string };

/** The evaluation read in pages of `pageSize` rows. */
async function load(params: Params, pageSize?: number): Promise<Evaluation> {
  const repo = new PerformanceRepository(t.database.db, t.database.dialect, pageSize);
  const dataset = (await new DatasetsRepository(t.database.db, t.database.dialect).find(
    params.id,
  ))!;
  return loadEvaluation(
    { repo, readMedia: () => Promise.reject(new Error('no media')) },
    dataset,
    params.predictionSetId,
  );
}

/** Loads in pages of two and in one page; both must be the same. */
async function loadBoth(params: Params): Promise<Evaluation> {
  const paged = await load(params, 2);
  expect(paged).toEqual(await load(params));
  return paged;
}

/** A second prediction set of the dataset with these predictions. */
async function secondModel(id: string, predictions: unknown[]): Promise<string> {
  const set = await admin.call(api.predictionSets.create, { params: { id }, body: { name: 'b' } });
  await admin.call(api.predictionSets.uploadPredictions, {
    params: { id, predictionSetId: set.id },
    body: { predictions: predictions as never },
  });
  return set.id;
}

/** Both sets loaded together, in pages of two and in one page, are each set loaded alone. */
async function expectPairAsEach(id: string, a: string, b: string): Promise<void> {
  const dataset = (await new DatasetsRepository(t.database.db, t.database.dialect).find(id))!;
  const alone = [await load({ id, predictionSetId: a }), await load({ id, predictionSetId: b })];
  for (const pageSize of [2, undefined]) {
    const repo = new PerformanceRepository(t.database.db, t.database.dialect, pageSize);
    const pair = await loadEvaluationPair(
      { repo, readMedia: () => Promise.reject(new Error('no media')) },
      dataset,
      [a, b],
    );
    expect(pair).toEqual(alone);
  }
}

const deleteItems = (id: string, itemIds: string[]) =>
  admin.call(api.curation.applyActions, {
    body: { actions: [{ type: 'delete_items', dataset_id: id, item_ids: itemIds }] },
  });

describe('loadEvaluation', () => {
  it('aligns labels, scores and probabilities by upload order, across pages', async () => {
    // id, split, label, prediction (null: none), score, probabilities
    const rows: [string, string | null, string, string | null, number, unknown][] = [
      ['z', 'val', 'cat', 'cat', 0.9, [0.9, 0.075, 0.025]],
      ['a', 'train', 'dog', 'cat', 0.6, null],
      ['m', null, 'cat', null, 0, null],
      ['b', 'train', 'fox', 'dog', 0.7, { dog: 0.7, cat: 0.2, fox: 0.1 }],
      ['x', 'val', 'dog', 'dog', 0.8, null],
      ['c', 'train', 'cat', null, 0, null],
      ['d', 'val', 'dog', 'fox', 0.4, null],
    ];
    const params = await createDatasetWithModel(
      admin,
      {
        name: `pets ${Math.random()}`,
        task_type: 'classification',
        class_names: ['cat', 'dog', 'fox'],
      },
      rows.map(([id, split, label]) => ({ id, label, ...(split ? { split } : {}) })),
      {
        predictions: rows
          .filter((r) => r[3] !== null)
          .map(([id, , , label, score, probabilities]) => ({
            id,
            label: label!,
            score,
            ...(probabilities ? { probabilities } : {}),
          })) as never,
      },
    );
    await deleteItems(params.id, ['x']);
    const evaluation = await loadBoth(params);

    const live = rows.filter((r) => r[0] !== 'x');
    expect(evaluation.sampleIds).toEqual(live.map((r) => r[0]));
    expect(evaluation.splitNames).toEqual(['train', 'val']);
    expect([...evaluation.splitOf]).toEqual(
      live.map((r) => (r[1] === null ? -1 : ['train', 'val'].indexOf(r[1]))),
    );
    expect([...evaluation.hasPrediction]).toEqual(live.map((r) => (r[3] === null ? 0 : 1)));
    expect(evaluation.numMissing).toBe(2);
    const data = evaluation.data;
    if (data.kind !== 'class') throw new Error(data.kind);
    expect(data.classes).toEqual(['cat', 'dog', 'fox']);
    expect([...data.truth]).toEqual(live.map((r) => data.classes.indexOf(r[2])));
    expect([...data.pred]).toEqual(
      live.map((r) => (r[3] === null ? -1 : data.classes.indexOf(r[3]))),
    );
    expect([...data.score]).toEqual(live.map((r) => (r[3] === null ? NaN : r[4])));
    // By position or by name; rows without any stay NaN.
    expect([...data.probabilities!]).toEqual(
      [
        [0.9, 0.075, 0.025],
        [NaN, NaN, NaN],
        [NaN, NaN, NaN],
        [0.2, 0.7, 0.1],
        [NaN, NaN, NaN],
        [NaN, NaN, NaN],
      ]
        .flat()
        .map((v) => Math.fround(v)),
    );
  });

  it("keeps a set's class predictions across data versions, and reads them again after an upload", async () => {
    const params = await createDatasetWithModel(
      admin,
      {
        name: `pets ${Math.random()}`,
        task_type: 'classification',
        class_names: ['cat', 'dog', 'fox'],
      },
      [
        { id: 'q', label: 'cat', split: 'train' },
        { id: 'b', label: 'dog', split: 'val' },
        { id: 'k', label: 'fox' },
        { id: 'a', label: 'cat', split: 'val' },
      ],
      {
        predictions: [
          { id: 'q', label: 'cat', score: 0.9, probabilities: [0.9, 0.05, 0.05] },
          { id: 'b', label: 'fox', score: 0.5, probabilities: { fox: 0.5, dog: 0.4, cat: 0.1 } },
          { id: 'a', label: 'dog' },
        ] as never,
      },
    );
    const { id, predictionSetId } = params;
    const datasets = new DatasetsRepository(t.database.db, t.database.dialect);
    const repo = new PerformanceRepository(t.database.db, t.database.dialect, 2);
    const kept = new ClassPredictionsCache(repo);
    const source = {
      repo,
      readMedia: () => Promise.reject(new Error('no media')),
      classPredictions: kept,
    };
    /** Loaded with the kept predictions, it is what a load reading everything gives. */
    const expectAsFresh = async () => {
      const evaluation = await loadEvaluation(source, (await datasets.find(id))!, predictionSetId);
      expect(evaluation).toEqual(await load(params));
      return evaluation;
    };
    // First read while b is deleted: its prediction is kept all the same.
    const deleted = await deleteItems(id, ['b']);
    expect((await expectAsFresh()).sampleIds).toEqual(['q', 'k', 'a']);
    const [first] = await kept.get([predictionSetId]);
    expect([...first!.seq]).toHaveLength(3);

    // New data versions: a restore (b's prediction comes back with it), new samples. The set's
    // predictions are not read again.
    await admin.call(api.curation.restore, {
      params: { id, recordId: deleted.results[0]!.history_record_id! },
    });
    const restored = await expectAsFresh();
    expect(restored.hasPrediction[restored.sampleIds.indexOf('b')]).toBe(1);
    await admin.call(api.samples.upload, {
      params: { id },
      body: {
        samples: [
          { id: 'c', label: 'fox' },
          { id: 'd', label: 'dog', split: 'train' },
        ],
      },
    });
    expect((await expectAsFresh()).sampleIds).toEqual(['q', 'b', 'k', 'a', 'c', 'd']);
    expect((await kept.get([predictionSetId]))[0]).toBe(first);

    // An upload of predictions raises the set's version: its predictions are read again.
    await admin.call(api.predictionSets.uploadPredictions, {
      params,
      body: {
        predictions: [
          { id: 'c', label: 'fox', score: 0.7 },
          { id: 'k', label: 'cat' },
        ] as never,
      },
    });
    const after = await expectAsFresh();
    expect((await kept.get([predictionSetId]))[0]).not.toBe(first);
    const data = after.data;
    if (data.kind !== 'class') throw new Error(data.kind);
    expect(after.sampleIds.map((_, i) => data.classes[data.pred[i]!] ?? null)).toEqual([
      'cat',
      'fox',
      'cat',
      'dog',
      'fox',
      null,
    ]);
  });

  it('reads regression values by name or position, and transcripts', async () => {
    const values = await createDatasetWithModel(
      admin,
      { name: `ages ${Math.random()}`, task_type: 'regression', value_names: ['age', 'height'] },
      [
        { id: 'a', values: { age: 3, height: 1.25 } },
        { id: 'b', values: [5, 1.5] },
        { id: 'c', values: { height: 1, age: 7 } },
      ] as never,
      {
        predictions: [
          { id: 'c', values: [6.5, 1.1] },
          { id: 'a', values: { height: 1.2, age: 2.5 } },
        ] as never,
      },
    );
    const regression = (await loadBoth(values)).data;
    if (regression.kind !== 'value') throw new Error(regression.kind);
    expect([...regression.truth]).toEqual([3, 1.25, 5, 1.5, 7, 1]);
    expect([...regression.pred]).toEqual([2.5, 1.2, NaN, NaN, 6.5, 1.1]);

    const speech = await createDatasetWithModel(
      admin,
      { name: `speech ${Math.random()}`, task_type: 'automatic_speech_recognition' },
      [
        { id: 'u2', transcript: 'hello world' },
        { id: 'u1', transcript: 'good morning' },
        { id: 'u3', transcript: 'bye' },
      ] as never,
      {
        predictions: [
          { id: 'u3', transcript: 'by' },
          { id: 'u2', transcript: 'hello word' },
        ] as never,
      },
    );
    const transcripts = await loadBoth(speech);
    expect(transcripts.sampleIds).toEqual(['u2', 'u1', 'u3']);
    expect(transcripts.data).toEqual({
      kind: 'transcript',
      reference: ['hello world', 'good morning', 'bye'],
      hypothesis: ['hello word', null, 'by'],
    });
  });

  it('reads the live objects of live samples in id order, with their image and size', async () => {
    const { id } = await admin.call(api.datasets.create, {
      body: {
        name: `boxes ${Math.random()}`,
        task_type: 'object_detection',
        class_names: ['cat', 'dog'],
      },
    });
    const key = await uploadMedia(
      admin,
      id,
      (await testImage(1, 'png', 100, 50)).bytes,
      'image/png',
    );
    const truth: Record<string, [string, number[]][]> = {
      s2: [
        ['dog', [10, 10, 20, 20]],
        ['cat', [0, 0, 5, 5]],
      ],
      s1: [['cat', [1, 2, 3, 4]]],
      s3: [
        ['dog', [30, 10, 10, 10]],
        ['dog', [50, 20, 10, 10]],
      ],
      s4: [['cat', [0, 0, 50, 50]]],
    };
    await admin.call(api.samples.upload, {
      params: { id },
      body: {
        samples: Object.entries(truth).map(([s, objects]) => ({
          id: s,
          image: key,
          objects: objects.map(([label, bbox], k) => ({ id: `o${k}`, label, bbox })),
        })),
      },
    });
    const set = await admin.call(api.predictionSets.create, {
      params: { id },
      body: { name: 'm' },
    });
    const predicted: Record<string, [string, number[], number][]> = {
      s3: [
        ['dog', [31, 10, 10, 10], 0.9],
        ['cat', [0, 0, 9, 9], 0.3],
      ],
      s1: [['cat', [1, 2, 3, 5], 0.8]],
      s4: [['dog', [0, 0, 40, 40], 0.5]],
    };
    const params = { id, predictionSetId: set.id };
    await admin.call(api.predictionSets.uploadPredictions, {
      params,
      body: {
        predictions: Object.entries(predicted).map(([s, objects]) => ({
          id: s,
          objects: objects.map(([label, bbox, score], k) => ({ id: `p${k}`, label, bbox, score })),
        })),
      },
    });
    await t.runner.drain(); // image sizes come from the computed metadata
    const before = await load(params);
    // One ground-truth object of s3 goes, and the whole of s4.
    const gone = before.objects!.gtIds.find((o) => o.startsWith('s3') && o.endsWith('o1'))!;
    await deleteItems(id, [gone]);
    await deleteItems(id, ['s4']);
    const evaluation = await loadBoth(params);

    expect(evaluation.sampleIds).toEqual(['s2', 's1', 's3']);
    expect([...evaluation.hasPrediction]).toEqual([0, 1, 1]);
    const data = evaluation.data;
    if (data.kind !== 'objects') throw new Error(data.kind);
    expect([...data.imageSize]).toEqual([50, 100, 50, 100, 50, 100]);
    // In id order: the objects of s1, then s2, then s3.
    const gt = [
      [1, 'cat', [1, 2, 3, 4]],
      [0, 'dog', [10, 10, 20, 20]],
      [0, 'cat', [0, 0, 5, 5]],
      [2, 'dog', [30, 10, 10, 10]],
    ] as const;
    expect(evaluation.objects!.gtIds).toHaveLength(gt.length);
    expect([...data.gt.image]).toEqual(gt.map((o) => o[0]));
    expect([...data.gt.label]).toEqual(gt.map((o) => data.classes.indexOf(o[1])));
    expect([...data.gt.box]).toEqual(gt.flatMap((o) => o[2]));
    expect([...data.gt.iscrowd]).toEqual([0, 0, 0, 0]);
    const pred = [
      [1, 'cat', [1, 2, 3, 5], 0.8],
      [2, 'dog', [31, 10, 10, 10], 0.9],
      [2, 'cat', [0, 0, 9, 9], 0.3],
    ] as const;
    expect(evaluation.objects!.predIds).toHaveLength(pred.length);
    expect([...data.pred.image]).toEqual(pred.map((o) => o[0]));
    expect([...data.pred.label]).toEqual(pred.map((o) => data.classes.indexOf(o[1])));
    expect([...data.pred.box]).toEqual(pred.flatMap((o) => o[2]));
    expect([...data.pred.score]).toEqual(pred.map((o) => o[3]));
  });

  it('loads two sets together as it loads each alone', async () => {
    const pets = await createDatasetWithModel(
      admin,
      {
        name: `pets ${Math.random()}`,
        task_type: 'classification',
        class_names: ['cat', 'dog', 'emu', 'fox'],
      },
      [
        { id: 'z', label: 'cat', split: 'val' },
        { id: 'a', label: 'dog' },
        { id: 'm', label: 'emu', split: 'train' },
        { id: 'b', label: 'cat', split: 'train' },
        { id: 'c', label: 'dog', split: 'val' },
      ],
      {
        predictions: [
          { id: 'z', label: 'cat', score: 0.9, probabilities: [0.9, 0.1, 0, 0] },
          { id: 'a', label: 'cat', score: 0.6 },
          { id: 'c', label: 'dog', score: 0.7 },
        ] as never,
      },
    );
    // B predicts other labels and other samples (with probabilities by name).
    const b = await secondModel(pets.id, [
      { id: 'z', label: 'fox', score: 0.5 },
      { id: 'm', label: 'emu', score: 0.8, probabilities: { emu: 0.8, cat: 0.2 } },
      { id: 'c', label: 'cat', score: 0.4 },
    ] as never);
    await deleteItems(pets.id, ['b']);
    await expectPairAsEach(pets.id, pets.predictionSetId, b);

    // The cache keeps each of a pair it loaded, and loads only the one it lacks.
    const dataset = (await new DatasetsRepository(t.database.db, t.database.dialect).find(
      pets.id,
    ))!;
    const source = {
      repo: new PerformanceRepository(t.database.db, t.database.dialect),
      readMedia: () => Promise.reject(new Error('no media')),
    };
    const cache = new EvaluationCache(source);
    const [x, y] = await cache.getPair(dataset, [pets.predictionSetId, b]);
    expect(await cache.get(dataset, pets.predictionSetId)).toBe(x);
    expect(await cache.get(dataset, b)).toBe(y);
    const pred = (e: Evaluation) => (e.data.kind === 'class' ? [...e.data.pred] : null);
    expect(pred(y)).toEqual(pred(await load({ id: pets.id, predictionSetId: b })));
    const fresh = new EvaluationCache(source);
    const kept = await fresh.get(dataset, b);
    const [first, second] = await fresh.getPair(dataset, [pets.predictionSetId, b]);
    expect(second).toBe(kept);
    expect(pred(first)).toEqual(pred(x));
    expect(first.sampleIds).toEqual(x.sampleIds);

    const ages = await createDatasetWithModel(
      admin,
      { name: `ages ${Math.random()}`, task_type: 'regression', value_names: ['age', 'height'] },
      [
        { id: 'a', values: { age: 3, height: 1.25 } },
        { id: 'b', values: [5, 1.5] },
        { id: 'c', values: { height: 1, age: 7 } },
      ] as never,
      { predictions: [{ id: 'c', values: [6.5, 1.1] }] as never },
    );
    const other = await secondModel(ages.id, [
      { id: 'a', values: { height: 1.2, age: 2.5 } },
      { id: 'b', values: [4, 1.4] },
    ] as never);
    await expectPairAsEach(ages.id, ages.predictionSetId, other);

    const speech = await createDatasetWithModel(
      admin,
      { name: `speech ${Math.random()}`, task_type: 'automatic_speech_recognition' },
      [
        { id: 'u2', transcript: 'hello world' },
        { id: 'u1', transcript: 'good morning' },
      ] as never,
      { predictions: [{ id: 'u2', transcript: 'hello word' }] as never },
    );
    const heard = await secondModel(speech.id, [{ id: 'u1', transcript: 'good morning' }] as never);
    await expectPairAsEach(speech.id, speech.predictionSetId, heard);
  });
});

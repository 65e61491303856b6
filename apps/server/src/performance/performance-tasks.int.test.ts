// Model performance of the other six task types on a real server and database: for a small
// dataset with two splits, the statistics and per-entity rows the API answers equal what the
// metrics functions of @loupe/metrics compute on the same data, split by split; object tasks
// follow an IoU threshold change and have object-level slices checked by hand; a job that keeps
// failing answers 'failed' until the data changes.
import { api, type StatisticsResponse } from '@loupe/contracts';
import {
  corpusWordErrors,
  equalErrorRate,
  evaluateCoco,
  matchObjects,
  precisionRecallF1,
  regressionReport,
  segmentationToRle,
  semanticSegmentationReport,
  wordStatistics,
  type CocoAnnotation,
  type CocoDetection,
} from '@loupe/metrics';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatasetWithModel } from '../testing/datasets.js';
import { whenReady } from '../testing/jobs.js';
import { testImage } from '../testing/media.js';
import { startLicensedApp, type Client, type TestApp } from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterAll(() => t.close());

type Params = { id: string; predictionSetId: string };
type Row = Record<string, unknown> & { id: string; split: string };

function dataset(
  body: Record<string, unknown>,
  samples: Row[],
  predictions: Record<string, unknown>[],
): Promise<Params> {
  return createDatasetWithModel(
    admin,
    { name: `${String(body.task_type)} ${Math.random()}`, ...body } as never,
    samples,
    { name: 'm', predictions: predictions as never },
  );
}

const statistics = (params: Params) =>
  whenReady(t, () => admin.call(api.performance.statistics, { params }));
const overall = (params: Params) =>
  whenReady(t, () => admin.call(api.performance.overall, { params }));

function valueOf(answer: StatisticsResponse, metric: string, split: string) {
  const statistic = answer.statistics.find((s) => s.metric_name === metric);
  expect(statistic, metric).toBeDefined();
  return statistic!.values.find((v) => v.split_name === split)!.value;
}

const SPLITS = ['all', 'train', 'val'];
const inSplit = <T extends { split: string }>(rows: T[], split: string) =>
  rows.filter((r) => split === 'all' || r.split === split);

async function png(pixels: number[], width: number, height: number): Promise<Buffer> {
  return sharp(Buffer.from(pixels), { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

async function uploadMedia(id: string, bytes: Buffer): Promise<string> {
  const { key } = await admin.call(api.media.upload, {
    params: { id },
    body: bytes,
    contentType: 'image/png',
  });
  return key;
}

describe('audio classification', () => {
  // label, predicted, p(yes)
  const clips: [string, string, string, string, number][] = [
    ['a', 'train', 'yes', 'yes', 0.9],
    ['b', 'train', 'no', 'yes', 0.6],
    ['c', 'train', 'no', 'no', 0.2],
    ['d', 'val', 'yes', 'no', 0.4],
    ['e', 'val', 'yes', 'yes', 0.8],
    ['f', 'val', 'no', 'no', 0.1],
  ];

  it('has accuracy, macro F1 and the equal error rate of classificationReport and equalErrorRate', async () => {
    const params = await dataset(
      { task_type: 'audio_classification', class_names: ['no', 'yes'] },
      clips.map(([id, split, label]) => ({ id, split, label })),
      clips.map(([id, , , predicted, yes]) => ({
        id,
        label: predicted,
        score: predicted === 'yes' ? yes : 1 - yes,
        probabilities: [1 - yes, yes],
      })),
    );
    const answer = await statistics(params);
    for (const split of SPLITS) {
      const rows = inSplit(
        clips.map(([id, s, label, predicted, yes]) => ({ id, split: s, label, predicted, yes })),
        split,
      );
      const correct = rows.filter((r) => r.label === r.predicted).length;
      expect(valueOf(answer, 'accuracy', split)).toBeCloseTo(correct / rows.length, 12);
      const eer = equalErrorRate(
        rows.map((r) => (r.label === 'yes' ? 1 : 0)),
        rows.map((r) => r.yes),
      ).eer;
      expect(valueOf(answer, 'equal_error_rate', split)).toBeCloseTo(eer, 12);
    }
    const curves = await whenReady(t, () => admin.call(api.performance.finegrained, { params }));
    expect(curves.kind).toBe('roc');
  });
});

describe('regression', () => {
  const samples: [string, string, number, number, number, number][] = [
    ['a', 'train', 3, 1.2, 4, 1.0],
    ['b', 'train', 5, 1.5, 5, 1.8],
    ['c', 'train', 7, 1.1, 2, 1.1],
    ['d', 'val', 2, 0.9, 3, 0.5],
    ['e', 'val', 9, 1.7, 9.5, 1.6],
  ];

  it('has the MSE and MAE of regressionReport, per value name and averaged', async () => {
    const params = await dataset(
      { task_type: 'regression', value_names: ['age', 'height'] },
      samples.map(([id, split, age, height]) => ({ id, split, values: { age, height } })),
      samples.map(([id, , , , age, height]) => ({ id, values: [age, height] })),
    );
    const answer = await statistics(params);
    const table = await overall(params);
    expect(table.primary_key).toBe('value_name');
    for (const split of SPLITS) {
      const rows = inSplit(
        samples.map(([id, s, age, height, pAge, pHeight]) => ({
          id,
          split: s,
          age,
          height,
          pAge,
          pHeight,
        })),
        split,
      );
      const report = regressionReport(
        { age: rows.map((r) => r.age), height: rows.map((r) => r.height) },
        { age: rows.map((r) => r.pAge), height: rows.map((r) => r.pHeight) },
      );
      expect(valueOf(answer, 'mean_squared_error', split)).toBeCloseTo(report.overall.mse, 12);
      expect(valueOf(answer, 'mean_absolute_error', split)).toBeCloseTo(report.overall.mae, 12);
      const entities = table.splits.find((s) => s.split_name === split)!.rows;
      expect(entities.map((r) => r.key)).toEqual(['age', 'height']);
      for (const row of entities) {
        expect(row.values.mean_squared_error).toBeCloseTo(report.perValue[row.key]!.mse, 12);
        expect(row.values.mean_absolute_error).toBeCloseTo(report.perValue[row.key]!.mae, 12);
      }
    }
  });
});

describe('speech recognition', () => {
  const utterances: [string, string, string, string | null][] = [
    ['a', 'train', 'the cat sat', 'the cat sat'],
    ['b', 'train', 'on the mat', 'on a mat today'],
    ['c', 'val', 'hello world', 'hello'],
    ['d', 'val', 'good morning', null],
  ];

  it('has the corpus WER, MER and WIL of corpusWordErrors and its per-word rows', async () => {
    const params = await dataset(
      { task_type: 'automatic_speech_recognition' },
      utterances.map(([id, split, transcript]) => ({ id, split, transcript })),
      utterances
        .filter((u) => u[3] !== null)
        .map(([id, , , transcript]) => ({ id, transcript: transcript! })),
    );
    const answer = await statistics(params);
    expect(answer).toMatchObject({ num_items: 4, num_missing: 1 });
    const table = await overall(params);
    expect(table.primary_key).toBe('word');
    for (const split of SPLITS) {
      // An utterance without a hypothesis is left out.
      const rows = inSplit(
        utterances.map(([id, s, ref, hyp]) => ({ id, split: s, ref, hyp })),
        split,
      ).filter((r) => r.hyp !== null);
      const result = corpusWordErrors(
        rows.map((r) => r.ref),
        rows.map((r) => r.hyp!),
      );
      expect(valueOf(answer, 'word_error_rate', split)).toBeCloseTo(result.corpus.wer, 12);
      expect(valueOf(answer, 'match_error_rate', split)).toBeCloseTo(result.corpus.mer, 12);
      expect(valueOf(answer, 'word_information_lost', split)).toBeCloseTo(result.corpus.wil, 12);
      const words = wordStatistics(result.utterances);
      const entities = table.splits.find((s) => s.split_name === split)!.rows;
      expect(new Set(entities.map((r) => r.key))).toEqual(new Set(words.keys()));
      for (const row of entities) {
        const w = words.get(row.key)!;
        expect(row.values).toEqual({
          count: w.occurrences,
          word_insertion: w.insertions,
          word_deletion: w.deletions,
          word_substitution: w.substitutions,
        });
      }
    }
  });
});

describe('semantic segmentation', () => {
  // 4×2 label maps (classes bg 0, road 1, car 2).
  const maps: [string, string, number[], number[]][] = [
    ['a', 'train', [0, 0, 1, 1, 0, 2, 2, 1], [0, 1, 1, 1, 0, 2, 0, 1]],
    ['b', 'train', [1, 1, 1, 1, 0, 0, 0, 0], [1, 1, 0, 1, 0, 0, 0, 2]],
    ['c', 'val', [2, 2, 0, 0, 1, 1, 0, 0], [2, 2, 2, 0, 1, 0, 0, 0]],
  ];
  const CLASSES = ['bg', 'road', 'car'];

  /** The dataset and an empty prediction set. */
  async function masks(): Promise<Params> {
    const { id } = await admin.call(api.datasets.create, {
      body: {
        name: `seg ${Math.random()}`,
        task_type: 'semantic_segmentation',
        class_names: CLASSES,
      },
    });
    const samples = [];
    for (const [sample, split, truth] of maps)
      samples.push({ id: sample, split, mask: await uploadMedia(id, await png(truth, 4, 2)) });
    await admin.call(api.samples.upload, { params: { id }, body: { samples } });
    const set = await admin.call(api.predictionSets.create, {
      params: { id },
      body: { name: 'm' },
    });
    return { id, predictionSetId: set.id };
  }

  async function predict(params: Params, mask: (id: string) => Promise<string>): Promise<void> {
    const predictions = [];
    for (const [sample] of maps) predictions.push({ id: sample, mask: await mask(sample) });
    await admin.call(api.predictionSets.uploadPredictions, { params, body: { predictions } });
    // The masks' statistics for the explorer, whose job moves the data version.
    await t.runner.drain();
  }

  const predictedMask = (id: string) => async (sample: string) =>
    uploadMedia(id, await png(maps.find((m) => m[0] === sample)![3], 4, 2));

  it('has the IoU, precision and recall of semanticSegmentationReport', async () => {
    const params = await masks();
    await predict(params, predictedMask(params.id));
    const answer = await statistics(params);
    const table = await overall(params);
    const definedMean = (values: number[]) => {
      const defined = values.filter((v) => !Number.isNaN(v));
      return defined.reduce((a, b) => a + b, 0) / defined.length;
    };
    for (const split of SPLITS) {
      const rows = inSplit(
        maps.map(([id, s, truth, pred]) => ({ id, split: s, truth, pred })),
        split,
      );
      const report = semanticSegmentationReport(
        rows.map((r) => [r.truth, r.pred] as [number[], number[]]),
        3,
        null,
      );
      expect(valueOf(answer, 'IoU', split)).toBeCloseTo(report.meanIou, 12);
      expect(valueOf(answer, 'precision', split)).toBeCloseTo(
        definedMean(report.perClass.map((c) => c.precision)),
        12,
      );
      expect(valueOf(answer, 'recall', split)).toBeCloseTo(
        definedMean(report.perClass.map((c) => c.recall)),
        12,
      );
      const entities = table.splits.find((s) => s.split_name === split)!.rows;
      expect(entities.map((r) => r.key)).toEqual(CLASSES);
      entities.forEach((row, k) => {
        const c = report.perClass[k]!;
        if (Number.isNaN(c.iou)) expect(row.values.IoU).toBeNull();
        else expect(row.values.IoU).toBeCloseTo(c.iou, 12);
      });
    }
  });

  it("answers 'failed' when the job keeps failing, until the data changes", async () => {
    // Predicted masks that are no image: decoding them fails, on every attempt.
    const params = await masks();
    await predict(params, async () => uploadMedia(params.id, Buffer.from('not an image at all')));
    const read = () => admin.call(api.performance.statistics, { params });
    expect((await read()).status).toBe('computing');
    for (let attempt = 0; attempt < 6; attempt++) {
      await t.runner.drain();
      t.clock.advance(10 * 60_000);
    }
    const failed = await read();
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual(expect.any(String));
    // Still failed: no new job for the same data.
    expect(await t.runner.drain()).toBe(0);
    expect((await read()).status).toBe('failed');

    await predict(params, predictedMask(params.id));
    expect((await read()).status).toBe('computing');
    await t.runner.drain();
    expect((await read()).status).toBe('ready');
  });
});

describe('object detection', () => {
  /** Images s1..s4 (100×50); s4 has no prediction at all. */
  const truth: Record<string, [string, number[]][]> = {
    s1: [
      ['cat', [10, 10, 20, 20]],
      ['dog', [50, 0, 40, 40]],
    ],
    s2: [['cat', [0, 0, 10, 10]]],
    s3: [['dog', [5, 5, 30, 30]]],
    s4: [['cat', [0, 0, 20, 20]]],
  };
  const predicted: Record<string, [string, number[], number][]> = {
    s1: [
      ['cat', [11, 11, 20, 20], 0.9],
      // IoU 1050/2150 ≈ 0.49 with the dog: a miss at 0.5, a match at 0.4.
      ['dog', [60, 5, 40, 40], 0.8],
    ],
    s2: [
      ['cat', [0, 0, 10, 10], 0.7],
      ['dog', [20, 20, 10, 10], 0.3],
    ],
    s3: [['dog', [8, 8, 30, 30], 0.6]],
  };
  const splitOf: Record<string, string> = { s1: 'train', s2: 'train', s3: 'val', s4: 'val' };
  const images = Object.keys(truth);

  async function detection(task: 'object_detection' | 'instance_segmentation'): Promise<Params> {
    const { id } = await admin.call(api.datasets.create, {
      body: { name: `${task} ${Math.random()}`, task_type: task, class_names: ['cat', 'dog'] },
    });
    const image = await uploadMedia(id, (await testImage(1, 'png', 100, 50)).bytes);
    const shape = (box: number[]) =>
      task === 'object_detection'
        ? { bbox: box }
        : {
            segmentation: [
              [
                box[0]!,
                box[1]!,
                box[0]! + box[2]!,
                box[1]!,
                box[0]! + box[2]!,
                box[1]! + box[3]!,
                box[0]!,
                box[1]! + box[3]!,
              ],
            ],
          };
    await admin.call(api.samples.upload, {
      params: { id },
      body: {
        samples: images.map((s) => ({
          id: s,
          split: splitOf[s]!,
          image,
          objects: truth[s]!.map(([label, box], k) => ({ id: `o${k}`, label, ...shape(box) })),
        })),
      },
    });
    const set = await admin.call(api.predictionSets.create, {
      params: { id },
      body: { name: 'm' },
    });
    await admin.call(api.predictionSets.uploadPredictions, {
      params: { id, predictionSetId: set.id },
      body: {
        predictions: Object.entries(predicted).map(([s, objects]) => ({
          id: s,
          objects: objects.map(([label, box, score], k) => ({
            id: `p${k}`,
            label,
            score,
            ...shape(box),
          })),
        })),
      },
    });
    // Image sizes come from the computed metadata.
    await t.runner.drain();
    return { id, predictionSetId: set.id };
  }

  /** mAP (evaluateCoco) and matchObjects' counts over some images, at an IoU threshold. */
  function expected(split: string, iou: number, segm: boolean) {
    const chosen = images.filter((s) => split === 'all' || splitOf[s] === split);
    const polygon = (b: number[]) => [
      [b[0]!, b[1]!, b[0]! + b[2]!, b[1]!, b[0]! + b[2]!, b[1]! + b[3]!, b[0]!, b[1]! + b[3]!],
    ];
    const annotations: CocoAnnotation[] = chosen.flatMap((s) =>
      truth[s]!.map(([label, box], k) => ({
        id: `${s}#${k}`,
        image_id: s,
        category_id: label,
        bbox: box,
        iscrowd: 0,
        ...(segm ? { segmentation: polygon(box) } : {}),
      })),
    );
    const detections: CocoDetection[] = chosen.flatMap((s) =>
      (predicted[s] ?? []).map(([label, box, score]) => ({
        image_id: s,
        category_id: label,
        score,
        bbox: box,
        ...(segm ? { segmentation: polygon(box) } : {}),
      })),
    );
    const coco = evaluateCoco(
      {
        images: chosen.map((s) => ({ id: s, height: 50, width: 100 })),
        annotations,
        categories: [{ id: 'cat' }, { id: 'dog' }],
      },
      detections,
      segm ? 'segm' : 'bbox',
    );
    const counts = { tp: 0, fp: 0, fn: 0 };
    for (const s of chosen) {
      const object = ([label, box]: [string, number[], ...unknown[]], score?: number) => ({
        label,
        ...(segm ? { mask: segmentationToRle(polygon(box), 50, 100) } : { box }),
        ...(score !== undefined ? { score } : {}),
      });
      const m = matchObjects(
        truth[s]!.map((o) => object(o)),
        (predicted[s] ?? []).map((o) => object(o, o[2])),
        { iouThreshold: iou, useMasks: segm },
      );
      counts.tp += m.tp;
      counts.fp += m.fp;
      counts.fn += m.fn;
    }
    return { mAP: coco.stats[0]!, ...counts, ...precisionRecallF1(counts) };
  }

  function expectStatistics(answer: StatisticsResponse, iou: number, segm: boolean): void {
    for (const split of SPLITS) {
      const want = expected(split, iou, segm);
      expect(valueOf(answer, 'mAP_COCO', split), `mAP in ${split}`).toBeCloseTo(want.mAP, 12);
      expect(valueOf(answer, 'precision', split)).toBeCloseTo(want.precision, 12);
      expect(valueOf(answer, 'recall', split)).toBeCloseTo(want.recall, 12);
      expect(valueOf(answer, 'tp', split)).toBe(want.tp);
      expect(valueOf(answer, 'fp', split)).toBe(want.fp);
      expect(valueOf(answer, 'fn', split)).toBe(want.fn);
    }
  }

  it('has the mAP of evaluateCoco and the counts of matchObjects, and follows the IoU threshold', async () => {
    const params = await detection('object_detection');
    const answer = await statistics(params);
    expect(answer).toMatchObject({ num_items: 4, num_missing: 1 });
    expectStatistics(answer, 0.5, false);

    await admin.call(api.datasets.setIouThreshold, {
      params: { id: params.id },
      body: { iou_threshold: 0.4 },
    });
    expect((await admin.call(api.performance.statistics, { params })).status).toBe('computing');
    const after = await statistics(params);
    expectStatistics(after, 0.4, false);
    expect(valueOf(after, 'tp', 'train')).toBe(valueOf(answer, 'tp', 'train')! + 1);
  });

  it('measures object-level slices from each object’s match', async () => {
    const params = await detection('object_detection');
    const objects = await admin.call(api.explore.itemIds, {
      params: { id: params.id },
      body: {
        data_level: 'image_object',
        predictions_id: params.predictionSetId,
        format: 'ids',
        sort: [],
      },
    });
    const ids = objects.item_ids!;
    const predictedId = (sample: string, k: number) =>
      ids.find((id) => id.startsWith('pred:') && id.includes(sample) && id.endsWith(`p${k}`))!;
    // At 0.5: s1#o0 cat TP, s1#o1 dog FN, s2#o0 cat TP; s2's predicted dog is FP.
    const subset = await admin.call(api.subsets.create, {
      params: { id: params.id },
      body: { name: 'Objects', data_level: 'image_object', item_ids: ['s1#o1', 's2#o0'] },
    });
    await admin.call(api.performance.toggleSubset, {
      params: { id: params.id, subsetId: subset.id },
      body: { request_type: 'enable' },
    });
    await statistics(params);
    const entries = await admin.call(api.performance.subsets, {
      params,
      query: { split: 'train' },
    });
    expect(entries.performance_per_subset[subset.id]).toMatchObject({
      num_items_total: 2,
      num_items_used: 2,
      metric_name: 'precision',
      performance_per_metric: { tp: 1, fp: 0, fn: 1, precision: 1, recall: 0.5, f1_score: 2 / 3 },
    });

    const selection = await admin.call(api.performance.itemsSummary, {
      params,
      body: { data_level: 'image_object', item_ids: ['s2#o0', predictedId('s2', 1)] },
    });
    expect(selection).toMatchObject({ num_items: 2, num_items_used: 2, iou_threshold: 0.5 });
    expect(Object.fromEntries(selection.metrics.map((m) => [m.metric_name, m.value]))).toEqual({
      precision: 0.5,
      recall: 1,
      f1_score: 2 / 3,
      tp: 1,
      fp: 1,
      fn: 0,
    });

    // By label, at IoU 0.5 whatever the dataset's threshold: cats 2 TP and 1 FN (s4); dogs 1 TP
    // (s3), 2 FP (s1, s2) and 1 FN (s1).
    await admin.call(api.datasets.setIouThreshold, {
      params: { id: params.id },
      body: { iou_threshold: 0.3 },
    });
    const byLabel = await admin.call(api.performance.metadata, {
      params,
      body: {
        data_level: 'image_object',
        metadata_id: 'object.label',
        metrics: ['precision', 'recall'],
      },
    });
    expect(byLabel.iou_threshold).toBe(0.5);
    const of = (bin: string, metric: string) =>
      byLabel.performance_per_bin
        .find((b) => b.bin === bin)!
        .metrics.find((m) => m.metric_name === metric)!
        .values.find((v) => v.split_name === 'all')!;
    expect(of('cat', 'precision')).toMatchObject({ value: 1, count: 5 });
    expect(of('cat', 'recall').value).toBeCloseTo(2 / 3, 12);
    expect(of('dog', 'precision').value).toBeCloseTo(1 / 3, 12);
    expect(of('dog', 'recall').value).toBe(0.5);
  });

  it('instance segmentation: the mAP of evaluateCoco on masks and the counts of matchObjects', async () => {
    const params = await detection('instance_segmentation');
    const answer = await statistics(params);
    expectStatistics(answer, 0.5, true);
  });
});

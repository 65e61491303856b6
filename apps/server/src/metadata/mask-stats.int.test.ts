// Mask statistics of semantic segmentation predictions on a real server and database: computed by
// the job an upload of predictions or of ground-truth masks enqueues, stored with each
// prediction, and read by the explorer as prediction.iou and prediction.pixel_accuracy, which
// filter and sort like any numeric field. Expected values are worked out by hand in the comments.
import { api, type ItemIdsRequest } from '@loupe/contracts';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PredictionSetsRepository } from '../prediction-sets/prediction-sets.repository.js';
import { startLicensedApp, type Client, type TestApp } from '../testing/test-app.js';
import { systemActor } from '../users/actor.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

/** A 4×2 label map PNG (one channel). */
const png = (pixels: number[]) =>
  sharp(Buffer.from(pixels), { raw: { width: 4, height: 2, channels: 1 } })
    .png()
    .toBuffer();

async function uploadMask(datasetId: string, pixels: number[]): Promise<string> {
  const { key } = await admin.call(api.media.upload, {
    params: { id: datasetId },
    body: await png(pixels),
    contentType: 'image/png',
  });
  return key;
}

// Classes bg 0, road 1, car 2. Truth and prediction per sample; d has no ground-truth mask, e
// no prediction.
//   a: truth [0 0 1 1 / 0 2 2 1], pred [0 1 1 1 / 0 2 0 1]
//      bg I 2, U 3 + 3 − 2 = 4; road I 3, U 3 + 4 − 3 = 4; car I 1, U 2 + 1 − 1 = 2
//      IoU (1/2 + 3/4 + 1/2) / 3 = 7/12; pixel accuracy 6/8
//   b: prediction = truth: IoU 1, pixel accuracy 1
//   c: truth [2 2 0 0 / 1 1 0 0], pred all road: bg 0/4, road 2/8, car 0/2
//      IoU (1/4) / 3 = 1/12; pixel accuracy 2/8
const TRUTH: Record<string, number[] | null> = {
  a: [0, 0, 1, 1, 0, 2, 2, 1],
  b: [1, 1, 1, 1, 0, 0, 0, 0],
  c: [2, 2, 0, 0, 1, 1, 0, 0],
  d: null,
  e: [0, 0, 0, 0, 1, 1, 1, 1],
};
const PREDICTED: Record<string, number[]> = {
  a: [0, 1, 1, 1, 0, 2, 0, 1],
  b: [1, 1, 1, 1, 0, 0, 0, 0],
  c: [1, 1, 1, 1, 1, 1, 1, 1],
  d: [0, 0, 0, 0, 0, 0, 0, 0],
};
const ROAD = [1, 1, 1, 1, 1, 1, 1, 1];

async function segmentation(): Promise<{ id: string; setId: string }> {
  const { id } = await admin.call(api.datasets.create, {
    body: {
      name: 'Streets',
      task_type: 'semantic_segmentation',
      class_names: ['bg', 'road', 'car'],
    },
  });
  const samples = [];
  for (const [sample, truth] of Object.entries(TRUTH))
    samples.push({ id: sample, ...(truth ? { mask: await uploadMask(id, truth) } : {}) });
  await admin.call(api.samples.upload, { params: { id }, body: { samples } });
  const set = await admin.call(api.predictionSets.create, { params: { id }, body: { name: 'm' } });
  return { id, setId: set.id };
}

async function predict(id: string, setId: string, predicted: Record<string, number[]>) {
  const predictions = [];
  for (const [sample, pixels] of Object.entries(predicted))
    predictions.push({ id: sample, mask: await uploadMask(id, pixels) });
  await admin.call(api.predictionSets.uploadPredictions, {
    params: { id, predictionSetId: setId },
    body: { predictions },
  });
}

describe('mask statistics of semantic segmentation predictions', () => {
  it('are computed after an upload and filter and sort the explorer', async () => {
    const { id, setId } = await segmentation();
    await predict(id, setId, PREDICTED);
    const context = { data_level: 'image', predictions_id: setId } as const;
    const ids = async (body: Omit<ItemIdsRequest, 'data_level'>) =>
      (
        await admin.call(api.explore.itemIds, {
          params: { id },
          body: { format: 'ids', ...context, ...body },
        })
      ).item_ids;
    const byIou = { sort: [{ name: 'prediction.iou', direction: 'ascending' as const }] };
    const fields = ['prediction.iou', 'prediction.pixel_accuracy'];
    const values = async () =>
      Object.fromEntries(
        (
          await admin.call(api.explore.items, {
            params: { id },
            body: { ...context, item_ids: ['a', 'b', 'c', 'd', 'e'] },
          })
        ).items.map((item) => [item.id, fields.map((f) => item.metadata[f] ?? null)]),
      );

    // Missing until the job has run: the fields exist, no item has a value.
    const info = await admin.call(api.explore.metadataInfo, { params: { id }, query: context });
    expect(info.metadata_config.filter((f) => fields.includes(f.id))).toMatchObject([
      { id: 'prediction.iou', type: 'numeric', group: 'Prediction' },
      { id: 'prediction.pixel_accuracy', type: 'numeric', group: 'Prediction' },
    ]);
    expect(await ids(byIou)).toEqual([]);

    // The mask statistics, then the health checks the upload enqueued.
    expect(await t.runner.drain()).toBe(2);
    const v = await values();
    expect(v.a![0]).toBeCloseTo(7 / 12, 12);
    expect(v.a![1]).toBeCloseTo(6 / 8, 12);
    expect(v.b).toEqual([1, 1]);
    expect(v.c![0]).toBeCloseTo(1 / 12, 12);
    expect(v.c![1]).toBeCloseTo(2 / 8, 12);
    // d has no ground truth to compare with, e no prediction.
    expect(v.d).toEqual([null, null]);
    expect(v.e).toEqual([null, null]);
    expect(await ids(byIou)).toEqual(['c', 'a', 'b']);
    expect(
      await ids({ sort: [{ name: 'prediction.pixel_accuracy', direction: 'descending' }] }),
    ).toEqual(['b', 'a', 'c']);
    expect(
      await ids({
        filter: {
          type: 'numeric',
          metadata_id: 'prediction.iou',
          op: 'between',
          value: [0.5, 0.9],
        },
      }),
    ).toEqual(['a']);

    // Stored compactly with the prediction: [class, intersection, union] of the classes present.
    const stored = await t.database.db
      .selectFrom('predictions')
      .select(['sample_id', 'mask_stats'])
      .where('prediction_set_id', '=', setId)
      .orderBy('sample_id')
      .execute();
    expect(JSON.parse(stored[0]!.mask_stats!)).toEqual({
      counts: [
        [0, 2, 4],
        [1, 3, 4],
        [2, 1, 2],
      ],
    });
    expect(JSON.parse(stored[3]!.mask_stats!)).toEqual({ error: expect.any(String) });

    // The job shows as the metadata job of the model (after it, the dataset's health checks).
    const activities = await admin.call(api.activities.list, { query: { scope: 'all' } });
    expect(activities).toHaveLength(2);
    expect(activities).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ job_type: 'QualityScoresComputation', status: 'SUCCESS' }),
        expect.objectContaining({
          job_type: 'MetadataAndFeaturesComputation',
          predictions_id: setId,
          status: 'SUCCESS',
        }),
      ]),
    );
    // Nothing left to compute: the next job of the dataset finds nothing and moves no version.
    const version = () =>
      t.database.db
        .selectFrom('datasets')
        .select('data_version')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const before = await version();
    await t.services.jobs.enqueue(
      'MetadataAndFeaturesComputation',
      { dataset_id: id, prediction_set_id: setId },
      systemActor('test'),
    );
    expect(await t.runner.drain()).toBe(1);
    expect(await version()).toEqual(before);
  });

  it('are computed again when a ground-truth mask or a prediction is replaced', async () => {
    const { id, setId } = await segmentation();
    await predict(id, setId, PREDICTED);
    await t.runner.drain();
    const context = { data_level: 'image', predictions_id: setId } as const;
    const byIou = async () =>
      (
        await admin.call(api.explore.itemIds, {
          params: { id },
          body: {
            format: 'ids',
            ...context,
            sort: [{ name: 'prediction.iou', direction: 'descending' }],
          },
        })
      ).item_ids;
    expect(await byIou()).toEqual(['b', 'a', 'c']);

    // c's truth becomes all road, as predicted (IoU 1); d gets a truth of all bg, as predicted.
    await admin.call(api.samples.upload, {
      params: { id },
      body: {
        samples: [
          { id: 'c', mask: await uploadMask(id, ROAD) },
          { id: 'd', mask: await uploadMask(id, [0, 0, 0, 0, 0, 0, 0, 0]) },
        ],
      },
    });
    expect(await byIou()).toEqual(['b', 'a']);
    await t.runner.drain();
    // Ties keep upload order.
    expect(await byIou()).toEqual(['b', 'c', 'd', 'a']);

    // a's prediction replaced by its truth.
    await predict(id, setId, { a: TRUTH.a! });
    expect(await byIou()).toEqual(['b', 'c', 'd']);
    await t.runner.drain();
    expect(await byIou()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('are found through the partial index of pending masks', async () => {
    const repo = new PredictionSetsRepository(t.database.db);
    const query = repo.pendingMaskStatsQuery('d1', 's1', '', 200).compile();
    const plan = await t.database.db.transaction().execute(async (trx) => {
      // PostgreSQL reads a tiny table whole unless sequential scans are ruled out.
      if (t.database.dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
      const prefix = t.database.dialect === 'postgres' ? 'explain' : 'explain query plan';
      const { rows } = await trx.executeQuery<Record<string, unknown>>({
        ...query,
        sql: `${prefix} ${query.sql}`,
      });
      return rows.map((row) => Object.values(row).join(' ')).join('\n');
    });
    expect(plan).toContain('predictions_mask_stats_pending');
  });

  it('are not stored from masks an upload replaced while they were computed', async () => {
    const { id, setId } = await segmentation();
    await predict(id, setId, PREDICTED);
    const repo = new PredictionSetsRepository(t.database.db);
    const pending = await repo.pendingMaskStats(id, setId, '', 10);
    expect(pending.map((p) => [p.sample_id, p.truth === null])).toEqual([
      ['a', false],
      ['b', false],
      ['c', false],
      ['d', true],
    ]);
    // a's truth and b's prediction change before the statistics are stored.
    await admin.call(api.samples.upload, {
      params: { id },
      body: { samples: [{ id: 'a', mask: await uploadMask(id, ROAD) }] },
    });
    await predict(id, setId, { b: ROAD });
    const stats = { counts: [[0, 1, 1]] as [number, number, number][] };
    expect(
      await repo.setMaskStats(
        id,
        setId,
        pending.map((p) => ({ ...p, stats })),
      ),
    ).toBe(2); // c and d only
    expect((await repo.pendingMaskStats(id, setId, '', 10)).map((p) => p.sample_id)).toEqual([
      'a',
      'b',
    ]);
  });
});

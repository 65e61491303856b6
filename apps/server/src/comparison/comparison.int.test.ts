// Comparing two models on a real server and database: for each task type a small hand-built
// case whose winner, deltas and category (and subcategory) counts are worked out in the
// comments; 'computing' then ready; invalidation by an applied edit and by the IoU threshold;
// the refusals (400, 404, 403 without a license); both models on the subsets enabled for
// performance; the explore links; and the compared items the explorer gets, by its own ids.
import sharp from 'sharp';
import {
  api,
  COMPARISON_CATEGORIES,
  COMPARISON_MESSAGES,
  OBJECT_SUBCATEGORIES,
  type ComparisonExploreConfig,
  type ComparisonRequest,
  type ComparisonResponse,
  type ComparisonSection,
} from '@loupe/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentJobError } from '../jobs/job-types.js';
import { EvaluationCache } from '../performance/evaluation-cache.js';
import { PerformancePool } from '../performance/performance-pool.js';
import { createRepositories } from '../repositories.js';
import { createDatasetWithModel } from '../testing/datasets.js';
import { whenReady } from '../testing/jobs.js';
import { testImage } from '../testing/media.js';
import {
  refused,
  setUpInstance,
  startLicensedApp,
  startTestApp,
  type Client,
  type TestApp,
} from '../testing/test-app.js';
import { systemActor } from '../users/actor.js';
import type { ComparedColumns } from './compared-items.js';
import { ComparisonJobsService, comparisonPayload } from './comparison-jobs.service.js';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterAll(() => t.close());

const MISSING = '00000000-0000-4000-8000-000000000000';

async function secondModel(id: string, predictions: unknown[]): Promise<string> {
  const set = await admin.call(api.predictionSets.create, {
    params: { id },
    body: { name: `b ${Math.random()}` },
  });
  await admin.call(api.predictionSets.uploadPredictions, {
    params: { id, predictionSetId: set.id },
    body: { predictions: predictions as never },
  });
  return set.id;
}

const compare = (id: string, body: ComparisonRequest, client = admin) =>
  client.call(api.comparison.compare, { params: { id }, body });
const compared = (id: string, body: ComparisonRequest) => whenReady(t, () => compare(id, body));

/** Category sizes of a section, in sort order. */
const counts = (s: ComparisonSection | null) => COMPARISON_CATEGORIES.map((c) => s![c].num_items);

/** The non-empty subcategories of an object section with their sizes. */
const subcategories = (s: ComparisonSection | null) =>
  Object.fromEntries(
    Object.entries(s!.subcategories)
      .filter(([, v]) => v.num_items > 0)
      .map(([k, v]) => [k, v.num_items]),
  );

async function datasetRecord(id: string) {
  return (await createRepositories(t.database.db, t.database.dialect).datasets.find(id))!;
}

/** The item ids of an explore link, in the explorer of the model it is opened for. */
async function linkIds(
  id: string,
  predictionsId: string,
  config: ComparisonExploreConfig,
): Promise<string[]> {
  const answer = await admin.call(api.explore.itemIds, {
    params: { id },
    body: {
      data_level: config.data_level,
      filter: config.filter,
      predictions_id: predictionsId,
      comparison: config.context,
      format: 'ids',
    },
  });
  return [...answer.item_ids!].sort();
}

/** Every explore config of a response, with where it is. */
function exploreConfigs(response: ComparisonResponse): [string, ComparisonExploreConfig][] {
  const out: [string, ComparisonExploreConfig][] = [];
  const visit = (value: unknown, path: string) => {
    if (Array.isArray(value)) value.forEach((v, i) => visit(v, `${path}[${i}]`));
    else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (key === 'explore_config' && v) out.push([path, v as ComparisonExploreConfig]);
        else visit(v, `${path}.${key}`);
      }
    }
  };
  visit(response, '');
  return out;
}

/** The compared items' values by id. */
function byId(columns: ComparedColumns | null) {
  return Object.fromEntries(
    columns!.ids.map((id, t) => [
      id,
      {
        category: COMPARISON_CATEGORIES[columns!.category[t]!] ?? null,
        subcategory: columns!.subcategory
          ? (OBJECT_SUBCATEGORIES[columns!.subcategory[t]!] ?? null)
          : null,
        ...(columns!.categories ? { categories: columns!.categories[t] } : {}),
      },
    ]),
  );
}

describe('classification', () => {
  /**
   *   id split truth  A     B     category
   *   s0 train cat    cat   cat   both_are_neutral
   *   s1 train cat    cat   dog   model_a_is_better
   *   s2 train dog    dog   dog   both_are_neutral
   *   s3 train dog    bird  dog   model_b_is_better
   *   s4 val   bird   bird  bird  both_are_neutral
   *   s5 val   bird   cat   bird  model_b_is_better
   *   s6 val   cat    dog   bird  both_are_problematic
   * Accuracy A 4/7, B 5/7: B better, raw delta 1/7, relative 25 %.
   */
  const ROWS: [string, string, string, string, string][] = [
    ['s0', 'train', 'cat', 'cat', 'cat'],
    ['s1', 'train', 'cat', 'cat', 'dog'],
    ['s2', 'train', 'dog', 'dog', 'dog'],
    ['s3', 'train', 'dog', 'bird', 'dog'],
    ['s4', 'val', 'bird', 'bird', 'bird'],
    ['s5', 'val', 'bird', 'cat', 'bird'],
    ['s6', 'val', 'cat', 'dog', 'bird'],
  ];

  async function pets() {
    const { id, predictionSetId: a } = await createDatasetWithModel(
      admin,
      {
        name: `Pets ${Math.random()}`,
        task_type: 'classification',
        class_names: ['cat', 'dog', 'bird'],
      },
      ROWS.map(([sample, split, label]) => ({ id: sample, split, label })),
      { predictions: ROWS.map(([sample, , , label]) => ({ id: sample, label, score: 0.9 })) },
    );
    const b = await secondModel(
      id,
      ROWS.map(([sample, , , , label]) => ({ id: sample, label, score: 0.8 })),
    );
    return { id, a, b };
  }

  it("is 'computing' first, then the comparison of both models with its explore links", async () => {
    const { id, a, b } = await pets();
    const body = { predictions_id_a: a, predictions_id_b: b };
    const first = await compare(id, body);
    expect(first).toEqual({
      task: 'classification',
      metric: 'accuracy',
      regression_value_name: null,
      iou_threshold: null,
      overall: {},
      other_metrics: null,
      per_class: null,
      per_class_unavailable: false,
      per_word: null,
      per_sample: null,
      per_object_gt: null,
      per_object_pred: null,
      status: 'computing',
      progress: 0,
      data_version: expect.any(Number),
      predictions_id_a: a,
      predictions_id_b: b,
      split: 'all',
    });

    const ready = await compared(id, body);
    expect(ready).toMatchObject({ status: 'ready', progress: 1, metric: 'accuracy', split: 'all' });
    const accuracy = ready.overall.accuracy!;
    expect(accuracy.model_a).toBeCloseTo(4 / 7, 12);
    expect(accuracy.model_b).toBeCloseTo(5 / 7, 12);
    expect(accuracy.raw_delta).toBeCloseTo(1 / 7, 12);
    expect(accuracy.relative_delta).toBeCloseTo(25, 10);
    expect(accuracy.better).toBe('model_b_is_better');
    expect(Object.keys(ready.other_metrics!)).toEqual([
      'macro_precision',
      'macro_recall',
      'macro_f1_score',
    ]);
    // Accuracy has no per-class view.
    expect(ready).toMatchObject({ per_class: null, per_class_unavailable: true });
    expect(ready.per_sample!.num_items).toBe(7);
    expect(counts(ready.per_sample)).toEqual([1, 1, 3, 2]);

    // Every link is well-formed, in the comparison's context.
    const context = {
      predictions_id_a: a,
      predictions_id_b: b,
      split: 'all',
      metric: 'accuracy',
      regression_value_name: null,
    };
    const configs = exploreConfigs(ready);
    expect(configs.length).toBeGreaterThan(0);
    for (const [, config] of configs) expect(config.context).toEqual(context);
    expect(ready.per_sample!.model_b_is_better.explore_config).toEqual({
      data_level: 'image',
      filter: {
        type: 'string',
        metadata_id: 'comparison.category',
        op: 'in',
        value: ['model_b_is_better'],
      },
      sort_by: 'comparison.delta',
      visible_metadata_ids: [
        'comparison.category',
        'comparison.delta',
        'prediction.label',
        'prediction.score',
      ],
      bin_metadata_id: null,
      context,
    });
    expect(ready.per_sample!.distribution.explore_config).toMatchObject({
      filter: null,
      bin_metadata_id: 'comparison.bin',
    });

    // The links find exactly their items, in either model's explorer.
    const link = ready.per_sample!.model_b_is_better.explore_config!;
    expect(await linkIds(id, b, link)).toEqual(['s3', 's5']);
    expect(await linkIds(id, a, link)).toEqual(['s3', 's5']);
    expect(await linkIds(id, a, ready.per_sample!.both_are_problematic.explore_config!)).toEqual([
      's6',
    ]);

    // A second read is served from the stored result, with no new job.
    expect(await t.runner.drain()).toBe(0);
    expect(await compare(id, body)).toEqual(ready);
  });

  it('compares per class with links to the class items, on one split', async () => {
    const { id, a, b } = await pets();
    // val: s4 both right, s5 B right, s6 both wrong. Recall per class (val) — A: bird 1/2,
    // cat 0/1; B: bird 2/2, cat 0/1.
    const answer = await compared(id, {
      predictions_id_a: a,
      predictions_id_b: b,
      split: 'val',
      metric: 'macro_recall',
    });
    expect(answer).toMatchObject({ split: 'val', metric: 'macro_recall' });
    expect(counts(answer.per_sample)).toEqual([0, 1, 1, 1]);
    const perClass = answer.per_class!;
    expect(perClass.metric).toBe('recall');
    expect(perClass.model_b_is_better.map((e) => [e.entity, e.raw_delta])).toEqual([['bird', 0.5]]);
    const bird = perClass.model_b_is_better[0]!.explore_config!;
    expect(bird).toMatchObject({
      data_level: 'image',
      filter: {
        type: 'and',
        children: [
          {
            type: 'or',
            children: [
              { type: 'string', metadata_id: 'label', op: 'in', value: ['bird'] },
              { type: 'string', metadata_id: 'prediction.label', op: 'in', value: ['bird'] },
            ],
          },
          { type: 'string', metadata_id: 'split', op: 'in', value: ['val'] },
        ],
      },
    });
    // In A's explorer: bird by ground truth (s4, s5) or by A's prediction (s4).
    expect(await linkIds(id, a, bird)).toEqual(['s4', 's5']);
    // The empty category has no link.
    expect(answer.per_sample!.model_a_is_better).toEqual({
      num_items: 0,
      fraction_of_total_items: 0,
      explore_config: null,
    });
  });

  it('gives the explorer the compared items by sample id', async () => {
    const { id, a, b } = await pets();
    const items = await t.services.comparison.items(systemActor('test'), await datasetRecord(id), {
      predictions_id_a: a,
      predictions_id_b: b,
      split: 'train',
    });
    expect(items.context).toEqual({
      predictions_id_a: a,
      predictions_id_b: b,
      split: 'train',
      metric: 'accuracy',
      regression_value_name: null,
    });
    expect(items.groundTruth).toBeNull();
    expect(byId(items.samples)).toEqual({
      s0: { category: 'both_are_neutral', subcategory: null },
      s1: { category: 'model_a_is_better', subcategory: null },
      s2: { category: 'both_are_neutral', subcategory: null },
      s3: { category: 'model_b_is_better', subcategory: null },
    });
    // Confidence in the true class, B − A: s1 lost it (−0.9), s3 gained it (0.8).
    const at = (sample: string) => items.samples!.ids.indexOf(sample);
    expect(items.samples!.delta[at('s1')]).toBeCloseTo(-0.9, 6);
    expect(items.samples!.delta[at('s3')]).toBeCloseTo(0.8, 6);
    expect(items.samples!.bin[at('s3')]).toBeGreaterThan(10);
    // Asked again: the same computation, kept.
    const again = await t.services.comparison.items(systemActor('test'), await datasetRecord(id), {
      predictions_id_a: a,
      predictions_id_b: b,
      split: 'train',
    });
    expect(again).toBe(items);
  });

  it('is computed again after an applied edit', async () => {
    const { id, a, b } = await pets();
    const body = { predictions_id_a: a, predictions_id_b: b };
    const before = await compared(id, body);
    // s1 becomes a dog: now B is right there and A wrong; B better on 3 samples.
    await admin.call(api.curation.applyActions, {
      body: { actions: [{ type: 'update_label', dataset_id: id, updates: { dog: ['s1'] } }] },
    });
    const stale = await compare(id, body);
    expect(stale.status).toBe('computing');
    expect(stale.data_version).toBeGreaterThan(before.data_version);
    const after = await compared(id, body);
    expect(counts(after.per_sample)).toEqual([0, 1, 3, 3]);
    expect(after.overall.accuracy!.model_a).toBeCloseTo(3 / 7, 12);
    expect(after.overall.accuracy!.model_b).toBeCloseTo(6 / 7, 12);
  });

  it('refuses the same model twice, unknown models, metrics, splits and value names', async () => {
    const { id, a, b } = await pets();
    const other = await pets();
    const same = await refused(compare(id, { predictions_id_a: a, predictions_id_b: a }));
    expect(same).toMatchObject({ status: 400, description: COMPARISON_MESSAGES.sameModel });
    for (const missing of [MISSING, other.b]) {
      const notFound = await refused(
        compare(id, { predictions_id_a: a, predictions_id_b: missing }),
      );
      expect(notFound).toMatchObject({
        status: 404,
        description: COMPARISON_MESSAGES.modelNotFound(missing),
      });
    }
    const first = await refused(compare(id, { predictions_id_a: MISSING, predictions_id_b: b }));
    expect(first.description).toBe(COMPARISON_MESSAGES.modelNotFound(MISSING));
    expect(
      (await refused(compare(MISSING, { predictions_id_a: a, predictions_id_b: b }))).status,
    ).toBe(404);
    const metric = await refused(
      compare(id, { predictions_id_a: a, predictions_id_b: b, metric: 'mAP_COCO' }),
    );
    expect(metric.status).toBe(400);
    expect(metric.description).toContain('body.metric');
    expect(metric.description).toContain('macro_f1_score');
    const split = await refused(
      compare(id, { predictions_id_a: a, predictions_id_b: b, split: 'test' }),
    );
    expect(split.status).toBe(400);
    expect(split.description).toContain('body.split');
    // The explorer's comparison context is refused the same way, naming its own field.
    await expect(
      t.services.comparison.items(systemActor('test'), await datasetRecord(id), {
        predictions_id_a: a,
        predictions_id_b: b,
        metric: 'IoU',
      }),
    ).rejects.toThrow(/comparison\.metric/);
  });

  it("answers 'failed' for the data version when the thread refuses the computation", async () => {
    const { id, a, b } = await pets();
    const body = { predictions_id_a: a, predictions_id_b: b };
    expect((await compare(id, body)).status).toBe('computing');
    const repos = createRepositories(t.database.db, t.database.dialect);
    const dataset = (await repos.datasets.find(id))!;
    // A deadline nothing can meet: the job fails at once, without retries, and says why.
    const pool = new PerformancePool({ timeoutMs: 1 });
    try {
      const jobs = new ComparisonJobsService(
        repos,
        new EvaluationCache({
          repo: repos.performance,
          readMedia: () => Promise.reject(new Error('no media')),
        }),
        pool,
        t.clock.read,
      );
      const payload = comparisonPayload(dataset, {
        ...body,
        split: 'all',
        metric: 'accuracy',
        regression_value_name: null,
      });
      await expect(jobs.computeComparison(payload, 1, async () => {})).rejects.toBeInstanceOf(
        PermanentJobError,
      );
    } finally {
      await pool.close();
    }
    const failed = await compare(id, body);
    expect(failed).toMatchObject({ status: 'failed', overall: {}, per_sample: null });
    expect(failed.error).toContain('longer than');
  });

  it('needs a license', async () => {
    const unlicensed = await startTestApp();
    try {
      const owner = await setUpInstance(unlicensed.app);
      for (const answer of [
        await owner.call({
          method: 'POST',
          url: `/api/datasets/${MISSING}/comparison`,
          body: { predictions_id_a: MISSING, predictions_id_b: MISSING },
        }),
        await owner.call({
          method: 'GET',
          url: `/api/datasets/${MISSING}/comparison/subsets?predictions_id_a=${MISSING}&predictions_id_b=${MISSING}`,
        }),
      ]) {
        expect(answer.statusCode).toBe(403);
        expect(answer.json()).toEqual({ description: expect.any(String), retriable: false });
      }
    } finally {
      await unlicensed.close();
    }
  });

  it('compares both models on the subsets enabled for performance', async () => {
    const { id, a, b } = await pets();
    const subset = await admin.call(api.subsets.create, {
      params: { id },
      body: { name: 'Early', data_level: 'image', item_ids: ['s0', 's1', 's3', 's5'] },
    });
    const subsets = (split = 'all') =>
      admin.call(api.comparison.subsets, {
        params: { id },
        query: { predictions_id_a: a, predictions_id_b: b, split },
      });
    expect(await subsets()).toEqual({ comparison_per_subset: {}, pending_subsets: [] });
    await admin.call(api.performance.toggleSubset, {
      params: { id, subsetId: subset.id },
      body: { request_type: 'enable' },
    });
    // Pending until both models' report jobs (enqueued by this read) have measured it.
    expect((await subsets()).pending_subsets).toEqual([subset.id]);
    await t.runner.drain();
    // s0 both right, s1 A right, s3 and s5 B right: accuracy A 2/4, B 3/4.
    const all = await subsets();
    expect(all.pending_subsets).toEqual([]);
    const entry = all.comparison_per_subset[subset.id]!;
    expect(entry).toMatchObject({
      num_items_used: 4,
      num_items_total: 4,
      metric_name: 'accuracy',
      subset: { id: subset.id, name: 'Early', enabled_for_performance: true },
    });
    expect(entry.comparison_per_metric.accuracy).toMatchObject({
      model_a: 0.5,
      model_b: 0.75,
      raw_delta: 0.25,
      relative_delta: 50,
      better: 'model_b_is_better',
      category: 'model_b_is_better',
    });
    // train: s0, s1, s3 — A 2/3, B 2/3: equal.
    const train = (await subsets('train')).comparison_per_subset[subset.id]!;
    expect(train.comparison_per_metric.accuracy).toMatchObject({
      raw_delta: 0,
      category: 'both_are_neutral',
    });
    const split = await refused(subsets('test'));
    expect(split).toMatchObject({ status: 400 });
    expect(split.description).toContain('query.split');
    expect(
      (
        await refused(
          admin.call(api.comparison.subsets, {
            params: { id },
            query: { predictions_id_a: a, predictions_id_b: MISSING },
          }),
        )
      ).status,
    ).toBe(404);
  });
});

describe('regression', () => {
  /**
   *   id split age A   B    height (A and B right)
   *   r0 train 10  12  11   1
   *   r1 train 20  20  25   2
   *   r2 val   30  33  30   3
   * Absolute errors of age — A: 2, 0, 3 (MAE 5/3); B: 1, 5, 0 (MAE 2). Lower is better: A,
   * raw delta 1/3. Per sample B is better on r0 and r2, A on r1; nothing is equal.
   */
  it('compares the errors of one value name, lower being better', async () => {
    const rows: [string, string, number, number, number][] = [
      ['r0', 'train', 10, 12, 11],
      ['r1', 'train', 20, 20, 25],
      ['r2', 'val', 30, 33, 30],
    ];
    const { id, predictionSetId: a } = await createDatasetWithModel(
      admin,
      { name: `Ages ${Math.random()}`, task_type: 'regression', value_names: ['age', 'height'] },
      rows.map(([sample, split, age], k) => ({
        id: sample,
        split,
        values: { age, height: k + 1 },
      })),
      { predictions: rows.map(([sample, , , age], k) => ({ id: sample, values: [age, k + 1] })) },
    );
    const b = await secondModel(
      id,
      rows.map(([sample, , , , age], k) => ({ id: sample, values: [age, k + 1] })),
    );
    const body = {
      predictions_id_a: a,
      predictions_id_b: b,
      metric: 'mean_absolute_error',
      regression_value_name: 'age',
    };
    const answer = await compared(id, body);
    expect(answer).toMatchObject({ regression_value_name: 'age', metric: 'mean_absolute_error' });
    const mae = answer.overall.mean_absolute_error!;
    expect(mae.model_a).toBeCloseTo(5 / 3, 12);
    expect(mae.model_b).toBeCloseTo(2, 12);
    expect(mae.raw_delta).toBeCloseTo(1 / 3, 12);
    expect(mae.better).toBe('model_a_is_better');
    expect(counts(answer.per_sample)).toEqual([1, 0, 0, 2]);
    expect(answer.per_sample!.distribution.type).toBe('error');
    expect(answer.per_sample!.model_b_is_better.explore_config!.visible_metadata_ids).toEqual([
      'comparison.category',
      'comparison.delta',
      'prediction.absolute_error.age',
    ]);

    const bad = await refused(compare(id, { ...body, regression_value_name: 'weight' }));
    expect(bad.status).toBe(400);
    expect(bad.description).toContain('body.regression_value_name');
  });
});

describe('speech recognition', () => {
  /**
   *   id reference     A              B              WER A  B
   *   u0 the cat sat   the cat sat    the bat sat    0      1/3   A better
   *   u1 hello world   hello          hello world    1/2    0     B better
   *   u2 good morning  good morning   good evening   0      1/2   A better
   * Corpus WER A 1/7, B 2/7: A better. Per word (errors / occurrences): cat and morning A better
   * (0 vs 1), world B better (1 vs 0), the other four equal.
   */
  it('compares word error rates per utterance and per word', async () => {
    const rows: [string, string, string, string][] = [
      ['u0', 'the cat sat', 'the cat sat', 'the bat sat'],
      ['u1', 'hello world', 'hello', 'hello world'],
      ['u2', 'good morning', 'good morning', 'good evening'],
    ];
    const { id, predictionSetId: a } = await createDatasetWithModel(
      admin,
      { name: `Speech ${Math.random()}`, task_type: 'automatic_speech_recognition' },
      rows.map(([sample, transcript]) => ({ id: sample, split: 'train', transcript })),
      { predictions: rows.map(([sample, , transcript]) => ({ id: sample, transcript })) },
    );
    const b = await secondModel(
      id,
      rows.map(([sample, , , transcript]) => ({ id: sample, transcript })),
    );
    const answer = await compared(id, { predictions_id_a: a, predictions_id_b: b });
    expect(answer.metric).toBe('word_error_rate');
    const wer = answer.overall.word_error_rate!;
    expect(wer.model_a).toBeCloseTo(1 / 7, 12);
    expect(wer.model_b).toBeCloseTo(2 / 7, 12);
    expect(wer.better).toBe('model_a_is_better');
    expect(counts(answer.per_sample)).toEqual([2, 0, 0, 1]);
    const words = answer.per_word!;
    expect(words.model_a_is_better.map((e) => e.entity)).toEqual(['cat', 'morning']);
    expect(words.model_b_is_better.map((e) => e.entity)).toEqual(['world']);
    expect(words.both_are_neutral).toHaveLength(4);
    expect(words.model_a_is_better[0]!.explore_config).toBeNull();
    expect(answer.per_sample!.model_a_is_better.explore_config).toMatchObject({
      data_level: 'audio',
      visible_metadata_ids: ['comparison.category', 'comparison.delta', 'prediction.wer'],
    });
  });
});

describe('object detection', () => {
  /**
   * Two 100×50 images; classes cat, dog.
   *   ground truth: s1 cat [0,0,10,10], dog [50,0,20,20]; s2 cat [0,0,20,20]
   *   A: s1 cat [0,0,10,10] 0.9 (TP), dog [80,30,10,10] 0.5 (FP); s2 cat [0,0,20,20] 0.8 (TP)
   *   B: s1 cat [0,0,10,10] 0.6 (TP), dog [50,0,20,20] 0.7 (TP); s2 cat [30,30,10,10] 0.6 (FP)
   * Ground truths: s1 cat tp_a_tp_b, s1 dog fn_a_tp_b, s2 cat tp_a_fn_b → A 1, neutral 1, B 1.
   * Predictions: the two s1 cats pair (tp_a_tp_b); A's dog overlaps nothing of B's
   * (fp_a_unmatched_b, B better) and B's dog is alone (unmatched_a_tp_b, B better); s2's don't
   * overlap: A's cat tp_a_unmatched_b, B's cat unmatched_a_fp_b (both A better).
   */
  const TRUTH: Record<string, [string, number[]][]> = {
    s1: [
      ['cat', [0, 0, 10, 10]],
      ['dog', [50, 0, 20, 20]],
    ],
    s2: [['cat', [0, 0, 20, 20]]],
  };
  const A: Record<string, [string, number[], number][]> = {
    s1: [
      ['cat', [0, 0, 10, 10], 0.9],
      ['dog', [80, 30, 10, 10], 0.5],
    ],
    s2: [['cat', [0, 0, 20, 20], 0.8]],
  };
  const B: Record<string, [string, number[], number][]> = {
    s1: [
      ['cat', [0, 0, 10, 10], 0.6],
      ['dog', [50, 0, 20, 20], 0.7],
    ],
    s2: [['cat', [30, 30, 10, 10], 0.6]],
  };
  const predictions = (model: typeof A) =>
    Object.entries(model).map(([sample, objects]) => ({
      id: sample,
      objects: objects.map(([label, bbox, score], k) => ({ id: `p${k}`, label, score, bbox })),
    }));

  async function detection() {
    const { id } = await admin.call(api.datasets.create, {
      body: {
        name: `Boxes ${Math.random()}`,
        task_type: 'object_detection',
        class_names: ['cat', 'dog'],
      },
    });
    const { key } = await admin.call(api.media.upload, {
      params: { id },
      body: (await testImage(1, 'png', 100, 50)).bytes,
      contentType: 'image/png',
    });
    await admin.call(api.samples.upload, {
      params: { id },
      body: {
        samples: Object.entries(TRUTH).map(([sample, objects]) => ({
          id: sample,
          split: sample === 's1' ? 'train' : 'val',
          image: key,
          objects: objects.map(([label, bbox], k) => ({ id: `o${k}`, label, bbox })),
        })),
      },
    });
    const a = await secondModel(id, predictions(A));
    const b = await secondModel(id, predictions(B));
    await t.runner.drain();
    return { id, a, b };
  }

  const explorerIds = async (id: string, predictionsId: string, type: 'gt' | 'pred') =>
    (
      await admin.call(api.explore.itemIds, {
        params: { id },
        body: {
          data_level: 'image_object',
          predictions_id: predictionsId,
          filter: { type: 'string', metadata_id: 'object.type', op: 'in', value: [type] },
          format: 'ids',
        },
      })
    ).item_ids!;

  it('counts ground-truth and predicted objects per subcategory, with object links', async () => {
    const { id, a, b } = await detection();
    const body = { predictions_id_a: a, predictions_id_b: b };
    const answer = await compared(id, body);
    expect(answer).toMatchObject({ metric: 'mAP_COCO', iou_threshold: 0.5, per_sample: null });
    expect(counts(answer.per_object_gt)).toEqual([1, 0, 1, 1]);
    expect(subcategories(answer.per_object_gt)).toEqual({
      tp_a_tp_b: 1,
      fn_a_tp_b: 1,
      tp_a_fn_b: 1,
    });
    expect(counts(answer.per_object_pred)).toEqual([2, 0, 1, 2]);
    expect(subcategories(answer.per_object_pred)).toEqual({
      tp_a_tp_b: 1,
      fp_a_unmatched_b: 1,
      unmatched_a_tp_b: 1,
      tp_a_unmatched_b: 1,
      unmatched_a_fp_b: 1,
    });
    const sub = answer.per_object_pred!.subcategories.unmatched_a_tp_b!;
    expect(sub.explore_config).toMatchObject({
      data_level: 'image_object',
      filter: {
        type: 'and',
        children: [
          { type: 'string', metadata_id: 'object.type', op: 'in', value: ['pred'] },
          {
            type: 'string',
            metadata_id: 'comparison.subcategory',
            op: 'in',
            value: ['unmatched_a_tp_b'],
          },
        ],
      },
      sort_by: 'comparison.delta',
      visible_metadata_ids: [
        'comparison.subcategory',
        'comparison.delta',
        'prediction.match_status',
        'prediction.iou',
        'prediction.score',
      ],
      bin_metadata_id: null,
    });
    expect(sub.distribution.explore_config).toMatchObject({ bin_metadata_id: 'comparison.bin' });
    expect(answer.per_object_pred!.subcategories.fp_a_fp_b).toMatchObject({
      num_items: 0,
      explore_config: null,
    });
    // Per class: object links.
    const classes = [
      ...answer.per_class!.model_a_is_better,
      ...answer.per_class!.both_are_problematic,
      ...answer.per_class!.both_are_neutral,
      ...answer.per_class!.model_b_is_better,
    ];
    expect(classes.map((e) => e.entity).sort()).toEqual(['cat', 'dog']);
    for (const entity of classes)
      expect(entity.explore_config).toMatchObject({
        data_level: 'image_object',
        filter: { type: 'string', metadata_id: 'object.label', op: 'in', value: [entity.entity] },
      });
    // The B-only link in B's explorer: B's dog.
    const [dog] = await linkIds(id, b, sub.explore_config!);
    expect(dog).toMatch(/^pred:/);
  });

  it("gives the explorer its objects by the explorer's ids, each model's predictions apart", async () => {
    const { id, a, b } = await detection();
    const items = await t.services.comparison.items(systemActor('test'), await datasetRecord(id), {
      predictions_id_a: a,
      predictions_id_b: b,
    });
    expect(items.samples).toBeNull();
    const gtIds = await explorerIds(id, a, 'gt');
    expect([...items.groundTruth!.ids].sort()).toEqual([...gtIds].sort());
    expect(
      Object.values(byId(items.groundTruth))
        .map((v) => v.subcategory)
        .sort(),
    ).toEqual(['fn_a_tp_b', 'tp_a_fn_b', 'tp_a_tp_b']);
    // A's three predictions are A's explorer's predicted objects, B's three B's.
    expect([...items.predictionsA!.ids].sort()).toEqual(
      [...(await explorerIds(id, a, 'pred'))].sort(),
    );
    expect([...items.predictionsB!.ids].sort()).toEqual(
      [...(await explorerIds(id, b, 'pred'))].sort(),
    );
    expect(
      Object.values(byId(items.predictionsA))
        .map((v) => v.subcategory)
        .sort(),
    ).toEqual(['fp_a_unmatched_b', 'tp_a_tp_b', 'tp_a_unmatched_b']);
    expect(
      Object.values(byId(items.predictionsB))
        .map((v) => v.subcategory)
        .sort(),
    ).toEqual(['tp_a_tp_b', 'unmatched_a_fp_b', 'unmatched_a_tp_b']);
  });

  it('is computed again when the IoU threshold changes', async () => {
    const { id, a, b } = await detection();
    const body = { predictions_id_a: a, predictions_id_b: b, split: 'train' };
    const before = await compared(id, body);
    // train = s1: ground truths neutral (cat) and B better (dog); predictions: the cats' pair,
    // A's dog and B's dog.
    expect(counts(before.per_object_gt)).toEqual([0, 0, 1, 1]);
    expect(counts(before.per_object_pred)).toEqual([0, 0, 1, 2]);
    await admin.call(api.datasets.setIouThreshold, {
      params: { id },
      body: { iou_threshold: 0.75 },
    });
    const stale = await compare(id, body);
    expect(stale).toMatchObject({ status: 'computing', iou_threshold: 0.75 });
    const after = await compared(id, body);
    expect(after.iou_threshold).toBe(0.75);
    expect(after.data_version).toBeGreaterThan(before.data_version);
    expect(counts(after.per_object_gt)).toEqual([0, 0, 1, 1]);
  });
});

describe('semantic segmentation', () => {
  /**
   * 4×2 label maps, classes bg 0, road 1.
   *   m0 truth 0000 1111; A = truth; B 0001 1111 → bg IoU A 1, B 3/4; road A 1, B 4/5
   *   m1 truth 1111 1111; A 0111 1111 (road 7/8); B = truth (road 1)
   * Masks: m0 bg A better, m0 road A better, m1 road B better.
   */
  it('compares ground-truth masks, its samples holding their masks’ categories', async () => {
    const png = (pixels: number[]) =>
      sharp(Buffer.from(pixels), { raw: { width: 4, height: 2, channels: 1 } })
        .png()
        .toBuffer();
    const upload = async (id: string, pixels: number[]) =>
      (
        await admin.call(api.media.upload, {
          params: { id },
          body: await png(pixels),
          contentType: 'image/png',
        })
      ).key;
    const maps: [string, number[], number[], number[]][] = [
      ['m0', [0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1, 1]],
      ['m1', [1, 1, 1, 1, 1, 1, 1, 1], [0, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1]],
    ];
    const { id } = await admin.call(api.datasets.create, {
      body: {
        name: `Roads ${Math.random()}`,
        task_type: 'semantic_segmentation',
        class_names: ['bg', 'road'],
      },
    });
    const samples = [];
    for (const [sample, truth] of maps)
      samples.push({ id: sample, split: 'train', mask: await upload(id, truth) });
    await admin.call(api.samples.upload, { params: { id }, body: { samples } });
    const model = async (which: 2 | 3) => {
      const predictions = [];
      for (const map of maps) predictions.push({ id: map[0], mask: await upload(id, map[which]) });
      return secondModel(id, predictions);
    };
    const a = await model(2);
    const b = await model(3);
    await t.runner.drain();

    const answer = await compared(id, { predictions_id_a: a, predictions_id_b: b });
    expect(answer.per_sample!.unit).toBe('mask');
    expect(counts(answer.per_sample)).toEqual([2, 0, 0, 1]);
    expect(answer.per_sample!.model_a_is_better.explore_config).toMatchObject({
      data_level: 'image',
      filter: {
        type: 'string',
        metadata_id: 'comparison.categories',
        op: 'in',
        value: ['model_a_is_better'],
      },
    });
    expect(answer.per_sample!.distribution.explore_config).toBeNull();

    const items = await t.services.comparison.items(systemActor('test'), await datasetRecord(id), {
      predictions_id_a: a,
      predictions_id_b: b,
    });
    expect(byId(items.samples)).toEqual({
      m0: { category: null, subcategory: null, categories: 'model_a_is_better' },
      m1: { category: null, subcategory: null, categories: 'model_b_is_better' },
    });
  });
});

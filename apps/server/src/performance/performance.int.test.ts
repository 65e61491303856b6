// Model performance on a real server and database, on a small classification dataset: the job
// computes what @loupe/metrics computes on the same data (split by split), answers 'computing'
// first, follows a relabel; subset entries, metadata bins and selections checked by hand; the
// errors (404, 400, 413), the license gate of the toggle and who may call; the jobs as
// activities naming the model; the compute on the performance thread, equal to the same compute
// here, and its deadline failing the job at once.
import {
  api,
  MAX_SELECTION_PERFORMANCE_ITEMS,
  PERFORMANCE_MESSAGES,
  type Filter,
  type MetadataPerformanceResponse,
} from '@loupe/contracts';
import { classificationReport } from '@loupe/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentJobError } from '../jobs/job-types.js';
import { createRepositories } from '../repositories.js';
import { createDatasetWithModel } from '../testing/datasets.js';
import { whenReady } from '../testing/jobs.js';
import {
  addUser,
  type Client,
  refused,
  setUpInstance,
  startLicensedApp,
  startTestApp,
  type TestApp,
} from '../testing/test-app.js';
import { compute } from './compute.js';
import { EvaluationCache } from './evaluation-cache.js';
import { buildReport, PerformanceJobsService } from './performance-jobs.service.js';
import { PerformancePool } from './performance-pool.js';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterAll(() => t.close());

const CLASSES = ['cat', 'dog', 'bird'];

/**
 * Pets, upload order a..h (d has no prediction; f has no colour):
 *   id split label predicted score weight colour
 *   a  train cat   cat       0.9   1      red
 *   b  train dog   cat       0.6   2      red
 *   c  train bird  bird      0.8   3      blue
 *   d  train cat   –         –     4      blue
 *   e  val   dog   dog       0.7   5      red
 *   f  val   cat   dog       0.55  6      –
 *   g  val   bird  bird      0.95  10     green
 *   h  val   dog   dog       0.5   8      blue
 */
const PETS: [string, string, string, string | null, number, string | null][] = [
  ['a', 'train', 'cat', 'cat', 1, 'red'],
  ['b', 'train', 'dog', 'cat', 2, 'red'],
  ['c', 'train', 'bird', 'bird', 3, 'blue'],
  ['d', 'train', 'cat', null, 4, 'blue'],
  ['e', 'val', 'dog', 'dog', 5, 'red'],
  ['f', 'val', 'cat', 'dog', 6, null],
  ['g', 'val', 'bird', 'bird', 10, 'green'],
  ['h', 'val', 'dog', 'dog', 8, 'blue'],
];
const SCORES: Record<string, number> = { a: 0.9, b: 0.6, c: 0.8, e: 0.7, f: 0.55, g: 0.95, h: 0.5 };

function pets(): Promise<{ id: string; predictionSetId: string }> {
  return createDatasetWithModel(
    admin,
    { name: `Pets ${Math.random()}`, task_type: 'classification', class_names: CLASSES },
    PETS.map(([sample, split, label, , weight, color]) => ({
      id: sample,
      split,
      label,
      metadata: { weight, ...(color ? { color } : {}) },
    })),
    {
      predictions: PETS.filter((p) => p[3] !== null).map(([sample, , , predicted]) => ({
        id: sample,
        label: predicted!,
        score: SCORES[sample]!,
      })),
    },
  );
}

type Params = { id: string; predictionSetId: string };
const statistics = (params: Params, client = admin) =>
  client.call(api.performance.statistics, { params });
const overall = (params: Params) => admin.call(api.performance.overall, { params });

/**
 * What classificationReport says of some samples, with the report's conventions: samples without
 * a prediction are an extra class (wrong, nobody's false positive); averages over the classes
 * present in the labels or predictions.
 */
function expected(rows: { label: string; predicted: string | null }[]) {
  const K = CLASSES.length;
  const yTrue = rows.map((r) => CLASSES.indexOf(r.label));
  const yPred = rows.map((r) => (r.predicted === null ? K : CLASSES.indexOf(r.predicted)));
  const present = CLASSES.map((_, k) => k).filter((k) => yTrue.includes(k) || yPred.includes(k));
  const report = classificationReport(
    { numClasses: K + 1, yTrue, yPred },
    { averageOver: present },
  );
  return {
    accuracy: report.accuracy,
    macro_precision: report.macro.precision,
    macro_recall: report.macro.recall,
    macro_f1_score: report.macro.f1,
    count: rows.length,
    perClass: report.perClass.slice(0, K),
  };
}

function petsRows(split: string, relabel: Record<string, string> = {}) {
  return PETS.filter((p) => split === 'all' || p[1] === split).map(([id, , label, predicted]) => ({
    label: relabel[id] ?? label,
    predicted,
  }));
}

function valueOf(
  answer: {
    statistics: { metric_name: string; values: { split_name: string; value: number | null }[] }[];
  },
  metric: string,
  split: string,
): number | null | undefined {
  return answer.statistics
    .find((s) => s.metric_name === metric)
    ?.values.find((v) => v.split_name === split)?.value;
}

function expectStatistics(
  answer: Awaited<ReturnType<typeof statistics>>,
  relabel: Record<string, string> = {},
): void {
  for (const split of ['all', 'train', 'val']) {
    const want = expected(petsRows(split, relabel));
    for (const metric of [
      'accuracy',
      'macro_precision',
      'macro_recall',
      'macro_f1_score',
      'count',
    ] as const)
      expect(valueOf(answer, metric, split), `${metric} in ${split}`).toBeCloseTo(want[metric], 12);
    // Three classes: no equal error rate.
    expect(valueOf(answer, 'equal_error_rate', split)).toBeNull();
  }
}

describe('the report', () => {
  it('is computing first, then equals classificationReport in every split, and follows a relabel', async () => {
    const params = await pets();
    const first = await statistics(params);
    expect(first).toMatchObject({ status: 'computing', progress: 0, statistics: [] });

    const answer = await whenReady(t, () => statistics(params));
    expect(answer.splits).toEqual(['all', 'train', 'val']);
    expect(answer).toMatchObject({ num_items: 8, num_missing: 1, progress: 1 });
    expect(answer.data_version).toBe(first.data_version);
    expectStatistics(answer);

    const table = await overall(params);
    expect(table.status).toBe('ready');
    expect(table.primary_key).toBe('class');
    expect(table.metrics).toEqual(['f1_score', 'count', 'precision', 'recall']);
    for (const split of ['all', 'train', 'val']) {
      const want = expected(petsRows(split));
      const rows = table.splits.find((s) => s.split_name === split)!.rows;
      expect(rows.map((r) => r.key)).toEqual(CLASSES);
      rows.forEach((row, k) => {
        expect(row.values.count).toBe(want.perClass[k]!.support);
        expect(row.values.precision).toBeCloseTo(want.perClass[k]!.precision, 12);
        expect(row.values.recall).toBeCloseTo(want.perClass[k]!.recall, 12);
        expect(row.values.f1_score).toBeCloseTo(want.perClass[k]!.f1, 12);
      });
    }

    // b becomes a cat (the model said cat): the data version moves, the report is recomputed.
    await admin.call(api.curation.applyActions, {
      body: { actions: [{ type: 'update_label', dataset_id: params.id, updates: { cat: ['b'] } }] },
    });
    const stale = await statistics(params);
    expect(stale.status).toBe('computing');
    expect(stale.data_version).toBeGreaterThan(answer.data_version);
    const after = await whenReady(t, () => statistics(params));
    expectStatistics(after, { b: 'cat' });
    expect(valueOf(after, 'accuracy', 'train')).toBeCloseTo(3 / 4, 12);
  });

  it('has per-class precision-recall curves for three classes', async () => {
    const params = await pets();
    const curves = await whenReady(t, () => admin.call(api.performance.finegrained, { params }));
    expect(curves.kind).toBe('precision_recall');
    expect(curves.split_performance.map((s) => s.split_name)).toEqual(['all', 'train', 'val']);
    expect(curves.split_performance[0]!.performance.map((s) => s.name)).toEqual(CLASSES);
  });

  it('answers 404 for an unknown dataset or prediction set, and for a set of another dataset', async () => {
    const params = await pets();
    const other = await pets();
    const MISSING = '00000000-0000-4000-8000-000000000000';
    for (const wrong of [
      { id: MISSING, predictionSetId: params.predictionSetId },
      { id: params.id, predictionSetId: MISSING },
      { id: params.id, predictionSetId: other.predictionSetId },
    ]) {
      expect((await refused(statistics(wrong))).status).toBe(404);
      expect((await refused(admin.call(api.performance.subsets, { params: wrong }))).status).toBe(
        404,
      );
      const metadata = admin.call(api.performance.metadata, {
        params: wrong,
        body: { data_level: 'image', metadata_id: 'weight' },
      });
      expect((await refused(metadata)).status).toBe(404);
    }
  });
});

describe('subset performance', () => {
  it('computes the entries of enabled subsets per split, and follows their items', async () => {
    const params = await pets();
    const subset = await admin.call(api.subsets.create, {
      params: { id: params.id },
      body: { name: 'Mixed', data_level: 'image', item_ids: ['a', 'c', 'e', 'f'] },
    });
    const subsets = (split = 'all') =>
      admin.call(api.performance.subsets, { params, query: { split } });
    expect(await subsets()).toEqual({ performance_per_subset: {}, pending_subsets: [] });

    const toggled = await admin.call(api.performance.toggleSubset, {
      params: { id: params.id, subsetId: subset.id },
      body: { request_type: 'enable' },
    });
    expect(toggled).toMatchObject({ id: subset.id, enabled_for_performance: true, num_items: 4 });
    expect((await subsets()).pending_subsets).toEqual([subset.id]);
    await t.runner.drain();

    // a, c and e are right, f is wrong: 3/4 in all, 2/2 in train, 1/2 in val.
    const all = (await subsets()).performance_per_subset[subset.id]!;
    expect(all).toMatchObject({
      num_items_total: 4,
      num_items_used: 4,
      metric_name: 'accuracy',
      subset: { id: subset.id, name: 'Mixed', enabled_for_performance: true },
    });
    expect(all.performance_per_metric.accuracy).toBeCloseTo(3 / 4, 12);
    const train = (await subsets('train')).performance_per_subset[subset.id]!;
    expect(train.performance_per_metric.accuracy).toBe(1);
    const val = await subsets('val');
    expect(val.pending_subsets).toEqual([]);
    expect(val.performance_per_subset[subset.id]!.performance_per_metric.accuracy).toBe(0.5);
    expect(Object.keys(val.performance_per_subset[subset.id]!.performance_per_metric)).toEqual([
      'accuracy',
      'macro_precision',
      'macro_recall',
      'macro_f1_score',
    ]);

    // Choosing the metric needs no recomputation.
    await admin.call(api.performance.toggleSubset, {
      params: { id: params.id, subsetId: subset.id },
      body: { metric_name: 'macro_f1_score' },
    });
    const chosen = await subsets();
    expect(chosen.pending_subsets).toEqual([]);
    expect(chosen.performance_per_subset[subset.id]!.metric_name).toBe('macro_f1_score');

    // d (no prediction) joins: pending again, then 3/5 with 4 of 5 items used.
    await admin.call(api.subsets.update, {
      params: { id: params.id, subsetId: subset.id },
      body: { added_item_ids: ['d'] },
    });
    expect((await subsets()).pending_subsets).toEqual([subset.id]);
    await t.runner.drain();
    const grown = (await subsets()).performance_per_subset[subset.id]!;
    expect(grown).toMatchObject({ num_items_total: 5, num_items_used: 4 });
    expect(grown.performance_per_metric.accuracy).toBeCloseTo(3 / 5, 12);

    // Disabled: no entry, nothing pending.
    await admin.call(api.performance.toggleSubset, {
      params: { id: params.id, subsetId: subset.id },
      body: { request_type: 'disable' },
    });
    expect(await subsets()).toEqual({ performance_per_subset: {}, pending_subsets: [] });
  });

  it('refuses an unknown metric, subset or split', async () => {
    const params = await pets();
    const subset = await admin.call(api.subsets.create, {
      params: { id: params.id },
      body: { name: 'A', data_level: 'image', item_ids: ['a'] },
    });
    const metric = await refused(
      admin.call(api.performance.toggleSubset, {
        params: { id: params.id, subsetId: subset.id },
        body: { metric_name: 'mAP_COCO' },
      }),
    );
    expect(metric.status).toBe(400);
    expect(metric.description).toContain('body.metric_name');
    const unknown = await refused(
      admin.call(api.performance.toggleSubset, {
        params: { id: params.id, subsetId: '00000000-0000-4000-8000-000000000000' },
        body: { request_type: 'enable' },
      }),
    );
    expect(unknown.status).toBe(404);
    const split = await refused(
      admin.call(api.performance.subsets, { params, query: { split: 'test' } }),
    );
    expect(split.status).toBe(400);
    expect(split.description).toContain('query.split');
  });

  it('is a license-gated toggle that members may use; reading needs no license', async () => {
    const params = await pets();
    const subset = await admin.call(api.subsets.create, {
      params: { id: params.id },
      body: { name: 'B', data_level: 'image', item_ids: ['b'] },
    });
    const { client: member } = await addUser(t.app, admin, { email: 'ben@example.com' });
    await member.call(api.performance.toggleSubset, {
      params: { id: params.id, subsetId: subset.id },
      body: { request_type: 'enable' },
    });
    expect((await statistics(params, member)).status).toBe('computing');

    const unlicensed = await startTestApp();
    try {
      const owner = await setUpInstance(unlicensed.app);
      const answer = await owner.call({
        method: 'PUT',
        url: `/api/datasets/${params.id}/subsets/${subset.id}/performance`,
        body: { request_type: 'enable' },
      });
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual({ description: expect.any(String), retriable: false });
    } finally {
      await unlicensed.close();
    }
  });
});

describe('metadata performance', () => {
  const metadata = (params: Params, body: Record<string, unknown>) =>
    admin.call(api.performance.metadata, {
      params,
      body: { data_level: 'image', metadata_id: 'color', ...body },
    });
  const itemIds = async (id: string, filter: Filter | null) =>
    (
      await admin.call(api.explore.itemIds, {
        params: { id },
        body: { data_level: 'image', format: 'ids', filter, sort: [] },
      })
    ).item_ids;
  const bin = (answer: MetadataPerformanceResponse, i: number, split: string) => {
    const b = answer.performance_per_bin[i]!;
    const value = b.metrics[0]!.values.find((v) => v.split_name === split)!;
    return {
      bin: b.bin,
      start: b.bin_start,
      end: b.bin_end,
      value: value.value,
      count: value.count,
      config: value.explore_config,
    };
  };

  it('bins a categorical field by value, most frequent first, missing last', async () => {
    const params = await pets();
    const answer = await metadata(params, { metrics: ['accuracy'] });
    expect(answer).toMatchObject({
      metadata_type: 'categorical',
      metadata_id: 'color',
      iou_threshold: null,
      splits: ['all', 'train', 'val'],
    });
    // blue: c ✓ d ✗ h ✓; red: a ✓ b ✗ e ✓; green: g ✓; missing: f ✗.
    expect(answer.performance_per_bin.map((b) => b.bin)).toEqual(['blue', 'red', 'green', null]);
    expect(bin(answer, 0, 'all')).toMatchObject({ value: 2 / 3, count: 3 });
    expect(bin(answer, 0, 'train')).toMatchObject({ value: 0.5, count: 2 });
    expect(bin(answer, 0, 'val')).toMatchObject({ value: 1, count: 1 });
    expect(bin(answer, 1, 'all')).toMatchObject({ value: 2 / 3, count: 3 });
    expect(bin(answer, 2, 'all')).toMatchObject({ value: 1, count: 1 });
    expect(bin(answer, 2, 'train')).toMatchObject({ value: null, count: 0 });
    expect(bin(answer, 3, 'all')).toMatchObject({ value: 0, count: 1 });
    expect(answer.performance_per_bin[0]!.counts).toEqual([
      { split_name: 'all', count: 3 },
      { split_name: 'train', count: 2 },
      { split_name: 'val', count: 1 },
    ]);
    expect(answer.performance_per_bin[0]!.metrics.map((m) => m.metric_name)).toEqual(['accuracy']);
    // Each bin's explorer view shows exactly its items.
    expect(bin(answer, 0, 'val').config).toMatchObject({
      data_level: 'image',
      sort_by: null,
      visible_metadata_ids: ['color'],
    });
    expect(await itemIds(params.id, bin(answer, 0, 'val').config.filter)).toEqual(['h']);
    expect(await itemIds(params.id, bin(answer, 1, 'all').config.filter)).toEqual(['a', 'b', 'e']);
    expect(await itemIds(params.id, bin(answer, 3, 'all').config.filter)).toEqual(['f']);
  });

  it('bins a continuous field into equal-width bins over its range', async () => {
    const params = await pets();
    const answer = await metadata(params, { metadata_id: 'weight', max_num_bins: 3 });
    expect(answer.metadata_type).toBe('continuous');
    // weights 1..10 in bins [1, 4), [4, 7), [7, 10]: a b c | d e f | h g.
    expect(answer.performance_per_bin.map((b) => [b.bin_start, b.bin_end])).toEqual([
      [1, 4],
      [4, 7],
      [7, 10],
    ]);
    expect(answer.performance_per_bin[0]!.metrics.map((m) => m.metric_name)).toEqual([
      'accuracy',
      'macro_precision',
      'macro_recall',
      'macro_f1_score',
    ]);
    expect(bin(answer, 0, 'all')).toMatchObject({ value: 2 / 3, count: 3 });
    expect(bin(answer, 1, 'all')).toMatchObject({ value: 1 / 3, count: 3 });
    expect(bin(answer, 2, 'all')).toMatchObject({ value: 1, count: 2 });
    expect(await itemIds(params.id, bin(answer, 0, 'all').config.filter)).toEqual(['a', 'b', 'c']);
    expect(await itemIds(params.id, bin(answer, 1, 'train').config.filter)).toEqual(['d']);
    expect(await itemIds(params.id, bin(answer, 2, 'all').config.filter)).toEqual(['g', 'h']);
  });

  it('refuses an unknown field, an unknown or no metric, and a level the task lacks', async () => {
    const params = await pets();
    const cases: [Record<string, unknown>, string][] = [
      [{ metadata_id: 'nope' }, 'body.metadata_id'],
      [{ metrics: ['accuracy', 'mAP_COCO'] }, 'body.metrics[1]'],
      [{ metrics: [] }, PERFORMANCE_MESSAGES.atLeastOneMetric],
      [{ data_level: 'image_object' }, 'body.data_level'],
    ];
    for (const [body, message] of cases) {
      const error = await refused(metadata(params, body));
      expect(error.status).toBe(400);
      expect(error.description).toContain(message);
    }
  });
});

describe('metadata performance of a field being recomputed', () => {
  it("is refused with the explorer's 400", async () => {
    const params = await pets();
    await t.database.db
      .updateTable('metadata_fields')
      .set({ state: 'pending' })
      .where('dataset_id', '=', params.id)
      .where('id', '=', 'weight')
      .execute();
    const error = await refused(
      admin.call(api.performance.metadata, {
        params,
        body: { data_level: 'image', metadata_id: 'weight' },
      }),
    );
    expect(error.status).toBe(400);
    expect(error.description).toBe(
      "body.metadata_id: metadata field 'weight' is being recomputed; try again when it is available.",
    );
    // The explorer says the same of a histogram of it.
    const histogram = await refused(
      admin.call(api.explore.histogram, {
        params: { id: params.id },
        body: { data_level: 'image', metadata_id: 'weight' },
      }),
    );
    expect(histogram).toMatchObject({ status: 400, description: error.description });
  });
});

describe('selection performance', () => {
  const summary = (params: Params, body: Record<string, unknown>) =>
    admin.call(api.performance.itemsSummary, { params, body: { data_level: 'image', ...body } });

  it('measures a selection, a filter and a subset', async () => {
    const params = await pets();
    const selection = await summary(params, { item_ids: ['a', 'b', 'c', 'd', 'unknown'] });
    expect(selection).toMatchObject({ num_items: 4, num_items_used: 3, iou_threshold: null });
    expect(selection.metrics.find((m) => m.metric_name === 'accuracy')!.value).toBe(0.5);
    const want = expected(petsRows('train'));
    expect(selection.metrics.find((m) => m.metric_name === 'macro_f1_score')!.value).toBeCloseTo(
      want.macro_f1_score,
      12,
    );

    const red = await summary(params, {
      filter: { type: 'string', metadata_id: 'color', op: 'in', value: ['red'] },
    });
    expect(red.num_items).toBe(3);
    expect(red.metrics[0]).toEqual({ metric_name: 'accuracy', value: 2 / 3 });

    const subset = await admin.call(api.subsets.create, {
      params: { id: params.id },
      body: { name: 'GH', data_level: 'image', item_ids: ['g', 'h'] },
    });
    const inSubset = await summary(params, { subset_id: subset.id });
    expect(inSubset).toMatchObject({ num_items: 2, num_items_used: 2 });
    expect(inSubset.metrics[0]!.value).toBe(1);
  });

  it(`answers 413 above ${MAX_SELECTION_PERFORMANCE_ITEMS} items`, async () => {
    const params = await pets();
    const ids = Array.from({ length: MAX_SELECTION_PERFORMANCE_ITEMS + 1 }, (_, i) => `i${i}`);
    const error = await refused(summary(params, { item_ids: ids }));
    expect(error.status).toBe(413);
    expect(error.description).toBe(PERFORMANCE_MESSAGES.tooManyItems);
  });
});

describe('the performance jobs as activities', () => {
  it('name the model, one job per prediction set and data version', async () => {
    const params = await pets();
    await statistics(params);
    await statistics(params);
    await admin.call(api.performance.finegrained, { params });
    const mine = async () =>
      (await admin.call(api.activities.list, { query: { scope: 'all' } })).filter(
        // The uploads' health checks are the dataset's, not the model's.
        (a) => a.dataset_id === params.id && a.job_type !== 'QualityScoresComputation',
      );
    const waiting = await mine();
    expect(waiting.map((a) => a.job_type).sort()).toEqual([
      'FinegrainedPerformanceComputation',
      'PerformanceReportComputation',
    ]);
    for (const activity of waiting)
      expect(activity).toMatchObject({
        predictions_id: params.predictionSetId,
        status: 'PENDING',
      });
    await t.runner.drain();
    for (const activity of await mine())
      expect(activity).toMatchObject({
        predictions_id: params.predictionSetId,
        status: 'SUCCESS',
      });
    // Current results enqueue nothing more.
    await statistics(params);
    expect(await mine()).toHaveLength(2);
  });
});

describe('the performance thread', () => {
  it('computes the report the job stores, equal to the same compute on this thread', async () => {
    const params = await pets();
    const pool = t.services.performanceCompute;
    const before = { ...pool.counts };
    const answer = await whenReady(t, () => statistics(params));
    const table = await overall(params);
    // Three splits' reports and the coverage ran on the thread.
    expect(pool.counts.tasks - before.tasks).toBeGreaterThanOrEqual(4);
    expect(pool.counts.loads).toBeGreaterThan(before.loads);

    const repos = createRepositories(t.database.db, t.database.dialect);
    const dataset = (await repos.datasets.find(params.id))!;
    const evaluation = await new EvaluationCache({
      repo: repos.performance,
      readMedia: () => Promise.reject(new Error('no media')),
    }).get(dataset, params.predictionSetId);
    const here = await buildReport(
      evaluation,
      { run: (e, task) => Promise.resolve(compute(e, task)) },
      () => Promise.resolve(),
    );
    const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
    expect({
      splits: answer.splits,
      num_items: answer.num_items,
      num_missing: answer.num_missing,
      statistics: answer.statistics,
    }).toEqual(
      json({
        splits: here.splits,
        num_items: here.num_items,
        num_missing: here.num_missing,
        statistics: here.statistics,
      }),
    );
    expect({
      primary_key: table.primary_key,
      metrics: table.metrics,
      splits: table.splits,
    }).toEqual(json(here.overall));

    // Metadata and selection performance are measured there too.
    const tasks = pool.counts.tasks;
    await admin.call(api.performance.metadata, {
      params,
      body: { data_level: 'image', metadata_id: 'color' },
    });
    await admin.call(api.performance.itemsSummary, {
      params,
      body: { data_level: 'image', item_ids: ['a', 'b'] },
    });
    expect(pool.counts.tasks - tasks).toBe(2);
  });

  it('is started while the job loads its data, and the job computes on that thread', async () => {
    const params = await pets();
    const repos = createRepositories(t.database.db, t.database.dialect);
    const dataset = (await repos.datasets.find(params.id))!;
    const pool = new PerformancePool();
    try {
      expect(pool.threadStarts).toBe(0);
      let startedWhileLoading = -1;
      const jobs = new PerformanceJobsService(
        repos,
        {
          get: (...args: Parameters<EvaluationCache['get']>) => {
            startedWhileLoading = pool.threadStarts;
            return new EvaluationCache({
              repo: repos.performance,
              readMedia: () => Promise.reject(new Error('no media')),
            }).get(...args);
          },
        },
        pool,
        t.clock.read,
      );
      await jobs.computeReport(
        {
          dataset_id: params.id,
          prediction_set_id: params.predictionSetId,
          data_version: dataset.data_version,
        },
        1,
        () => Promise.resolve(),
      );
      expect(startedWhileLoading).toBe(1);
      expect(pool.counts.tasks).toBeGreaterThan(0);
      expect(pool.threadStarts).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('fails the job at once, with a clear error, when a step overruns its deadline', async () => {
    const params = await pets();
    const repos = createRepositories(t.database.db, t.database.dialect);
    const dataset = (await repos.datasets.find(params.id))!;
    // A deadline nothing can meet: the thread is ended and the job fails without retries.
    const pool = new PerformancePool({ timeoutMs: 1 });
    try {
      const jobs = new PerformanceJobsService(
        repos,
        new EvaluationCache({
          repo: repos.performance,
          readMedia: () => Promise.reject(new Error()),
        }),
        pool,
        t.clock.read,
      );
      const run = jobs.computeReport(
        {
          dataset_id: params.id,
          prediction_set_id: params.predictionSetId,
          data_version: dataset.data_version,
        },
        1,
        () => Promise.resolve(),
      );
      await expect(run).rejects.toBeInstanceOf(PermanentJobError);
      await expect(run).rejects.toThrow('Computing model performance took longer than');
    } finally {
      await pool.close();
    }
    const failed = await statistics(params);
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('Computing model performance took longer than');
  });
});

// The health-checks framework on a real server and database, with the tiny test definitions of
// test-definitions.ts (each flags items by a rule worked out by hand below): statuses (pending,
// failed, passed, missing requirements, error, disabled) and the list's order and summary; only
// checks whose inputs changed rerun; params validation; custom checks; ignoring items; the
// explorer's check fields; licensing; and the overview's issues_count.
import {
  api,
  CHECK_MESSAGES,
  checkFailedField,
  checkIgnoredField,
  type ChecksListResponse,
  type HealthCheckOverview,
} from '@loupe/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatasetWithModel } from '../testing/datasets.js';
import {
  refused,
  setUpInstance,
  startLicensedApp,
  startTestApp,
  type Client,
  type TestApp,
} from '../testing/test-app.js';
import { siblingModule } from './definition-sources.js';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  ({ t, admin } = await startLicensedApp());
  t.services.checkCatalogue.use([
    { url: siblingModule(import.meta.url, './test-definitions'), exportName: 'testChecks' },
  ]);
});
afterAll(() => t.close());

const MISSING = '00000000-0000-4000-8000-000000000000';

// s3 and s4 are in split 'bad' (test_split flags them, scores = their rows 2 and 3); s1 and s4
// are labelled 'cat' (test_label); the model's most probable class differs from the label for s2
// only (test_model).
const SAMPLES = [
  { id: 's1', split: 'train', label: 'cat' },
  { id: 's2', split: 'train', label: 'dog' },
  { id: 's3', split: 'bad', label: 'dog' },
  { id: 's4', split: 'bad', label: 'cat' },
  { id: 's5', split: 'val', label: 'dog' },
  { id: 's6', split: 'val', label: 'dog' },
];
const PREDICTIONS = SAMPLES.map((s) => {
  const cat = s.id === 's2' ? true : s.label === 'cat';
  return { id: s.id, label: cat ? 'cat' : 'dog', probabilities: cat ? [0.8, 0.2] : [0.3, 0.7] };
});

const DATASET = { task_type: 'classification' as const, class_names: ['cat', 'dog'] };

async function dataset() {
  return createDatasetWithModel(admin, { name: `checks ${Math.random()}`, ...DATASET }, SAMPLES, {
    predictions: PREDICTIONS,
  });
}

/** A dataset without prediction sets. */
async function dataOnly(): Promise<string> {
  const { id } = await admin.call(api.datasets.create, {
    body: { name: `data ${Math.random()}`, ...DATASET },
  });
  await admin.call(api.samples.upload, { params: { id }, body: { samples: SAMPLES } });
  return id;
}

const list = (id: string, client = admin) =>
  client.call(api.healthChecks.list, { params: { id }, query: {} });
const getCheck = (id: string, checkId: string) =>
  admin.call(api.healthChecks.get, { params: { id, checkId }, query: {} });

async function computed(id: string): Promise<ChecksListResponse> {
  await t.runner.drain();
  return list(id);
}

function byId(answer: ChecksListResponse): Record<string, HealthCheckOverview> {
  return Object.fromEntries(answer.checks.map((c) => [c.id, c]));
}

function failedIds(id: string, checkId: string, field = checkFailedField(checkId)) {
  return admin
    .call(api.explore.itemIds, {
      params: { id },
      body: {
        data_level: 'image',
        filter: { type: 'boolean', metadata_id: field, op: 'bool_equals', value: true },
        format: 'ids',
      },
    })
    .then((a) => [...a.item_ids!].sort());
}

describe('statuses', () => {
  it('answers pending until the job ran, then each status, in the list order', async () => {
    const { id, predictionSetId } = await dataset();
    const before = await list(id);
    expect(new Set(before.checks.map((c) => c.status.type))).toEqual(new Set(['pending_check']));
    expect(before.predictions_id).toBe(predictionSetId);

    const after = await computed(id);
    const checks = byId(after);
    expect(checks['test_split.image']!.status).toMatchObject({
      type: 'failed_check',
      evidence_summary: '2 flagged items',
      checked_items_summary: { num_items_failed: 2, num_items_checked: 6, num_items_total: 6 },
    });
    expect(checks['test_label.image']!.status.type).toBe('failed_check');
    expect(checks['test_model.image']!.status).toMatchObject({
      type: 'failed_check',
      checked_items_summary: { num_items_failed: 1, predictions_id: predictionSetId },
    });
    expect(checks['test_metadata.image']!.status).toEqual({
      type: 'missing_req_check',
      requirements: [expect.objectContaining({ kind: 'metadata', name: 'image.not_there' })],
    });
    expect(checks['test_error.image']!.status).toEqual({
      type: 'failed_to_compute_check',
      message: 'The test check failed on purpose.',
    });
    // Groups in the catalogue's order; statuses within Image Quality: missing before error.
    expect(after.checks.map((c) => c.id)).toEqual([
      'test_label.image',
      'test_model.image',
      'test_split.image',
      'test_metadata.image',
      'test_error.image',
    ]);
    // 0 of 5 enabled checks passed.
    expect(after.summary).toEqual({
      num_failed: 3,
      num_passed: 0,
      num_pending: 0,
      num_enabled: 5,
      passing_percentage: 0,
    });
    expect(checks['test_split.image']!.fields.map((f) => f.id)).toEqual([
      'checks.test_split.image.failed',
      'checks.test_split.image.ignored',
      'checks.test_split.image.score',
    ]);
  });

  it('names the missing prediction set of a model check without one', async () => {
    const id = await dataOnly();
    const checks = byId(await computed(id));
    expect(checks['test_model.image']!.status).toEqual({
      type: 'missing_req_check',
      requirements: [
        {
          kind: 'predictions',
          data_level: 'image',
          message: 'Upload predictions with class probabilities',
        },
      ],
    });
  });

  it('names missing probabilities of a model check with a prediction set without them', async () => {
    const { id } = await createDatasetWithModel(
      admin,
      { name: `labels only ${Math.random()}`, ...DATASET },
      SAMPLES,
      { predictions: SAMPLES.map((s) => ({ id: s.id, label: 'dog' })) },
    );
    const checks = byId(await computed(id));
    expect(checks['test_model.image']!.status).toEqual({
      type: 'missing_req_check',
      requirements: [
        {
          kind: 'predictions',
          data_level: 'image',
          message: 'Upload predictions with class probabilities',
        },
      ],
    });
  });

  it('answers the evaluation with the items evidence and the overview issues_count', async () => {
    const { id } = await dataset();
    await computed(id);
    const { check, evaluation } = await getCheck(id, 'test_split.image');
    expect(check.status.type).toBe('failed_check');
    expect(evaluation!.type).toBe('fail');
    expect(evaluation!.evidence[0]).toEqual({
      type: 'items',
      title: '2 flagged items',
      num_items: 2,
      items_preview_config: {
        data_level: 'image',
        filter: {
          type: 'boolean',
          metadata_id: 'checks.test_split.image.failed',
          op: 'bool_equals',
          value: true,
        },
        sort_by: [{ name: 'checks.test_split.image.score', direction: 'descending' }],
        visible_metadata_ids: ['checks.test_split.image.score', 'split'],
      },
    });
    const overview = await admin.call(api.datasets.get, { params: { id } });
    expect(overview.issues_count).toBe(3);
    expect(await failedIds(id, 'test_split.image')).toEqual(['s3', 's4']);
    await refused(getCheck(id, 'nope.image')).then((e) => {
      expect(e.status).toBe(404);
      expect(e.description).toBe(CHECK_MESSAGES.notFound('nope.image'));
    });
  });

  it('keeps a disabled check out of the summary and its result', async () => {
    const { id } = await dataset();
    await computed(id);
    await admin.call(api.healthChecks.settings, {
      params: { id, checkId: 'test_error.image' },
      body: { enabled: false },
    });
    const answer = await list(id);
    expect(byId(answer)['test_error.image']!.status).toEqual({ type: 'disabled_check' });
    expect(answer.summary.num_enabled).toBe(4);
  });
});

describe('reruns', () => {
  it('reruns only the checks whose declared inputs changed', async () => {
    const { id } = await dataset();
    await computed(id);
    const runs = t.services.checksCompute.runs;
    const splitRuns = runs.get('test_split.image');
    const labelRuns = runs.get('test_label.image')!;
    // A label edit: test_label reads labels, test_split only splits.
    await admin.call(api.curation.applyActions, {
      body: { actions: [{ type: 'update_label', dataset_id: id, updates: { cat: ['s2'] } }] },
    });
    expect(byId(await list(id))['test_label.image']!.status.type).toBe('pending_check');
    const after = byId(await computed(id));
    expect(runs.get('test_split.image')).toBe(splitRuns);
    expect(runs.get('test_label.image')).toBe(labelRuns + 1);
    // s1, s2 and s4 are cats now; test_split's kept result is current again.
    expect(after['test_label.image']!.status).toMatchObject({
      checked_items_summary: { num_items_failed: 3 },
    });
    expect(after['test_split.image']!.status.type).toBe('failed_check');
  });

  it('says it is computing while a run asked for with unchanged data is queued, and reruns only what failed', async () => {
    const { id } = await dataset();
    const before = await computed(id);
    expect(before.computing).toBe(false);
    const runs = new Map(t.services.checksCompute.runs);
    await admin.call(api.healthChecks.run, { params: { id } });
    const asked = await list(id);
    expect(asked.computing).toBe(true);
    // The results stay current: nothing turns pending.
    expect(asked.checks.map((c) => c.status.type)).toEqual(before.checks.map((c) => c.status.type));
    const after = await computed(id);
    expect(after.computing).toBe(false);
    // Only the check whose last run threw runs again.
    runs.set('test_error.image', runs.get('test_error.image')! + 1);
    expect(t.services.checksCompute.runs).toEqual(runs);
  });
});

describe('params', () => {
  it('refuses values outside the param, naming it, and recomputes with valid ones', async () => {
    const { id } = await dataset();
    await computed(id);
    const configure = (params: Record<string, unknown>) =>
      admin.call(api.healthChecks.configure, {
        params: { id, checkId: 'test_split.image' },
        body: { params: params as never },
      });
    for (const [params, text] of [
      [{ min_count: 101 }, 'body.params.min_count: must be at most 100.'],
      [{ min_count: 1.5 }, 'body.params.min_count: must be an integer.'],
      [{ ratio: 'x' }, 'body.params.ratio: must be a number.'],
      [{ other: 1 }, "body.params.other: the check has no param 'other'."],
    ] as const) {
      const error = await refused(configure(params));
      expect(error.status).toBe(400);
      expect(error.description).toBe(text);
    }
    // 2 samples in 'bad' < 3: nothing flagged.
    await configure({ min_count: 3 });
    const check = byId(await list(id))['test_split.image']!;
    expect(check.status.type).toBe('pending_check');
    expect(check.config.params.min_count).toMatchObject({ value: 3 });
    expect(byId(await computed(id))['test_split.image']!.status.type).toBe('passed_check');
  });
});

describe('custom checks', () => {
  it('creates, configures and deletes a custom check from a filter', async () => {
    const { id } = await dataset();
    const filter = {
      filter: { type: 'string' as const, metadata_id: 'split', op: 'in' as const, value: ['val'] },
      include_missing: false,
      data_level: 'image' as const,
    };
    const { check_id } = await admin.call(api.healthChecks.create, {
      params: { id },
      body: { check_key: 'data_check_from_filter', config: { check_name: 'Val items', filter } },
    });
    expect(check_id).toMatch(/^custom\./);
    const duplicate = await refused(
      admin.call(api.healthChecks.create, {
        params: { id },
        body: { check_key: 'data_check_from_filter', config: { check_name: 'Val items', filter } },
      }),
    );
    expect([duplicate.status, duplicate.description]).toEqual([409, 'Name already exists.']);
    const check = byId(await computed(id))[check_id]!;
    expect(check).toMatchObject({ name: 'Val items', group: 'Custom Checks', type: 'custom' });
    expect(check.status).toMatchObject({
      type: 'failed_check',
      checked_items_summary: { num_items_failed: 2 },
    });
    expect(await failedIds(id, check_id)).toEqual(['s5', 's6']);

    await admin.call(api.healthChecks.configure, {
      params: { id, checkId: check_id },
      body: {
        params: {
          check_name: 'Train items',
          filter: { ...filter, filter: { ...filter.filter, value: ['train'] } },
        },
      },
    });
    const renamed = byId(await computed(id))[check_id]!;
    expect(renamed.name).toBe('Train items');
    expect(await failedIds(id, check_id)).toEqual(['s1', 's2']);

    const notCustom = await refused(
      admin.call(api.healthChecks.remove, { params: { id, checkId: 'test_split.image' } }),
    );
    expect([notCustom.status, notCustom.description]).toEqual([
      400,
      'Only custom health checks can be deleted.',
    ]);
    await admin.call(api.healthChecks.remove, { params: { id, checkId: check_id } });
    expect(byId(await list(id))[check_id]).toBeUndefined();
  });
});

describe('ignoring items', () => {
  it('takes ignored items out of the status, the evaluation and the explorer fields', async () => {
    const { id } = await dataset();
    await computed(id);
    const ignore = (ignored: boolean, ids: string[]) =>
      admin.call(api.curation.applyActions, {
        body: {
          actions: [
            {
              type: 'check_ignore_items',
              dataset_id: id,
              check_id: 'test_split.image',
              ignore: ignored,
              item_ids: ids,
            },
          ],
        },
      });
    await ignore(true, ['s3']);
    let check = (await getCheck(id, 'test_split.image')).check;
    expect(check.status).toMatchObject({
      type: 'failed_check',
      checked_items_summary: { num_items_failed: 1, num_items_ignored: 1 },
    });
    expect(await failedIds(id, 'test_split.image')).toEqual(['s4']);
    expect(await failedIds(id, 'test_split.image', checkIgnoredField('test_split.image'))).toEqual([
      's3',
    ]);

    await ignore(true, ['s4']);
    const answer = await getCheck(id, 'test_split.image');
    expect(answer.check.status.type).toBe('passed_check');
    expect(answer.evaluation!.type).toBe('pass');
    expect(answer.evaluation!.recommendation).toBeNull();
    expect((await admin.call(api.datasets.get, { params: { id } })).issues_count).toBe(2);

    await ignore(false, ['s3', 's4']);
    check = (await getCheck(id, 'test_split.image')).check;
    expect(check.status.type).toBe('failed_check');
    expect(await failedIds(id, 'test_split.image')).toEqual(['s3', 's4']);
  });

  it('refuses an action naming a check the dataset does not have', async () => {
    const { id } = await dataset();
    const error = await refused(
      admin.call(api.curation.applyActions, {
        body: {
          actions: [
            { type: 'update_label', dataset_id: id, updates: { cat: ['s2'] }, check_id: 'x.image' },
          ],
        },
      }),
    );
    expect([error.status, error.description]).toEqual([404, "No health check with id 'x.image'."]);
  });
});

describe('licensing', () => {
  it('needs a license to run, create, configure, enable and delete', async () => {
    const unlicensed = await startTestApp();
    try {
      const owner = await setUpInstance(unlicensed.app);
      const base = `/api/datasets/${MISSING}/checks`;
      for (const call of [
        { method: 'POST' as const, url: `${base}/run` },
        {
          method: 'POST' as const,
          url: base,
          body: {
            check_key: 'data_check_from_filter',
            config: {
              check_name: 'x',
              filter: {
                filter: { type: 'boolean', metadata_id: 'a', op: 'bool_equals', value: true },
                data_level: 'image',
              },
            },
          },
        },
        { method: 'PUT' as const, url: `${base}/a.image`, body: { params: {} } },
        { method: 'PUT' as const, url: `${base}/settings/a.image`, body: { enabled: true } },
        { method: 'DELETE' as const, url: `${base}/a.image` },
      ]) {
        const answer = await owner.call(call);
        expect(answer.statusCode, call.url).toBe(403);
      }
    } finally {
      await unlicensed.close();
    }
  });
});

// The list, card and configure rules against small hand-made cases.
import type { CheckParam, CheckStatusType, Recommendation } from '@loupe/contracts';
import { CHECK_LIST_POLL_MS, CHECK_POLL_MS } from '@loupe/contracts';
import { describe, expect, test } from 'vitest';
import { healthCheckQuery, healthChecksQuery } from '../../api/queries/healthChecks';
import { toRequests, type PendingChange } from '../curation';
import {
  buttonLabel,
  cardOutcome,
  changedParams,
  explorerLink,
  failedView,
  groupChecks,
  selectionGroupsFrom,
  sortChecks,
  summaryLine,
  toggleItem,
  visibleChecks,
  visibleRows,
} from './checkRules';
import { check, DATASET_ID, failed, itemsEvaluation, passed, listAnswer } from './testData';

const withStatus = (id: string, type: CheckStatusType) => {
  const status =
    type === 'failed_check'
      ? failed()
      : type === 'passed_check'
        ? passed()
        : type === 'missing_req_check'
          ? { type, requirements: [] }
          : type === 'failed_to_compute_check'
            ? { type, message: 'boom' }
            : { type };
  return check(id, { status } as never);
};

describe('list order', () => {
  test('by status first (failed, passed, computing, missing, error, disabled), then as given', () => {
    const checks = [
      withStatus('a', 'disabled_check'),
      withStatus('b', 'passed_check'),
      withStatus('c', 'failed_to_compute_check'),
      withStatus('d', 'failed_check'),
      withStatus('e', 'pending_check'),
      withStatus('f', 'passed_check'),
      withStatus('g', 'missing_req_check'),
      withStatus('h', 'failed_check'),
    ];
    expect(sortChecks(checks).map((c) => c.id)).toEqual(['d', 'h', 'b', 'f', 'e', 'g', 'c', 'a']);
  });

  test('groups in the catalogue order, empty ones left out', () => {
    const checks = [
      check('custom.1', { group: 'Custom Checks' }),
      check('dark.image', { group: 'Image Quality' }),
      check('duplicate.image', { group: 'Data Leakage & Duplicates' }),
      check('outlier.image', { group: 'Outliers', status: failed() }),
      check('bright.image', { group: 'Image Quality', status: failed() }),
    ];
    expect(groupChecks(checks).map((g) => [g.group, g.checks.map((c) => c.id)])).toEqual([
      ['Data Leakage & Duplicates', ['duplicate.image']],
      ['Outliers', ['outlier.image']],
      ['Image Quality', ['bright.image', 'dark.image']],
      ['Custom Checks', ['custom.1']],
    ]);
  });

  test('a group of more than 6 shows 3 and counts the rest; 6 show all', () => {
    const seven = ['1', '2', '3', '4', '5', '6', '7'];
    expect(visibleChecks(seven, false)).toEqual({
      shown: ['1', '2', '3'],
      collapsible: true,
      extra: 4,
    });
    expect(visibleChecks(seven, true)).toEqual({ shown: seven, collapsible: true, extra: 4 });
    expect(visibleChecks(seven.slice(0, 6), false)).toEqual({
      shown: seven.slice(0, 6),
      collapsible: false,
      extra: 0,
    });
  });

  test('tables of more than 4 rows show 3', () => {
    expect(visibleRows([1, 2, 3, 4], false)).toEqual([1, 2, 3, 4]);
    expect(visibleRows([1, 2, 3, 4, 5], false)).toEqual([1, 2, 3]);
    expect(visibleRows([1, 2, 3, 4, 5], true)).toEqual([1, 2, 3, 4, 5]);
  });
});

test('summary lines', () => {
  expect(summaryLine(check('a', { status: failed('12 groups of duplicates (31 items)') }))).toBe(
    '12 groups of duplicates (31 items)',
  );
  expect(summaryLine(check('a', { status: passed(40) }))).toBe('40 items have been checked');
  expect(summaryLine(check('a', { status: passed(null) }))).toBe('All items passed');
  expect(summaryLine(withStatus('a', 'failed_to_compute_check'))).toBe(
    'Failed to Compute health check',
  );
  expect(summaryLine(withStatus('a', 'pending_check'))).toBeNull();
});

test('polling: the list every 3 s and a check every 5 s, only while pending or computing', () => {
  const list = healthChecksQuery(DATASET_ID);
  const interval = list.refetchInterval as (q: unknown) => number | false;
  const pending = listAnswer([withStatus('a', 'pending_check'), withStatus('b', 'passed_check')]);
  const settled = listAnswer([withStatus('a', 'failed_check'), withStatus('b', 'passed_check')]);
  expect(interval({ state: { data: pending } })).toBe(CHECK_LIST_POLL_MS);
  expect(interval({ state: { data: settled } })).toBe(false);
  expect(interval({ state: { data: { ...settled, computing: true } } })).toBe(CHECK_LIST_POLL_MS);
  const one = healthCheckQuery(DATASET_ID, 'a').refetchInterval as (q: unknown) => number | false;
  expect(one({ state: { data: { check: withStatus('a', 'pending_check') } } })).toBe(CHECK_POLL_MS);
  expect(one({ state: { data: { check: withStatus('a', 'passed_check') } } })).toBe(false);
});

test('failed views', () => {
  expect(failedView(itemsEvaluation('x'))).toBe('actions');
  expect(failedView(itemsEvaluation('x', { recommendation: null }))).toBe('actions');
  expect(
    failedView(
      itemsEvaluation('x', {
        evidence: [{ type: 'text', value: 'skewed' }],
        recommendation: { type: 'text_recommendation', value: ['Collect more cats.'] },
      }),
    ),
  ).toBe('text');
  expect(failedView(itemsEvaluation('x', { evidence: [{ type: 'text', value: 'v' }] }))).toBe(
    'unsupported',
  );
  expect(failedView(null)).toBe('unsupported');
});

const mixed: Recommendation = {
  type: 'actions',
  actions: [
    { type: 'delete', suggestions: [{ id: 'g1', name: 'g1', item_ids: ['a', 'b'] }] },
    {
      type: 'update_item_field',
      field_name: 'label',
      updates: {
        dog: { id: 'l1', name: 'dog', item_ids: ['c', 'a'] },
        cat: { id: 'l2', name: 'cat', item_ids: ['d'] },
      },
    },
    {
      type: 'update_item_field',
      field_name: 'split',
      updates: { train: { id: 's1', name: 'train', item_ids: ['e'] } },
    },
    {
      type: 'add_predicted_objects_to_ground_truth',
      predictions_id: 'p1',
      suggestions: [{ id: 'p', name: 'p', item_ids: ['pred:1'] }],
    },
  ],
};

describe('action card', () => {
  test('groups from the recommendation, an item in the first group naming it, ignore last', () => {
    const groups = selectionGroupsFrom(mixed);
    expect(groups.map((g) => [g.id, g.kind, g.itemIds])).toEqual([
      ['delete', 'delete', ['a', 'b']],
      ['label:dog', 'label', ['c']],
      ['label:cat', 'label', ['d']],
      ['split:train', 'split', ['e']],
      ['promoteToGt', 'promoteToGt', ['pred:1']],
      ['ignore', 'ignore', []],
    ]);
    expect(selectionGroupsFrom(null).map((g) => g.id)).toEqual(['ignore']);
  });

  test('the button follows the groups holding items', () => {
    const groups = selectionGroupsFrom(mixed);
    const only = (id: string) =>
      groups.map((g) => (g.id === id ? g : { ...g, itemIds: [] as string[] }));
    expect(buttonLabel(only('delete'))).toBe('Delete');
    expect(buttonLabel(toggleItem(only('x'), 'ignore', 'a'))).toBe('Ignore');
    expect(buttonLabel(only('label:dog'))).toBe('Rename');
    expect(buttonLabel(only('split:train'))).toBe('Move');
    expect(buttonLabel(only('promoteToGt'))).toBe('Add as ground truth');
    expect(buttonLabel(groups)).toBe('Apply');
    // Two label groups are one kind: still 'Rename'.
    expect(
      buttonLabel(groups.map((g) => (g.kind === 'label' ? g : { ...g, itemIds: [] as string[] }))),
    ).toBe('Rename');
  });

  test('a click moves an item into the active group, a second click takes it out', () => {
    const groups = selectionGroupsFrom(mixed);
    const moved = toggleItem(groups, 'ignore', 'a');
    expect(moved.find((g) => g.id === 'delete')!.itemIds).toEqual(['b']);
    expect(moved.find((g) => g.id === 'ignore')!.itemIds).toEqual(['a']);
    const back = toggleItem(moved, 'ignore', 'a');
    expect(back.find((g) => g.id === 'ignore')!.itemIds).toEqual([]);
    expect(back.find((g) => g.id === 'delete')!.itemIds).toEqual(['b']);
  });

  test('queued changes carry the check id, ignore goes apart, and the requests say check_id', () => {
    const groups = toggleItem(selectionGroupsFrom(mixed), 'ignore', 'z');
    const outcome = cardOutcome(groups, { checkId: 'label_errors.image', dataLevel: 'image' });
    expect(outcome.ignore).toEqual(['z']);
    expect(outcome.changes).toEqual([
      { kind: 'delete', dataLevel: 'image', itemIds: ['a', 'b'], checkId: 'label_errors.image' },
      {
        kind: 'update_label',
        label: 'dog',
        dataLevel: 'image',
        itemIds: ['c'],
        checkId: 'label_errors.image',
      },
      {
        kind: 'update_label',
        label: 'cat',
        dataLevel: 'image',
        itemIds: ['d'],
        checkId: 'label_errors.image',
      },
      {
        kind: 'update_split',
        split: 'train',
        isNew: false,
        itemIds: ['e'],
        checkId: 'label_errors.image',
      },
      { kind: 'promote', predictionsId: 'p1', itemIds: ['pred:1'], checkId: 'label_errors.image' },
    ]);

    // Through the curation queue: one label change from the check and one by hand stay apart.
    const queue = [
      ...outcome.changes.slice(0, 2),
      { kind: 'update_label', label: 'dog', dataLevel: 'image', itemIds: ['q'] },
    ].map((change, i) => ({ ...change, id: `c${i}` })) as PendingChange[];
    const [samples] = toRequests(queue, DATASET_ID);
    expect(samples!.kind === 'apply_actions' && samples!.body.actions).toEqual([
      {
        type: 'update_label',
        dataset_id: DATASET_ID,
        updates: { dog: ['c'] },
        check_id: 'label_errors.image',
      },
      {
        type: 'delete_items',
        dataset_id: DATASET_ID,
        item_ids: ['a', 'b'],
        check_id: 'label_errors.image',
      },
      { type: 'update_label', dataset_id: DATASET_ID, updates: { dog: ['q'] } },
    ]);
  });

  test('object-level changes know each object sample', () => {
    const groups = selectionGroupsFrom({
      type: 'actions',
      actions: [{ type: 'delete', suggestions: [{ id: 'g', name: 'g', item_ids: ['o1', 'o2'] }] }],
    });
    const outcome = cardOutcome(groups, {
      checkId: 'spurious_objects.image_object',
      dataLevel: 'image_object',
      sampleOf: { o1: 's1', o2: 's2' },
    });
    expect(outcome.changes[0]).toMatchObject({ sampleOf: { o1: 's1', o2: 's2' } });
  });
});

test('configure: only params whose value changed', () => {
  const params: Record<string, CheckParam> = {
    threshold: { type: 'float', label: 'Threshold', value: 0.5, min: 0, max: 1 },
    k: { type: 'int', label: 'k', value: 5, min: 1, max: 50 },
    classes: { type: 'categorical', label: 'Classes', value: 'all', categories: ['a', 'b'] },
  };
  expect(changedParams(params, {})).toEqual({});
  expect(changedParams(params, { threshold: 0.5, k: 5, classes: 'all' })).toEqual({});
  expect(changedParams(params, { threshold: 0.501, k: 5, classes: ['a'] })).toEqual({
    threshold: 0.501,
    classes: ['a'],
  });
});

test('the explorer link carries level, filter and sort', () => {
  const link = explorerLink('d1', {
    data_level: 'image',
    filter: { type: 'boolean', metadata_id: 'checks.x.failed', op: 'bool_equals', value: true },
    sort_by: [{ name: 'checks.x.group', direction: 'ascending' }],
  });
  const url = new URL(link, 'http://x');
  expect(url.pathname).toBe('/datasets/d1/explore');
  expect(url.searchParams.get('level')).toBe('image');
  expect(JSON.parse(url.searchParams.get('filter')!)).toEqual({
    type: 'boolean',
    metadata_id: 'checks.x.failed',
    op: 'bool_equals',
    value: true,
  });
  expect(JSON.parse(url.searchParams.get('sort')!)).toEqual([
    { name: 'checks.x.group', direction: 'ascending' },
  ]);
});

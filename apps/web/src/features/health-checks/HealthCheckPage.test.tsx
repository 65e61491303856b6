// One health check as a signed-in user meets it, in each status, through the real route table and
// a fake API.
import '../../test/setup';
import type { Evaluation } from '@loupe/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { findDialog } from '../../test/findDialog';
import { renderApp } from '../../test/renderApp';
import {
  api,
  check,
  checkPath,
  checksServer,
  DATASET_ID,
  failed,
  itemsEvaluation,
  listPath,
  passed,
} from './testData';

const ID = 'duplicate.image';
const failedItems = (filter: unknown) =>
  JSON.stringify(filter).includes('.ignored') ? ['img-9'] : ['img-1', 'img-2', 'img-3'];
const actionCalls = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((c) => c.method === 'PUT' && c.path === '/api/actions').map((c) => c.body);
const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;

test('failed with items: the grid, the action card, ignoring at once and deleting through the queue with check_id', async () => {
  const { calls } = checksServer({
    checks: [check(ID, { status: failed('1 group of duplicates (3 items)') })],
    evaluations: { [ID]: itemsEvaluation(ID) },
    itemIds: failedItems,
  });
  renderApp(checkPath(ID));
  const user = userEvent.setup({ delay: null });
  expect(await screen.findByRole('heading', { name: ID })).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Datasets' }).getAttribute('href')).toBe('/datasets');
  expect((await screen.findByRole('link', { name: 'pets' })).getAttribute('href')).toBe(
    `/datasets/${DATASET_ID}/overview`,
  );
  expect(screen.getByRole('link', { name: 'Health Checks' }).getAttribute('href')).toBe(listPath);
  expect(screen.getByTestId('evidence-summary').textContent).toBe(
    '1 group of duplicates (3 items)',
  );

  await waitFor(() => expect(screen.getAllByTestId('check-item')).toHaveLength(3));
  const cards = () => screen.getAllByTestId('check-item');
  expect(
    cards().map((c) => [c.getAttribute('data-item-id'), c.getAttribute('data-group')]),
  ).toEqual([
    ['img-1', ''],
    ['img-2', 'delete'],
    ['img-3', 'delete'],
  ]);
  // The evidence's sort and filter went to item_ids; its visible metadata is under each card.
  const idsCall = calls.find((c) => c.path === `${api}/item_ids`)!.body as Record<string, unknown>;
  expect(idsCall.sort).toEqual([{ name: `checks.${ID}.group`, direction: 'ascending' }]);
  expect(within(cards()[0]!).getByText('split: train')).toBeTruthy();
  expect(screen.getByRole('link', { name: /Open in explorer/ }).getAttribute('href')).toContain(
    `/datasets/${DATASET_ID}/explore?level=image&filter=`,
  );

  expect(screen.getByTestId('action-apply').textContent).toBe('Delete');
  // Put img-1 in the ignore group: the button reads Apply for the mix.
  await user.click(
    within(screen.getByTestId('action-card')).getByRole('radio', { name: /Ignore/ }),
  );
  await user.click(cards()[0]!);
  expect(cards()[0]!.getAttribute('data-group')).toBe('ignore');
  expect(screen.getByTestId('action-apply').textContent).toBe('Apply');

  await user.click(screen.getByTestId('action-apply'));
  const confirm = await findDialog('Delete 2 items?');
  await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
  await waitFor(() =>
    expect(actionCalls(calls)).toEqual([
      {
        actions: [
          {
            type: 'check_ignore_items',
            dataset_id: DATASET_ID,
            check_id: ID,
            ignore: true,
            item_ids: ['img-1'],
          },
        ],
      },
    ]),
  );
  expect(await screen.findByText('1 item ignored')).toBeTruthy();
  // The deletion waits in the pending changes until applied, then carries the check's id.
  const box = await screen.findByTestId('check-pending');
  expect(box.textContent).toMatch(/2 items\s*will be deleted/);
  await user.click(within(box).getByRole('button', { name: /Apply changes/ }));
  await waitFor(() => expect(actionCalls(calls)).toHaveLength(2));
  expect(actionCalls(calls)[1]).toEqual({
    actions: [
      { type: 'delete_items', dataset_id: DATASET_ID, item_ids: ['img-2', 'img-3'], check_id: ID },
    ],
  });
});

test('a relabel recommendation reads Rename and queues the new label with the check id', async () => {
  const evaluation = itemsEvaluation('label_errors.image', {
    recommendation: {
      type: 'actions',
      actions: [
        {
          type: 'update_item_field',
          field_name: 'label',
          updates: { dog: { id: 's', name: 'dog', item_ids: ['img-1'] } },
        },
      ],
    },
  });
  const { calls } = checksServer({
    checks: [check('label_errors.image', { group: 'Label Quality', status: failed() })],
    evaluations: { 'label_errors.image': evaluation },
    itemIds: failedItems,
  });
  renderApp(checkPath('label_errors.image'));
  const user = userEvent.setup({ delay: null });
  await waitFor(() => expect(screen.getByTestId('action-apply').textContent).toBe('Rename'));
  await waitFor(() => expect(button('Rename').disabled).toBe(false));
  await user.click(button('Rename'));
  const box = await screen.findByTestId('check-pending');
  await user.click(within(box).getByRole('button', { name: /Apply changes/ }));
  await waitFor(() =>
    expect(actionCalls(calls)).toEqual([
      {
        actions: [
          {
            type: 'update_label',
            dataset_id: DATASET_ID,
            updates: { dog: ['img-1'] },
            check_id: 'label_errors.image',
          },
        ],
      },
    ]),
  );
});

test('changes queued here: showing ignored items asks Discard and continue, leaving asks Discard and leave', async () => {
  const { calls } = checksServer({
    checks: [check(ID, { status: failed('1 group of duplicates (3 items)') })],
    evaluations: { [ID]: itemsEvaluation(ID) },
    itemIds: failedItems,
  });
  renderApp(checkPath(ID));
  const user = userEvent.setup({ delay: null });
  // Closed dialogs stay in the page under test: a new dialog's button is the last of its name.
  const inNewDialog = async (name: string) => {
    const before = screen.queryAllByRole('button', { name }).length;
    await waitFor(() =>
      expect(screen.queryAllByRole('button', { name }).length).toBeGreaterThan(before),
    );
    return screen.getAllByRole('button', { name }).at(-1)!;
  };
  const queueDeletion = async () => {
    await waitFor(() =>
      expect(screen.getByTestId('action-apply').hasAttribute('disabled')).toBe(false),
    );
    const confirm = inNewDialog('Delete');
    await user.click(screen.getByTestId('action-apply'));
    await user.click(await confirm);
    expect((await screen.findByTestId('check-pending')).textContent).toContain(
      '2 items will be deleted',
    );
  };
  await waitFor(() => expect(screen.getAllByTestId('check-item')).toHaveLength(3));
  await queueDeletion();

  // Showing ignored items: Cancel keeps the queue and the switch off.
  const toggle = screen.getByRole('switch', { name: 'Show ignored items' });
  let cancel = inNewDialog('Cancel');
  await user.click(toggle);
  const confirm = await findDialog('Discard changes');
  expect(within(confirm).getByText('1 pending change has not been applied.')).toBeTruthy();
  expect(within(confirm).getByRole('button', { name: 'Discard and continue' })).toBeTruthy();
  await user.click(await cancel);
  expect(toggle.getAttribute('aria-checked')).toBe('false');
  expect(screen.getByTestId('check-pending')).toBeTruthy();
  const discard = inNewDialog('Discard and continue');
  await user.click(toggle);
  await user.click(await discard);
  await waitFor(() => expect(screen.queryByTestId('check-pending')).toBeNull());
  expect(toggle.getAttribute('aria-checked')).toBe('true');
  expect(await screen.findByTestId('ignored-list')).toBeTruthy();

  // Queue again (the discarded items are back in no group: pick them), then follow the
  // breadcrumb: Cancel stays, Discard and leave goes.
  const card = (id: string) =>
    screen.getAllByTestId('check-item').find((c) => c.getAttribute('data-item-id') === id)!;
  await user.click(card('img-2'));
  await user.click(card('img-3'));
  await queueDeletion();
  cancel = inNewDialog('Cancel');
  await user.click(screen.getByRole('link', { name: 'Health Checks' }));
  await user.click(await cancel);
  expect(screen.getByRole('heading', { name: ID })).toBeTruthy();
  expect(screen.getByTestId('check-pending')).toBeTruthy();
  const leave = inNewDialog('Discard and leave');
  await user.click(screen.getByRole('link', { name: 'Health Checks' }));
  await user.click(await leave);
  await waitFor(() => expect(screen.queryByTestId('health-check')).toBeNull());
  // Nothing was applied.
  expect(actionCalls(calls)).toEqual([]);
});

test('passed with a summary: No problems found, n items checked, ignored items with Re-enable', async () => {
  const { calls } = checksServer({
    checks: [check(ID, { status: passed(42) })],
    itemIds: failedItems,
  });
  renderApp(checkPath(ID));
  const user = userEvent.setup({ delay: null });
  expect(await screen.findByText('No problems found')).toBeTruthy();
  expect(screen.getByText('42 items have been checked')).toBeTruthy();
  await user.click(screen.getByRole('switch', { name: 'Show ignored items' }));
  const list = await screen.findByTestId('ignored-list');
  await waitFor(() => expect(within(list).getAllByTestId('check-item')).toHaveLength(1));
  await waitFor(() => expect(within(list).getByRole('button', { name: 'Re-enable' })).toBeTruthy());
  const reEnable = () =>
    within(list).getByRole('button', { name: 'Re-enable' }) as HTMLButtonElement;
  await waitFor(() => expect(reEnable().disabled).toBe(false));
  await user.click(reEnable());
  await waitFor(() =>
    expect(actionCalls(calls)).toEqual([
      {
        actions: [
          {
            type: 'check_ignore_items',
            dataset_id: DATASET_ID,
            check_id: ID,
            ignore: false,
            item_ids: ['img-9'],
          },
        ],
      },
    ]),
  );
});

test('passed without a summary: All items passed', async () => {
  checksServer({ checks: [check(ID, { status: passed(null) })] });
  renderApp(checkPath(ID));
  expect(await screen.findByText('All items passed')).toBeTruthy();
});

test('computing, missing requirements, error and disabled views', async () => {
  const { calls } = checksServer({
    checks: [
      check('a.image', { status: { type: 'pending_check' } }),
      check('b.image', {
        status: {
          type: 'missing_req_check',
          requirements: [
            {
              kind: 'predictions',
              data_level: 'image',
              message: 'Upload a prediction set with probabilities.',
            },
            {
              kind: 'metadata',
              data_level: 'image',
              name: 'phash',
              message: 'Compute image.phash.',
            },
          ],
        },
      }),
      check('c.image', { status: { type: 'failed_to_compute_check', message: 'out of memory' } }),
      check('d.image', { status: { type: 'disabled_check' } }),
    ],
  });
  let view = renderApp(checkPath('a.image'));
  expect(await screen.findByText('Computing health check')).toBeTruthy();
  view.unmount();
  view = renderApp(checkPath('b.image'));
  expect(await screen.findByText('Upload a prediction set with probabilities.')).toBeTruthy();
  expect(screen.getByText('Compute image.phash.')).toBeTruthy();
  view.unmount();
  view = renderApp(checkPath('c.image'));
  expect(await screen.findByText('Failed to Compute health check')).toBeTruthy();
  expect(screen.getByText('out of memory')).toBeTruthy();
  view.unmount();
  renderApp(checkPath('d.image'));
  expect(await screen.findByText('This health check is disabled.')).toBeTruthy();
  await waitFor(() => expect(button('Enable').disabled).toBe(false));
  await userEvent.setup({ delay: null }).click(button('Enable'));
  await waitFor(() =>
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: `${api}/checks/settings/d.image`,
      body: { enabled: true },
    }),
  );
  // Enabled again: the check is evaluated (the fake answers passed).
  expect(await screen.findByText('No problems found')).toBeTruthy();
});

test('a text recommendation with a long table (3 rows then Show 2 more) and an unknown evidence', async () => {
  const evaluation: Evaluation = {
    type: 'fail',
    evaluation_id: 'e',
    history: { data_version: 1, computed_at: 1 },
    evidence: [
      {
        type: 'table_per_split',
        description: 'Items per class',
        rows: ['cat', 'dog', 'bird', 'fish', 'frog'],
        splits: [{ split_name: 'train', columns: [{ name: 'count', values: [50, 40, 3, 2, 1] }] }],
        flagged_rows: ['frog'],
      },
      { type: 'blind_spot', title: 'x' } as never,
    ],
    recommendation: { type: 'text_recommendation', value: ['Collect more frogs.'] },
  };
  checksServer({
    checks: [check('class_imbalance.image', { group: 'Class Balance', status: failed() })],
    evaluations: { 'class_imbalance.image': evaluation },
  });
  renderApp(checkPath('class_imbalance.image'));
  expect(await screen.findByText('Collect more frogs.')).toBeTruthy();
  expect(screen.getByText('Evidence type blind_spot not supported.')).toBeTruthy();
  const table = screen.getByTestId('evidence-table');
  const bodyRows = () => table.querySelectorAll('tbody tr.ant-table-row');
  expect(bodyRows()).toHaveLength(3);
  await userEvent
    .setup({ delay: null })
    .click(within(table).getByRole('button', { name: 'Show 2 more' }));
  expect(bodyRows()).toHaveLength(5);
  expect(within(table).getByText('frog').closest('tr')!.getAttribute('data-flagged')).toBe('true');
});

test('configure: Apply is disabled until a param changes; leaving with changes asks first', async () => {
  const { calls } = checksServer({
    checks: [
      check(ID, {
        status: passed(null),
        config: {
          description: 'How alike two items must be.',
          params: {
            threshold: { type: 'float', label: 'Threshold', value: 0.95, min: 0, max: 1 },
          },
        },
      }),
    ],
  });
  renderApp(checkPath(ID));
  const user = userEvent.setup({ delay: null });
  await screen.findByText('All items passed');
  await waitFor(() => expect(button(/Configure/).disabled).toBe(false));
  await user.click(button(/Configure/));
  const dialog = await findDialog(`Configure ${ID}`);
  const apply = () => within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
  expect(apply().disabled).toBe(true);
  const input = within(dialog).getByRole('spinbutton', { name: 'Threshold' });
  expect(input.getAttribute('step')).toBe('0.001');
  await user.clear(input);
  await user.type(input, '0.9');
  await waitFor(() => expect(apply().disabled).toBe(false));

  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  const discard = await findDialog('Discard changes');
  expect(within(discard).getByRole('button', { name: 'Discard and leave' })).toBeTruthy();
  await user.click(within(discard).getByRole('button', { name: 'Cancel' }));
  await user.click(apply());
  await waitFor(() =>
    expect(calls.find((c) => c.method === 'PUT' && c.path === `${api}/checks/${ID}`)!.body).toEqual(
      {
        params: { threshold: 0.9 },
      },
    ),
  );
});

test('an approximate check shows its tour once per user', async () => {
  checksServer({
    checks: [check(ID, { status: { ...passed(null), is_approximate: true } as never })],
  });
  const view = renderApp(checkPath(ID));
  const user = userEvent.setup({ delay: null });
  expect(await screen.findByText('Approximate check')).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'I understand' }));
  await waitFor(() => expect(screen.queryByText('Approximate check')).toBeNull());
  view.unmount();
  renderApp(checkPath(ID));
  await screen.findByText('All items passed');
  expect(screen.queryByText('Approximate check')).toBeNull();
});

test('a custom check is deleted after a confirmation and the list opens', async () => {
  const { calls } = checksServer({
    checks: [
      check('custom.1', {
        type: 'custom',
        group: 'Custom Checks',
        name: 'Night shots',
        status: passed(null),
      }),
    ],
  });
  const view = renderApp(checkPath('custom.1'));
  const user = userEvent.setup({ delay: null });
  await screen.findByText('All items passed');
  await waitFor(() => expect(button(/Delete/).disabled).toBe(false));
  await user.click(button(/Delete/));
  const dialog = await findDialog('Delete health check "Night shots"?');
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(view.location()).toBe(listPath));
  expect(calls.some((c) => c.method === 'DELETE' && c.path === `${api}/checks/custom.1`)).toBe(
    true,
  );
});

test('failure to load: Dataset health check failed to load, with a way home', async () => {
  checksServer({
    routes: {
      [`GET ${api}/checks/${ID}`]: () => ({
        status: 500,
        body: { description: 'boom', retriable: false },
      }),
    },
  });
  renderApp(checkPath(ID));
  expect(await screen.findByText('Dataset health check failed to load')).toBeTruthy();
  expect(screen.getByRole('link', { name: /Go to home/ }).getAttribute('href')).toBe('/');
});

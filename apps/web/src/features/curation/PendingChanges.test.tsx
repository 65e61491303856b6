// The queue as a user meets it: item actions queue changes with their description, the box
// discards one or all (after a confirmation), and 'Apply changes' sends the requests in order
// and says whether they went through.
import '../../test/setup';
import type { ApplyActionsRequest, DataLevel, Subset, TaskType } from '@loupe/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { createQueryClient } from '../../api/queryClient';
import { ThemeProvider } from '../../app/theme/ThemeProvider';
import { fakeServer, type Call, type Handler } from '../../test/fakeServer';
import { findDialog } from '../../test/findDialog';
import {
  ItemActions,
  PendingChangesBox,
  PendingChangesProvider,
  type ActionItem,
  type ApplyResult,
} from './index';

const DATASET_ID = '3f1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a10';
const PREDICTIONS = '9a1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a10';
const api = `/api/datasets/${DATASET_ID}`;
const NIGHT = '1b1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a11';
const BOXES = '2b1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a12';
const CREATED = '3b1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a13';

const subset = (id: string, name: string, level: DataLevel): Subset => ({
  id,
  name,
  description: null,
  dataset_id: DATASET_ID,
  data_level: level,
  num_items: 3,
  enabled_for_performance: false,
  created: 0,
  updated: 0,
});

function serve(routes: Record<string, Handler> = {}, licensed = true) {
  return fakeServer({
    'GET /api/settings/license': () => ({
      body: licensed ? { state: 'LICENSED', key: 'k', expiration_ts: 2e9 } : { state: 'NONE' },
    }),
    [`GET ${api}/subsets`]: () => ({
      body: [subset(NIGHT, 'night', 'image'), subset(BOXES, 'boxes', 'image_object')],
    }),
    [`POST ${api}/subsets`]: (call) => ({
      status: 201,
      body: subset(CREATED, (call.body as { name: string }).name, 'image'),
    }),
    [`PUT ${api}/subsets/${NIGHT}`]: () => ({ body: subset(NIGHT, 'night', 'image') }),
    'PUT /api/actions': (call) => {
      const { actions } = call.body as ApplyActionsRequest;
      return {
        body: {
          dataset_id: DATASET_ID,
          results: actions.map((action) => ({
            type: action.type,
            data_level: 'image',
            item_ids: 'updates' in action ? Object.values(action.updates).flat() : action.item_ids,
            history_record_id: null,
          })),
          history: [],
        },
      };
    },
    ...routes,
  });
}

interface Setup {
  taskType?: TaskType;
  dataLevel?: DataLevel;
  items?: ActionItem[];
  predictionsId?: string;
  currentSubsetId?: string;
  licensed?: boolean;
  onApplied?(result: ApplyResult): void;
}

function renderQueue(setup: Setup = {}) {
  const queryClient = createQueryClient();
  const actions = (items: ActionItem[], dataLevel: DataLevel) => (
    <ItemActions
      datasetId={DATASET_ID}
      taskType={setup.taskType ?? 'object_detection'}
      dataLevel={dataLevel}
      items={items}
      predictionsId={setup.predictionsId}
      currentSubsetId={setup.currentSubsetId}
      licensed={setup.licensed ?? true}
      mode="buttons"
      dataset={{ class_names: ['car', 'person'], splits: ['train', 'test'] }}
    />
  );
  render(
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <PendingChangesProvider datasetId={DATASET_ID}>
          <section aria-label="sample actions">
            {actions(
              setup.items ?? [{ id: 's1', type: 'gt', sampleId: 's1' }],
              setup.dataLevel ?? 'image',
            )}
          </section>
          <section aria-label="object actions">
            {actions([{ id: 's1#o1', type: 'gt', sampleId: 's1' }], 'image_object')}
          </section>
          <PendingChangesBox onApplied={setup.onApplied} />
        </PendingChangesProvider>
      </QueryClientProvider>
    </ThemeProvider>,
  );
  return queryClient;
}

const region = (name: string) => within(screen.getByRole('region', { name }));
const changes = () => screen.queryAllByTestId('pending-change').map((row) => row.textContent);
const actionCalls = (calls: Call[]) =>
  calls.filter((call) => call.path === '/api/actions').map((call) => call.body);

async function choose(name: string, title: string) {
  fireEvent.mouseDown(await screen.findByRole('combobox', { name }));
  const option = await waitFor(() => {
    const found = document.querySelector<HTMLElement>(
      `.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${title}"]`,
    );
    if (!found) throw new Error(`No option ${title}`);
    return found;
  });
  fireEvent.click(option);
}

test('actions queue changes with their description; discard one, or all after a confirmation', async () => {
  serve();
  renderQueue();
  const user = userEvent.setup();
  expect(await screen.findByText('No pending changes')).toBeTruthy();

  await user.click(region('sample actions').getByRole('button', { name: /Update split/ }));
  const dialog = await findDialog('Update split');
  expect(
    within(dialog).getByRole('button', { name: 'Add to pending changes' }).hasAttribute('disabled'),
  ).toBe(true);
  await choose('Split', 'test');
  await user.click(within(dialog).getByRole('button', { name: 'Add to pending changes' }));
  await waitFor(() => expect(changes()).toEqual(['s1 will be moved to split "test"']));

  await user.click(region('sample actions').getByRole('button', { name: /Delete/ }));
  await user.click(region('object actions').getByRole('button', { name: /Delete/ }));
  // Deleting the sample dropped its pending split: a deleted sample keeps no edits.
  expect(changes()).toEqual(['s1 will be deleted', 's1#o1 will be deleted']);

  await user.click(screen.getAllByRole('button', { name: 'Discard this change' })[1]!);
  expect(changes()).toEqual(['s1 will be deleted']);

  const box = within(screen.getByTestId('pending-changes-box'));
  await user.click(box.getByRole('button', { name: 'Discard all' }));
  const confirm = await findDialog('Discard all pending changes?');
  await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
  expect(changes()).toHaveLength(1);
  await user.click(box.getByRole('button', { name: 'Discard all' }));
  // The cancelled confirmation may still be leaving: the new one is the last in the page.
  await waitFor(() =>
    expect(screen.getAllByRole('button', { name: 'Discard all' }).length).toBeGreaterThan(2),
  );
  await user.click(screen.getAllByRole('button', { name: 'Discard all' }).at(-1)!);
  await screen.findByText('No pending changes');
});

test("deleting a sample discards its objects' pending changes", async () => {
  serve();
  renderQueue();
  const user = userEvent.setup();
  await user.click(await region('object actions').findByRole('button', { name: /Delete/ }));
  await user.click(region('object actions').getByRole('button', { name: /Update label/ }));
  await choose('Label', 'car');
  await user.click(
    within(await findDialog('Update label')).getByRole('button', {
      name: 'Add to pending changes',
    }),
  );
  await waitFor(() => expect(changes()).toHaveLength(2));
  await user.click(region('sample actions').getByRole('button', { name: /Delete/ }));
  expect(changes()).toEqual(['s1 will be deleted']);
});

test('Apply creates the queued subset, updates subsets, then sends sample and object actions', async () => {
  const { calls } = serve();
  const applied: ApplyResult[] = [];
  renderQueue({ currentSubsetId: NIGHT, onApplied: (result) => applied.push(result) });
  const user = userEvent.setup();

  // A new subset, created inside the queue.
  await user.click(await region('sample actions').findByRole('button', { name: /Add to subset/ }));
  const add = await findDialog('Add to subset');
  await user.type(within(add).getByRole('textbox', { name: 'New subset name' }), 'NONE');
  await user.click(within(add).getByRole('button', { name: 'Create subset' }));
  expect(within(add).getByRole('alert').textContent).toBe("Subset name can't be 'NONE'.");
  await user.clear(within(add).getByRole('textbox', { name: 'New subset name' }));
  await user.type(within(add).getByRole('textbox', { name: 'New subset name' }), 'night');
  await user.click(within(add).getByRole('button', { name: 'Create subset' }));
  expect(within(add).getByRole('alert').textContent).toBe('Subset with that name already exists.');
  await user.clear(within(add).getByRole('textbox', { name: 'New subset name' }));
  await user.type(within(add).getByRole('textbox', { name: 'New subset name' }), 'rainy{Enter}');
  await user.click(within(add).getByRole('button', { name: 'Add to pending changes' }));
  await waitFor(() => expect(changes()).toEqual(['s1 will be added to subset "rainy"new']));

  // Removing from the current subset asks first.
  await user.click(region('sample actions').getByRole('button', { name: /Remove from subset/ }));
  const remove = await findDialog('Remove 1 item from subset "night"?');
  await user.click(within(remove).getByRole('button', { name: 'Remove' }));
  await waitFor(() => expect(changes()).toHaveLength(2));

  // A new split, and a label for an object.
  await user.click(region('sample actions').getByRole('button', { name: /Update split/ }));
  const split = await findDialog('Update split');
  await user.type(within(split).getByRole('textbox', { name: 'New split name' }), 'train{Enter}');
  expect(within(split).getByRole('alert').textContent).toBe(
    'A Split with that name already exists',
  );
  await user.clear(within(split).getByRole('textbox', { name: 'New split name' }));
  await user.type(within(split).getByRole('textbox', { name: 'New split name' }), 'holdout');
  await user.click(within(split).getByRole('button', { name: 'Create split' }));
  await user.click(within(split).getByRole('button', { name: 'Add to pending changes' }));
  await user.click(region('object actions').getByRole('button', { name: /Update label/ }));
  await choose('Label', 'car');
  await user.click(
    within(await findDialog('Update label')).getByRole('button', {
      name: 'Add to pending changes',
    }),
  );
  await waitFor(() =>
    expect(changes()).toEqual([
      's1 will be added to subset "rainy"new',
      's1 will be removed from subset "night"',
      's1 will be moved to split "holdout"new',
      's1#o1 will be labelled "car"',
    ]),
  );

  await user.click(screen.getByRole('button', { name: 'Apply changes' }));
  expect((await screen.findByTestId('apply-result')).textContent).toBe(
    'Changes applied successfully.',
  );
  expect(calls.filter((call) => call.method !== 'GET').map((c) => `${c.method} ${c.path}`)).toEqual(
    [`POST ${api}/subsets`, `PUT ${api}/subsets/${NIGHT}`, 'PUT /api/actions', 'PUT /api/actions'],
  );
  const posted = calls.find((call) => call.method === 'POST')!.body;
  expect(posted).toMatchObject({ name: 'rainy', data_level: 'image', item_ids: ['s1'] });
  expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({
    added_item_ids: [],
    removed_item_ids: ['s1'],
  });
  expect(actionCalls(calls)).toEqual([
    {
      actions: [{ type: 'update_split', dataset_id: DATASET_ID, updates: { holdout: ['s1'] } }],
    },
    {
      actions: [{ type: 'update_label', dataset_id: DATASET_ID, updates: { car: ['s1#o1'] } }],
    },
  ]);
  await screen.findByText('No pending changes');
  expect(applied).toHaveLength(1);
  expect(applied[0]!.ok).toBe(true);
  expect([...applied[0]!.changedItemIds].sort()).toEqual(['s1', 's1#o1']);
});

test("'Applying changes' while it runs; a refusal says what failed and keeps what was not applied", async () => {
  let release: () => void = () => undefined;
  const { calls } = serve({
    'PUT /api/actions': () =>
      new Promise((resolve) => {
        release = () =>
          resolve({
            status: 404,
            body: { description: 'Item s1 is not in the dataset.', retriable: false },
          });
      }),
  });
  const applied: ApplyResult[] = [];
  renderQueue({ currentSubsetId: NIGHT, onApplied: (result) => applied.push(result) });
  const user = userEvent.setup();
  await user.click(region('sample actions').getByRole('button', { name: /Remove from subset/ }));
  await user.click(
    within(await findDialog('Remove 1 item from subset "night"?')).getByRole('button', {
      name: 'Remove',
    }),
  );
  await user.click(region('sample actions').getByRole('button', { name: /Delete/ }));
  await waitFor(() => expect(changes()).toHaveLength(2));

  await user.click(screen.getByRole('button', { name: 'Apply changes' }));
  expect(await screen.findByRole('button', { name: /Applying changes/ })).toBeTruthy();
  // While it runs nothing can be queued or discarded.
  expect(
    region('sample actions')
      .getByRole('button', { name: /Delete/ })
      .hasAttribute('disabled'),
  ).toBe(true);
  await waitFor(() => expect(actionCalls(calls)).toHaveLength(1));
  release();

  const result = await screen.findByTestId('apply-result');
  expect([...result.children].map((line) => line.textContent)).toEqual([
    'Failed to execute actions.',
    'Failed to delete 1 items',
    'Item s1 is not in the dataset.',
  ]);
  // The subset update went through; the deletion is still queued.
  await waitFor(() => expect(changes()).toEqual(['s1 will be deleted']));
  expect(applied[0]).toMatchObject({ ok: false });
  expect([...applied[0]!.changedItemIds]).toEqual(['s1']);
  // The button's loading icon leaves with a motion: match the text.
  await waitFor(() =>
    expect(screen.getByRole('button', { name: /Apply changes/ }).textContent).toBe('Apply changes'),
  );
});

test('a subset of another data level is offered disabled, as a data-level mismatch', async () => {
  serve();
  renderQueue();
  const user = userEvent.setup();
  await user.click(await region('sample actions').findByRole('button', { name: /Add to subset/ }));
  await findDialog('Add to subset');
  fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Subset' }));
  const mismatch = await waitFor(() => {
    const found = document.querySelector<HTMLElement>(
      '.ant-select-item-option[title="Data-level mismatch."]',
    );
    if (!found) throw new Error('no option');
    return found;
  });
  expect(mismatch.textContent).toBe('boxesData-level mismatch.');
  expect(mismatch.getAttribute('aria-disabled')).toBe('true');
  await choose('Subset', 'night');
  await user.click(screen.getByRole('button', { name: 'Add to pending changes' }));
  await waitFor(() => expect(changes()).toEqual(['s1 will be added to subset "night"']));
});

test('availability: predictions only promote; no action says so; no license disables all', async () => {
  serve({}, false);
  renderQueue({
    dataLevel: 'image_object',
    items: [{ id: 'pred:p1', type: 'pred', sampleId: 's1' }],
    predictionsId: PREDICTIONS,
    licensed: false,
  });
  const promote = region('sample actions').getByRole('button', { name: /Add as ground truth/ });
  expect(region('sample actions').getAllByRole('button')).toHaveLength(1);
  expect(promote.hasAttribute('disabled')).toBe(true);
  expect(promote.closest('[data-disabled-reason]')?.getAttribute('data-disabled-reason')).toBe(
    'A valid license is needed to change items.',
  );
});

test("an item without actions says 'No actions available for this item'", async () => {
  serve();
  renderQueue({ taskType: 'semantic_segmentation', dataLevel: 'image_object' });
  expect(region('sample actions').getByText('No actions available for this item')).toBeTruthy();
});

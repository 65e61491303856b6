// The version history on the overview: every record with its author and time, 'Restore' on a
// deletion that can be undone (confirm → restore → the list and counts refresh), the 'Restored'
// tag, and 'Show items', the explorer filtered by the record at its data level.
import '../../../test/setup';
import type { HistoryRecord } from '@loupe/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { adminUser, appState, fakeServer, type Handler } from '../../../test/fakeServer';
import { renderApp } from '../../../test/renderApp';
import { DATASET_ID, dataset } from '../testData';
import { canShowItems, showItemsLink } from './historyLinks';

const path = `/datasets/${DATASET_ID}/overview`;
const api = `/api/datasets/${DATASET_ID}`;
const DELETE_ID = '5a1e0c9e-0d5e-4b8e-9a51-000000000001';
const RESTORE_ID = '5a1e0c9e-0d5e-4b8e-9a51-000000000002';

const record = (change: Partial<HistoryRecord> & { id: string }): HistoryRecord => ({
  timestamp: Date.now() - 60_000,
  num_items: 3,
  data_level: 'image',
  operation_type: 'sample.label:edit',
  user_name: 'Ana',
  restorable: false,
  restored_by: null,
  items_deleted: false,
  ...change,
});

const upload = record({ id: 'h-upload', operation_type: 'sample:create', num_items: 120 });
const relabel = record({
  id: 'h-relabel',
  operation_type: 'object.label:edit',
  data_level: 'image_object',
  num_items: 4,
  user_name: 'Ben',
});
const deletion = record({
  id: DELETE_ID,
  operation_type: 'sample:delete',
  restorable: true,
  items_deleted: true,
});

function server(routes: Record<string, Handler> = {}, licensed = true) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: licensed
        ? { state: 'LICENSED', key: 'k', expiration_ts: 2e9 }
        : { state: 'NO_LICENSE', key: null, expiration_ts: null },
    }),
    [`GET ${api}`]: () => ({ body: dataset() }),
    [`GET ${api}/history`]: () => ({ body: [deletion, relabel, upload] }),
    [`GET ${api}/iou_threshold`]: () => ({ body: { iou_threshold: 0.5 } }),
    [`GET ${api}/thumbnails`]: () => ({ body: { enabled: true } }),
    ...routes,
  });
}

const records = () => screen.findAllByTestId('history-record', {}, { timeout: 15_000 });

test('restore asks first, then restores, says so, and the history and counts refresh', async () => {
  let restored = false;
  const { calls } = server({
    [`GET ${api}`]: () => ({ body: dataset({ samples_count: restored ? 123 : 120 }) }),
    [`GET ${api}/history`]: () => ({
      body: restored
        ? [
            record({ id: RESTORE_ID, operation_type: 'sample:restore' }),
            { ...deletion, restorable: false, items_deleted: false, restored_by: RESTORE_ID },
            relabel,
            upload,
          ]
        : [deletion, relabel, upload],
    }),
    [`POST ${api}/history/${DELETE_ID}/restore`]: () => {
      restored = true;
      return {
        body: { record: record({ id: RESTORE_ID, operation_type: 'sample:restore' }), restored: 3 },
      };
    },
  });
  renderApp(path);
  const user = userEvent.setup();
  const [deleted] = await records();
  expect(within(deleted!).getByText('Deleted samples')).toBeTruthy();
  expect(within(deleted!).queryByText('Restored')).toBeNull();
  expect(screen.getByLabelText('Samples: 120')).toBeTruthy();

  await user.click(within(deleted!).getByRole('button', { name: /Restore/ }));
  await screen.findAllByText('Restore 3 items?');
  expect(calls.some((call) => call.method === 'POST')).toBe(false);
  await user.click(screen.getAllByRole('button', { name: 'Restore' }).at(-1)!);

  await screen.findByText('3 items restored.');
  expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
    `${api}/history/${DELETE_ID}/restore`,
  ]);
  await waitFor(() => expect(screen.getAllByTestId('history-record')).toHaveLength(4));
  const [restore, undone] = screen.getAllByTestId('history-record');
  expect(within(restore!).getByText('Restored samples')).toBeTruthy();
  expect(within(undone!).getByText('Restored')).toBeTruthy();
  expect(within(undone!).queryByRole('button', { name: /Restore/ })).toBeNull();
  await screen.findByLabelText('Samples: 123');
}, 60_000);

test('cancelling the confirmation restores nothing; a refused restore says so', async () => {
  const { calls } = server({
    [`POST ${api}/history/${DELETE_ID}/restore`]: () => ({
      status: 409,
      body: { description: 'These items were restored already.', retriable: false },
    }),
  });
  renderApp(path);
  const user = userEvent.setup();
  const [deleted] = await records();
  await user.click(within(deleted!).getByRole('button', { name: /Restore/ }));
  await screen.findAllByText('Restore 3 items?');
  await user.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(calls.some((call) => call.method === 'POST')).toBe(false);

  await user.click(within(deleted!).getByRole('button', { name: /Restore/ }));
  await user.click((await screen.findAllByRole('button', { name: 'Restore' })).at(-1)!);
  await screen.findByText('Failed to restore items. These items were restored already.');
}, 60_000);

test('without a license Restore is disabled', async () => {
  server({}, false);
  renderApp(path);
  const [deleted] = await records();
  await waitFor(() =>
    expect(
      (within(deleted!).getByRole('button', { name: /Restore/ }) as HTMLButtonElement).disabled,
    ).toBe(true),
  );
}, 60_000);

test("'Show items' opens the explorer filtered by the record at its data level", async () => {
  server();
  const view = renderApp(path);
  const [deleted, relabelled, uploaded] = await records();
  // Deleted items cannot be shown; only a deletion that can be undone offers Restore.
  expect(within(deleted!).queryByRole('link', { name: /Show items/ })).toBeNull();
  expect(within(relabelled!).queryByRole('button', { name: /Restore/ })).toBeNull();
  expect(within(uploaded!).getByRole('link', { name: /Show items/ })).toBeTruthy();

  await userEvent.setup().click(within(relabelled!).getByRole('link', { name: /Show items/ }));
  await waitFor(() => expect(view.router.state.location.pathname).toMatch(/\/explore$/));
  const search = new URLSearchParams(view.router.state.location.search);
  expect(search.get('level')).toBe('image_object');
  expect(JSON.parse(search.get('filter')!)).toEqual({
    type: 'and',
    children: [{ type: 'history', record_id: 'h-relabel' }],
  });
}, 60_000);

test('the link writes the level and the filter as the explorer reads them; deleted items have none', () => {
  expect(canShowItems(relabel)).toBe(true);
  expect(canShowItems({ ...relabel, items_deleted: true })).toBe(false);
  expect(canShowItems({ ...deletion, items_deleted: false, restored_by: RESTORE_ID })).toBe(false);
  expect(showItemsLink(DATASET_ID, upload)).toBe(
    `/datasets/${DATASET_ID}/explore?level=image&filter=${encodeURIComponent(
      JSON.stringify({ type: 'and', children: [{ type: 'history', record_id: 'h-upload' }] }),
    )}`,
  );
});

test("the header's 'Updated' link takes the focus to the history", async () => {
  server();
  renderApp(path);
  await records();
  await userEvent.setup().click(screen.getByRole('button', { name: /Updated / }));
  const history = screen.getByRole('complementary', { name: 'Version History' });
  await waitFor(() => expect(history.contains(document.activeElement)).toBe(true));
}, 60_000);

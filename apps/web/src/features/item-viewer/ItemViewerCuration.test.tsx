// Curation in the item viewer: the item's actions queue pending changes in the sidebar box, x
// repeats the last action on the open item and d discards its changes (not while typing), closing
// with changes queued here asks first, and after 'Apply changes' the viewer moves on to the next
// item still in the result, or closes when none remain.
import '../../test/setup';
import type { ApplyActionsRequest, ItemsRequest } from '@loupe/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { expect, test, vi } from 'vitest';
import { createQueryClient } from '../../api/queryClient';
import { ThemeProvider } from '../../app/theme/ThemeProvider';
import { fakeServer, type Call } from '../../test/fakeServer';
import { findDialog } from '../../test/findDialog';
import { DATASET_ID, imageItem, viewerDataset } from '../../test/exploreData';
import { PendingChangesProvider, usePendingChanges } from '../curation';
import { ItemViewer } from './index';

const api = `/api/datasets/${DATASET_ID}`;
const rowsOf = (...rows: number[]) => Uint32Array.from(rows);

function serve() {
  return fakeServer({
    'GET /api/settings/license': () => ({
      body: { state: 'LICENSED', key: 'k', expiration_ts: 2e9 },
    }),
    [`POST ${api}/items`]: (call) => {
      const body = call.body as ItemsRequest;
      const rows = body.rows ?? (body.item_ids ?? []).map((id) => Number(/\d+/.exec(id)![0]));
      return { body: { version: body.version ?? 8, items: rows.map((row) => imageItem(row)) } };
    },
    [`GET ${api}/color_map`]: () => ({ body: { color_map: {} } }),
    [`GET ${api}/metadata_info`]: () => ({ body: { metadata_config: [] } }),
    'PUT /api/actions': (call) => {
      const [action] = (call.body as ApplyActionsRequest).actions;
      const ids = action && 'item_ids' in action ? action.item_ids : [];
      return {
        body: {
          dataset_id: DATASET_ID,
          results: [
            { type: action!.type, data_level: 'image', item_ids: ids, history_record_id: null },
          ],
          history: [],
        },
      };
    },
  });
}

/** The explorer's side: the result (which a test replaces, as a refetch would) and the position. */
let replaceRows: (rows: Uint32Array, version: number) => void = () => undefined;

function Harness({ rows: initial, onClosed }: { rows: Uint32Array; onClosed(): void }) {
  const [result, setResult] = useState({ rows: initial, version: 7 });
  const [index, setIndex] = useState(0);
  const [open, setOpen] = useState(true);
  const { changes } = usePendingChanges();
  replaceRows = (rows, version) => setResult({ rows, version });
  return (
    <>
      <output data-testid="queue-size">{changes.length}</output>
      {open && (
        <ItemViewer
          dataset={viewerDataset()}
          dataLevel="image"
          rows={result.rows}
          version={result.version}
          index={index}
          onIndexChange={setIndex}
          onClose={() => {
            setOpen(false);
            onClosed();
          }}
        />
      )}
    </>
  );
}

function renderViewer(rows = rowsOf(1000, 1001, 1002, 1003)) {
  const onClosed = vi.fn();
  render(
    <ThemeProvider>
      <QueryClientProvider client={createQueryClient()}>
        <PendingChangesProvider datasetId={DATASET_ID}>
          <Harness rows={rows} onClosed={onClosed} />
        </PendingChangesProvider>
      </QueryClientProvider>
    </ThemeProvider>,
  );
  return { onClosed };
}

const openItem = () => screen.getByTestId('item-viewer-body').dataset.itemId;
const changes = () => screen.queryAllByTestId('pending-change').map((row) => row.textContent);
const sidebar = () => within(screen.getByTestId('viewer-sidebar'));
const actionCalls = (calls: Call[]) => calls.filter((call) => call.path === '/api/actions');

async function deleteOpenItem(user: ReturnType<typeof userEvent.setup>) {
  const button = await sidebar().findByRole('button', { name: /Delete/ });
  await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
  await user.click(button);
}

test('x repeats the last action on the open item, d discards its changes; not while typing', async () => {
  serve();
  renderViewer();
  const user = userEvent.setup();
  await waitFor(() => expect(openItem()).toBe('frame-1000.jpg'), { timeout: 15_000 });
  await waitFor(() =>
    expect(
      sidebar()
        .getByRole('button', { name: /Delete/ })
        .hasAttribute('disabled'),
    ).toBe(false),
  );
  await user.keyboard('x');
  expect(await screen.findByText('No action to repeat yet')).toBeTruthy();

  await deleteOpenItem(user);
  expect(changes()).toEqual(['frame-1000.jpg will be deleted']);
  await user.keyboard('{ArrowRight}');
  await waitFor(() => expect(openItem()).toBe('frame-1001.jpg'));
  await user.keyboard('x');
  await waitFor(() => expect(changes()).toEqual(['2 items will be deleted']));
  expect(await screen.findByText('Queued: 1 item will be deleted')).toBeTruthy();

  // Typing x or d in the metadata search is typing.
  const search = sidebar().getByRole('searchbox', { name: 'Search metadata' });
  await user.type(search, 'xd');
  expect(changes()).toEqual(['2 items will be deleted']);
  search.blur();

  await user.keyboard('d');
  await waitFor(() => expect(changes()).toEqual(['frame-1000.jpg will be deleted']));
  expect(await screen.findByText('1 pending change of this item discarded')).toBeTruthy();
  await user.keyboard('d');
  expect(await screen.findByText('No pending changes for this item')).toBeTruthy();
  expect(changes()).toEqual(['frame-1000.jpg will be deleted']);
});

test('closing with changes queued here asks first; Discard and leave drops them', async () => {
  serve();
  const { onClosed } = renderViewer();
  const user = userEvent.setup();
  await waitFor(() => expect(openItem()).toBe('frame-1000.jpg'), { timeout: 15_000 });
  await deleteOpenItem(user);
  expect(screen.getByTestId('queue-size').textContent).toBe('1');

  await user.keyboard('{Escape}');
  const confirm = await findDialog('Discard changes');
  expect(within(confirm).getByText('1 pending change has not been applied.')).toBeTruthy();
  // Cancel keeps the viewer open with its changes.
  await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
  expect(onClosed).not.toHaveBeenCalled();

  await user.click(screen.getByRole('button', { name: 'Close' }));
  await waitFor(() =>
    expect(screen.getAllByRole('button', { name: 'Discard and leave' }).length).toBeGreaterThan(1),
  );
  await user.click(screen.getAllByRole('button', { name: 'Discard and leave' }).at(-1)!);
  await waitFor(() => expect(onClosed).toHaveBeenCalledTimes(1));
  expect(screen.getByTestId('queue-size').textContent).toBe('0');
});

test('after Apply the viewer moves to the next item still in the result', async () => {
  const { calls } = serve();
  renderViewer();
  const user = userEvent.setup();
  await waitFor(() => expect(openItem()).toBe('frame-1000.jpg'), { timeout: 15_000 });
  await deleteOpenItem(user);
  await user.click(sidebar().getByRole('button', { name: /Apply changes/ }));
  await waitFor(() => expect(actionCalls(calls)).toHaveLength(1));
  expect(actionCalls(calls)[0]!.body).toEqual({
    actions: [{ type: 'delete_items', dataset_id: DATASET_ID, item_ids: ['frame-1000.jpg'] }],
  });
  expect(await screen.findByText('Changes applied successfully. 1 items deleted')).toBeTruthy();
  // The next item is looked up in the new item table…
  await waitFor(() =>
    expect(
      calls.some(
        (call) => (call.body as ItemsRequest | undefined)?.item_ids?.[0] === 'frame-1001.jpg',
      ),
    ).toBe(true),
  );
  // …and when the refreshed result arrives (frame-1002 now filtered out), the viewer shows it.
  act(() => replaceRows(rowsOf(1003, 1001), 8));
  await waitFor(() => expect(openItem()).toBe('frame-1001.jpg'));
  expect(screen.getByTestId('viewer-counter').textContent).toBe('2/2');
});

test('after Apply the viewer closes when no item remains', async () => {
  serve();
  const { onClosed } = renderViewer(rowsOf(1000));
  const user = userEvent.setup();
  await waitFor(() => expect(openItem()).toBe('frame-1000.jpg'), { timeout: 15_000 });
  await deleteOpenItem(user);
  await user.click(sidebar().getByRole('button', { name: /Apply changes/ }));
  await screen.findByText('Changes applied successfully. 1 items deleted');
  act(() => replaceRows(rowsOf(), 8));
  await waitFor(() => expect(onClosed).toHaveBeenCalledTimes(1));
  // Nothing was left to discard: no confirmation.
  expect(screen.queryByText('Discard changes')).toBeNull();
});

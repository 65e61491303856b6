// Bulk actions in the explorer (docs/curation.md): a selection in the grid or a lasso on the map
// offers the curation actions for its items, queued changes show on 'Pending changes', applying
// them clears the selection; the selection's keys (Escape, Ctrl/Cmd+A).
import '../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, expect, test } from 'vitest';
import { lastScatter, readyPoints, scatters, settings } from '../embeddings/testing';
import { renderApp } from '../../test/renderApp';
import type { Call } from '../../test/fakeServer';
import { DATASET_ID, api, explorePath, exploreServer } from './testData';

beforeEach(() => {
  scatters.length = 0;
});

const SUBSET_ID = '0b9a4c3e-5d6f-4a7b-8c9d-0e1f2a3b4c5d';
const cards = () => screen.getAllByTestId('item-card');
const counter = () => screen.queryByTestId('selection-counter')?.textContent ?? null;
const itemsCalls = (calls: Call[]) =>
  calls.filter((call) => call.path === `${api}/items`).map((call) => call.body);

async function gridReady() {
  await waitFor(
    () => expect(screen.getByTestId('explore-grid').getAttribute('data-rendered-cards')).toBe('12'),
    { timeout: 15_000 },
  );
}

/** The action names of the open actions menu. */
async function openActions(scope: HTMLElement) {
  // A loading button stands in until the selected items are known.
  const button = await waitFor(() => {
    const found = within(scope).getByRole('button', { name: /Actions/ }) as HTMLButtonElement;
    expect(found.disabled).toBe(false);
    return found;
  });
  fireEvent.click(button);
  const menu = await waitFor(() => {
    const found = document.querySelector('.ant-dropdown [role="menu"]');
    expect(found).toBeTruthy();
    return found as HTMLElement;
  });
  return within(menu)
    .getAllByRole('menuitem')
    .map((entry) => entry.textContent);
}

test('a selection offers the actions of its items, looked up by their rows', async () => {
  const { calls } = exploreServer();
  renderApp(explorePath);
  await gridReady();
  const before = itemsCalls(calls).length;
  fireEvent.click(cards()[4]!);
  fireEvent.click(cards()[2]!);
  // Detection samples: no label of their own; subset moves need a subset.
  expect(await openActions(screen.getByTestId('explore-toolbar'))).toEqual([
    'Add to subset',
    'Update split',
    'Delete',
  ]);
  expect(itemsCalls(calls).slice(before)).toContainEqual({
    data_level: 'image',
    rows: [2, 4],
    version: 7,
  });
}, 60_000);

test('objects can be relabelled but not resplit', async () => {
  exploreServer();
  renderApp(`${explorePath}?level=image_object`);
  await gridReady();
  fireEvent.click(cards()[1]!);
  expect(await openActions(screen.getByTestId('explore-toolbar'))).toEqual([
    'Add to subset',
    'Update label',
    'Delete',
  ]);
}, 60_000);

test('inside a subset the items can also be moved out of it or removed from it', async () => {
  exploreServer({
    routes: {
      [`GET ${api}/subsets`]: () => ({
        body: [
          {
            id: SUBSET_ID,
            name: 'night',
            description: null,
            dataset_id: DATASET_ID,
            data_level: 'image',
            num_items: 12,
            enabled_for_performance: false,
            created: 0,
            updated: 0,
          },
        ],
      }),
    },
  });
  renderApp(`${explorePath}?subset_id=${SUBSET_ID}`);
  await gridReady();
  fireEvent.click(cards()[0]!);
  expect(await openActions(screen.getByTestId('explore-toolbar'))).toEqual([
    'Add to subset',
    'Move to subset',
    'Remove from subset',
    'Update split',
    'Delete',
  ]);
}, 60_000);

test('queued changes show on Pending changes; applying them clears the selection', async () => {
  const { calls } = exploreServer({
    routes: {
      'PUT /api/actions': () => ({
        body: {
          dataset_id: DATASET_ID,
          results: [
            {
              type: 'delete_items',
              data_level: 'image',
              item_ids: ['img-2', 'img-4'],
              history_record_id: null,
            },
          ],
          history: [],
        },
      }),
    },
  });
  renderApp(explorePath);
  await gridReady();
  expect(screen.queryByTestId('pending-changes')).toBeNull();
  fireEvent.click(cards()[2]!);
  fireEvent.click(cards()[4]!);
  await openActions(screen.getByTestId('explore-toolbar'));
  fireEvent.click(screen.getByRole('menuitem', { name: /Delete/ }));

  const pending = await screen.findByTestId('pending-changes');
  expect(pending.closest('.ant-badge')?.textContent).toContain('1');
  expect(counter()).toContain('2 selected');
  fireEvent.click(pending);
  fireEvent.click(await screen.findByRole('button', { name: /Apply changes/ }));

  await waitFor(() =>
    expect(screen.getByTestId('apply-result').textContent).toContain(
      'Changes applied successfully.',
    ),
  );
  expect(calls.find((call) => call.path === '/api/actions')?.body).toEqual({
    actions: [{ type: 'delete_items', dataset_id: DATASET_ID, item_ids: ['img-2', 'img-4'] }],
  });
  await waitFor(() => expect(counter()).toBeNull());
  expect(screen.queryByTestId('pending-changes')).toBeNull();
}, 60_000);

test('Escape clears the selection, Ctrl/Cmd+A selects the whole result', async () => {
  exploreServer();
  renderApp(explorePath);
  await gridReady();
  fireEvent.click(cards()[3]!);
  expect(counter()).toContain('1 selected');
  fireEvent.keyDown(cards()[3]!, { key: 'Escape' });
  expect(counter()).toBeNull();

  fireEvent.keyDown(document.body, { key: 'a', ctrlKey: true });
  expect(counter()).toContain('12 selected');
  fireEvent.keyDown(document.body, { key: 'Escape' });
  expect(counter()).toBeNull();
  fireEvent.keyDown(cards()[0]!, { key: 'a', metaKey: true });
  expect(counter()).toContain('12 selected');
}, 60_000);

test('Escape is the text field’s or the open menu’s first', async () => {
  exploreServer();
  renderApp(explorePath);
  await gridReady();
  fireEvent.keyDown(document.body, { key: 'a', ctrlKey: true });
  expect(counter()).toContain('12 selected');
  fireEvent.click(screen.getByRole('button', { name: /Filter$/ }));
  const search = await screen.findByLabelText('Search properties');
  fireEvent.keyDown(search, { key: 'Escape' });
  expect(counter()).toContain('12 selected');
  fireEvent.click(screen.getByRole('button', { name: /Filter$/ }));

  // Escape with the actions menu open is the menu's (it closes), not the selection's.
  await openActions(screen.getByTestId('explore-toolbar'));
  fireEvent.keyDown(screen.getByTestId('item-actions'), { key: 'Escape' });
  expect(counter()).toContain('12 selected');
}, 60_000);

test('a lasso on the map offers the same actions beside its preview', async () => {
  const ids = Array.from({ length: 12 }, (_, i) => `img-${i}`);
  exploreServer({
    routes: {
      [`GET ${api}/embeddings/settings`]: () => ({ body: settings() }),
      [`POST ${api}/embeddings/points`]: () => ({ body: readyPoints(ids, {}, 7) }),
    },
  });
  renderApp(`${explorePath}?view=embeddings`);
  const canvas = await screen.findByTestId('embeddings-canvas', {}, { timeout: 15_000 });
  await waitFor(() => expect(canvas.getAttribute('data-drawn-points')).toBe('12'));
  act(() => lastScatter().events.onLasso([5, 6, 7]));
  const strip = await screen.findByTestId('embeddings-selection');
  expect(await openActions(strip)).toEqual(['Add to subset', 'Update split', 'Delete']);
  expect(counter()).toContain('3 selected');
}, 60_000);

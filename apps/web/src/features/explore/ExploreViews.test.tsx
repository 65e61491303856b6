// The Explore page's views as a user meets them: the view switch, the split divider, the
// selection shared by grid and map, opening an item from the map, and Find similar. The map's
// WebGL scatter is replaced by its fake (happy-dom has no WebGL) by the embeddings' testing module.
import '../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, expect, test, vi } from 'vitest';
import { lastScatter, readyPoints, scatters, settings } from '../embeddings/testing';
import { renderApp } from '../../test/renderApp';
import { DATASET_ID, api, explorePath, exploreServer } from './testData';

beforeEach(() => {
  scatters.length = 0;
});

const ids = Array.from({ length: 12 }, (_, i) => `img-${i}`);
const mapRoutes = {
  [`GET ${api}/embeddings/settings`]: () => ({ body: settings() }),
  // Point i is row i of the grid's item table (version 7, as testData's item_ids answers).
  [`POST ${api}/embeddings/points`]: () => ({ body: readyPoints(ids, {}, 7) }),
};
const cards = () => screen.getAllByTestId('item-card');
const selectedCards = () =>
  cards()
    .filter((card) => card.getAttribute('aria-selected') === 'true')
    .map((card) => card.dataset.itemId);

async function gridReady() {
  await waitFor(
    () => expect(screen.getByTestId('explore-grid').getAttribute('data-rendered-cards')).toBe('12'),
    { timeout: 15_000 },
  );
}

async function mapDrawn() {
  const canvas = await screen.findByTestId('embeddings-canvas', {}, { timeout: 15_000 });
  await waitFor(() => expect(canvas.getAttribute('data-drawn-points')).toBe('12'));
  return lastScatter();
}

test('the view switch shows the grid, the map, or both split, and keeps the view in the URL', async () => {
  exploreServer({ routes: mapRoutes });
  const view = renderApp(explorePath);
  await gridReady();
  expect(screen.queryByTestId('embeddings-view')).toBeNull();
  // The display controls sit in the page header, not in the toolbar above the grid.
  const header = screen.getByRole('banner');
  const display = within(header).getByTestId('explore-display');
  expect(within(display).getByRole('radiogroup', { name: 'View' })).toBeTruthy();
  expect(within(display).getByRole('button', { name: 'Card config' })).toBeTruthy();
  expect(within(display).getByRole('slider', { name: 'Card size' })).toBeTruthy();
  expect(within(screen.getByTestId('explore-toolbar')).queryByText('Grid')).toBeNull();

  fireEvent.click(screen.getByText('Embeddings'));
  await mapDrawn();
  expect(view.location()).toContain('view=embeddings');
  expect(screen.queryByTestId('explore-grid')).toBeNull();
  // No cards in this view: nothing to configure or size.
  expect(within(display).queryByRole('button', { name: 'Card config' })).toBeNull();
  expect(within(display).queryByRole('slider', { name: 'Card size' })).toBeNull();

  fireEvent.click(screen.getByText('Split'));
  await waitFor(() => expect(view.location()).toContain('view=split'));
  expect(screen.getByTestId('explore-grid')).toBeTruthy();
  expect(screen.getByTestId('embeddings-view')).toBeTruthy();
  expect(screen.getByRole('separator').getAttribute('aria-valuenow')).toBe('50');

  fireEvent.click(screen.getByText('Grid'));
  await waitFor(() => expect(view.location()).not.toContain('view='));
  expect(screen.queryByTestId('embeddings-view')).toBeNull();
});

test('the split divider drags within 33–66 percent, and a double click resets it to 50', async () => {
  exploreServer({ routes: mapRoutes });
  renderApp(`${explorePath}?view=split`);
  const divider = await screen.findByRole('separator', {}, { timeout: 15_000 });
  const box = screen.getByTestId('explore-split');
  vi.spyOn(box, 'getBoundingClientRect').mockReturnValue({
    left: 0,
    width: 1000,
    top: 0,
    height: 600,
  } as DOMRect);
  const left = screen.getByTestId('split-left');
  fireEvent.pointerDown(divider, { clientX: 500, pointerId: 1 });
  fireEvent.pointerMove(divider, { clientX: 400, pointerId: 1 });
  expect(divider.getAttribute('aria-valuenow')).toBe('40');
  expect(left.style.width).toContain('40%');
  fireEvent.pointerMove(divider, { clientX: 950, pointerId: 1 });
  expect(divider.getAttribute('aria-valuenow')).toBe('66');
  fireEvent.pointerUp(divider, { clientX: 950, pointerId: 1 });
  // Without a drag, moving the pointer changes nothing.
  fireEvent.pointerMove(divider, { clientX: 100, pointerId: 1 });
  expect(divider.getAttribute('aria-valuenow')).toBe('66');
  fireEvent.doubleClick(divider);
  expect(divider.getAttribute('aria-valuenow')).toBe('50');
  fireEvent.keyDown(divider, { key: 'ArrowLeft' });
  expect(divider.getAttribute('aria-valuenow')).toBe('48');
});

test('a lasso on the map selects in the grid, the grid selection shows on the map, and the data level is locked meanwhile', async () => {
  exploreServer({ routes: mapRoutes });
  const view = renderApp(`${explorePath}?view=split`);
  await gridReady();
  const fake = await mapDrawn();

  act(() => fake.events.onLasso([2, 3, 4]));
  await waitFor(() =>
    expect(screen.getByTestId('selection-counter').textContent).toContain('3 selected'),
  );
  expect(selectedCards()).toEqual(['img-2', 'img-3', 'img-4']);
  await waitFor(() => expect([...fake.selected].sort()).toEqual([2, 3, 4]));

  // The level selector is locked with the product's message while the map's selection stands.
  const object = screen.getByText('Object');
  fireEvent.click(object);
  expect(view.location()).not.toContain('level=image_object');
  fireEvent.mouseEnter(object);
  expect(
    await screen.findByText('Cannot change data level while exploring embeddings selection.'),
  ).toBeTruthy();

  // A click in the grid changes the selection there and on the map, and unlocks the level.
  fireEvent.click(cards()[7]!);
  await waitFor(() => expect([...fake.selected].sort()).toEqual([2, 3, 4, 7]));
  fireEvent.click(screen.getByText('Object'));
  await waitFor(() => expect(view.location()).toContain('level=image_object'));
});

test('points of an older item table are asked for once more, and their lasso selects nothing', async () => {
  let answers = 0;
  exploreServer({
    routes: {
      ...mapRoutes,
      // The map's points predate an upload that the grid's rows (version 7) already include.
      [`POST ${api}/embeddings/points`]: () => {
        answers++;
        return { body: readyPoints(ids, {}, 6) };
      },
    },
  });
  renderApp(`${explorePath}?view=split`);
  await gridReady();
  const fake = await mapDrawn();
  await waitFor(() => expect(answers).toBe(2));
  act(() => fake.events.onLasso([2, 3]));
  fireEvent.click(cards()[5]!);
  await waitFor(() =>
    expect(screen.getByTestId('selection-counter').textContent).toContain('1 selected'),
  );
  // Rows of version 6 are not rows of version 7: no selection from them, none shown on the map.
  expect(selectedCards()).toEqual(['img-5']);
  expect(fake.selected).toEqual([]);
  expect(answers).toBe(2);
});

test('a click on a point opens the item viewer at that item', async () => {
  exploreServer({ routes: mapRoutes });
  const view = renderApp(`${explorePath}?view=embeddings`);
  const fake = await mapDrawn();
  act(() => fake.events.onPointClick(5));
  await waitFor(() => expect(view.location()).toContain('item=img-5'));
  expect(await screen.findByText('6/12', {}, { timeout: 15_000 })).toBeTruthy();
});

test('Find similar takes the selected ids to the Similar items page', async () => {
  exploreServer();
  const view = renderApp(explorePath);
  await gridReady();
  fireEvent.click(cards()[4]!);
  fireEvent.click(cards()[2]!);
  fireEvent.click(screen.getByRole('button', { name: /Find similar/ }));
  await waitFor(() =>
    expect(view.location()).toBe(
      `/datasets/${DATASET_ID}/subsets/selection/similar?sample_ids=img-2,img-4`,
    ),
  );
});

test('Find similar is disabled with a license message without a valid license', async () => {
  exploreServer({
    routes: { 'GET /api/settings/license': () => ({ body: { state: 'EXPIRED', key: 'k' } }) },
  });
  renderApp(explorePath);
  await gridReady();
  fireEvent.click(cards()[1]!);
  const button = screen.getByRole('button', { name: /Find similar/ }) as HTMLButtonElement;
  expect(button.disabled).toBe(true);
  fireEvent.mouseEnter(screen.getByTestId('find-similar'));
  expect(await screen.findByText('A valid license is needed to find similar items.')).toBeTruthy();
});

// The embeddings map as a user meets it, with the WebGL scatter replaced by a fake.
import '../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, test, vi } from 'vitest';
import { findDialog } from '../../test/findDialog';
import { fakeServer } from '../../test/fakeServer';
import {
  api,
  DATASET_ID,
  embeddingsRoutes,
  lastScatter,
  readyPoints,
  renderView,
  scatters,
  settings,
} from './testing';

beforeEach(() => {
  scatters.length = 0;
});

async function drawn() {
  const canvas = await screen.findByTestId('embeddings-canvas');
  await waitFor(() => expect(canvas.getAttribute('data-drawn-points')).not.toBeNull());
  return canvas;
}

test('draws the points, announces it, and shows the count and the legend', async () => {
  const { calls } = fakeServer(embeddingsRoutes());
  const events: number[] = [];
  const listener = (event: Event) =>
    events.push((event as CustomEvent<{ points: number }>).detail.points);
  window.addEventListener('loupe:scatter-drawn', listener);
  renderView({ colorBy: 'label', filter: { type: 'and', children: [] } });
  const canvas = await drawn();
  window.removeEventListener('loupe:scatter-drawn', listener);

  expect(canvas.getAttribute('data-drawn-points')).toBe('5');
  expect(events).toEqual([5]);
  expect(screen.getByText('5 points')).toBeTruthy();
  const legend = screen.getByTestId('embeddings-legend');
  expect(within(legend).getByText('cat')).toBeTruthy();
  expect(within(legend).getByText('dog')).toBeTruthy();
  expect(within(legend).getByText('Missing')).toBeTruthy();
  const draw = lastScatter().draws.at(-1)!;
  expect(draw.x).toHaveLength(5);
  // Colour index per point follows the colour key: i % 2 → category 0 or 1.
  expect([...draw.colorIndex]).toEqual([0, 1, 0, 1, 0]);
  const request = calls.find((call) => call.path === `${api}/points`)!.body;
  expect(request).toMatchObject({
    data_level: 'image',
    feature_name: 'clip',
    dimensionality_reduction_setting: { method: 'UMAP', num_neighbors: 15 },
    color_by: 'label',
    filter: { type: 'and', children: [] },
  });
});

test('polls while the points are computing, showing progress, then draws them', async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  let answers = 0;
  fakeServer(
    embeddingsRoutes({
      [`POST ${api}/points`]: () => {
        answers++;
        return {
          body:
            answers < 2
              ? { status: 'computing', progress: 0.4, points: [], legend: null, num_missing: 0 }
              : readyPoints(['a', 'b']),
        };
      },
    }),
  );
  renderView();
  expect(await screen.findByText('Computing embeddings…')).toBeTruthy();
  expect(screen.getByText('40%')).toBeTruthy();
  await act(() => vi.advanceTimersByTimeAsync(3000));
  const canvas = await drawn();
  expect(canvas.getAttribute('data-drawn-points')).toBe('2');
  expect(answers).toBe(2);
});

test('a lasso selects items, the selection shows as thumbnails with +N, and a double click clears it', async () => {
  const ids = Array.from({ length: 12 }, (_, i) => `item-${i}`);
  fakeServer(embeddingsRoutes({}, { ids }));
  const view = renderView();
  await drawn();
  const fake = lastScatter();
  act(() => fake.events.onLasso([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
  // The lassoed points' rows of the item table, with its version.
  expect(view.onSelectionChange).toHaveBeenLastCalledWith([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 1);
  // 10 selected: 8 slots (two rows of 4), one of them '+3'.
  await waitFor(() => expect(screen.getAllByTestId('embeddings-selection-item')).toHaveLength(7));
  expect(screen.getByTestId('embeddings-selection-more').textContent).toBe('+3');
  expect(screen.getByText('10 selected')).toBeTruthy();
  // The scatter is told which points are selected.
  expect(fake.selected).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

  act(() => fake.events.onDeselect());
  expect(view.onSelectionChange).toHaveBeenLastCalledWith([], 1);
  await waitFor(() => expect(screen.queryByTestId('embeddings-selection')).toBeNull());
});

test('a selection made elsewhere is shown on the map; clicking a point or a thumbnail opens the item', async () => {
  fakeServer(embeddingsRoutes());
  // Rows 2 ('c') and 99 (not a point of the map).
  const view = renderView({}, [2, 99]);
  await drawn();
  const fake = lastScatter();
  await waitFor(() => expect(fake.selected).toEqual([2]));
  act(() => fake.events.onPointClick(3));
  expect(view.onOpenItem).toHaveBeenLastCalledWith(3, 1);
  const user = userEvent.setup();
  // The thumbnail of row 2 is titled with its item id, fetched by row.
  await user.click(await screen.findByTitle('c'));
  expect(view.onOpenItem).toHaveBeenLastCalledWith(2, 1);
  await user.click(screen.getByRole('button', { name: 'Clear selection' }));
  expect(view.onSelectionChange).toHaveBeenLastCalledWith([], 1);
});

test('hovering a point shows its 140 px preview after 200 ms', async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  fakeServer(embeddingsRoutes());
  renderView();
  await drawn();
  const fake = lastScatter();
  act(() => fake.events.onHover(1));
  await act(() => vi.advanceTimersByTimeAsync(150));
  expect(screen.queryByTestId('embeddings-hover-preview')).toBeNull();
  await act(() => vi.advanceTimersByTimeAsync(60));
  const preview = await screen.findByTestId('embeddings-hover-preview');
  const image = await within(preview).findByRole('img');
  expect(image.getAttribute('src')).toBe('/thumbs/b.webp');
  const picture = within(preview).getByTestId('hover-preview-picture');
  expect([picture.style.width, picture.style.height]).toEqual(['140px', '140px']);
  expect(within(preview).getByText('label of b')).toBeTruthy();
  act(() => fake.events.onHover(null));
  expect(screen.queryByTestId('embeddings-hover-preview')).toBeNull();
});

test("in a comparison, the hover preview shows model A's and model B's predictions", async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  const A = '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
  const B = '6b2c3d4e-5f60-4b7c-9d8e-0f1a2b3c4d5e';
  const request = {
    predictions_id_a: A,
    predictions_id_b: B,
    split: 'test',
    metric: 'f1',
    regression_value_name: null,
  };
  const prediction = (label: string, score: number) => ({
    label,
    score,
    probabilities: null,
    values: null,
    transcript: null,
    mask_src: null,
  });
  const routes = embeddingsRoutes();
  const items = routes[`POST /api/datasets/${DATASET_ID}/items`]!;
  // This is model B's explorer: the item's own prediction is B's, the compared one A's.
  const { calls } = fakeServer({
    ...routes,
    [`POST /api/datasets/${DATASET_ID}/items`]: async (call) => {
      const answer = (await items(call)) as { body: { items: Record<string, unknown>[] } };
      const body = answer.body;
      return {
        body: {
          ...body,
          items: body.items.map((item) => ({
            ...item,
            prediction: prediction('dog', 0.55),
            // A ground-truth box and B's predicted box; A's predicted box comes compared.
            objects: [
              { id: 'gt', label: 'dog', type: 'gt', coords: [0.1, 0.1, 0.5, 0.5] },
              { id: 'pb', label: 'dog', type: 'pred', score: 0.55, coords: [0.1, 0.2, 0.5, 0.6] },
            ],
            compared_prediction: {
              predictions_id: A,
              prediction: prediction('cat', 0.91),
              objects: [
                { id: 'pa', label: 'cat', type: 'pred', score: 0.91, coords: [0.2, 0.1, 0.6, 0.5] },
              ],
            },
          })),
        },
      };
    },
  });
  renderView({
    predictionsId: B,
    compared: {
      request,
      own: 'B',
      a: { key: 'A', id: A, name: 'ResNet 50', color: '#1677ff' },
      b: { key: 'B', id: B, name: 'ViT', color: '#fa8c16' },
    },
  });
  await drawn();
  act(() => lastScatter().events.onHover(1));
  await act(() => vi.advanceTimersByTimeAsync(210));
  const preview = await screen.findByTestId('embeddings-hover-preview');
  const tagA = await within(preview).findByTestId('compared-prediction-A');
  expect(tagA.textContent).toBe('A: cat 0.91');
  expect(tagA.getAttribute('title')).toBe('ResNet 50: cat 0.91');
  expect(within(preview).getByTestId('compared-prediction-B').textContent).toBe('B: dog 0.55');
  expect(within(preview).getByText('label of b')).toBeTruthy();
  // The card's picture: the ground truth, then A's and B's boxes dashed in the models' colours.
  fireEvent.load(within(preview).getByRole('img'));
  const boxes = within(preview).getAllByTestId('card-box');
  expect(
    boxes.map((box) => [box.getAttribute('stroke'), box.hasAttribute('stroke-dasharray')]),
  ).toEqual([
    [expect.any(String), false],
    ['#1677ff', true],
    ['#fa8c16', true],
  ]);
  const asked = calls.filter((call) => call.path === `/api/datasets/${DATASET_ID}/items`);
  expect(asked.at(-1)!.body).toMatchObject({ rows: [1], predictions_id: B, comparison: request });
});

test('zoom buttons zoom by 0.7 and 1.3 and disable at the scale bounds', async () => {
  fakeServer(embeddingsRoutes());
  renderView();
  await drawn();
  const fake = lastScatter();
  const user = userEvent.setup();
  const zoomIn = screen.getByRole('button', { name: 'Zoom in' });
  const zoomOut = screen.getByRole('button', { name: 'Zoom out' });
  await waitFor(() => expect(zoomIn.hasAttribute('disabled')).toBe(false));
  await user.click(zoomIn);
  expect(fake.zooms.at(-1)).toBeCloseTo(0.7);
  await user.click(zoomOut);
  expect(fake.zooms.at(-1)).toBeCloseTo(0.91);
  // The user wheels out to the widest view (scale 0.5): zoom out disables.
  act(() => fake.events.onView(2));
  expect(zoomOut.hasAttribute('disabled')).toBe(true);
  expect(zoomIn.hasAttribute('disabled')).toBe(false);
  act(() => fake.events.onView(1 / 160));
  expect(zoomIn.hasAttribute('disabled')).toBe(true);
});

test('pan/zoom by default with a grab cursor; lasso mode and Shift give a crosshair', async () => {
  fakeServer(embeddingsRoutes());
  renderView();
  const canvas = await drawn();
  const fake = lastScatter();
  expect(fake.mouseMode).toBe('panZoom');
  expect(canvas.style.cursor).toBe('grab');
  fireEvent.keyDown(window, { key: 'Shift' });
  expect(canvas.style.cursor).toBe('crosshair');
  fireEvent.keyUp(window, { key: 'Shift' });
  expect(canvas.style.cursor).toBe('grab');
  const user = userEvent.setup();
  await user.click(screen.getByLabelText(/Lasso selection/));
  expect(fake.mouseMode).toBe('lasso');
  expect(canvas.style.cursor).toBe('crosshair');
});

test('point size starts at 4 and the slider runs from 3 to 10', async () => {
  fakeServer(embeddingsRoutes());
  renderView();
  await drawn();
  expect(lastScatter().pointSize).toBe(4);
  const slider = screen.getByRole('slider', { name: 'Point size' });
  expect(slider.getAttribute('aria-valuemin')).toBe('3');
  expect(slider.getAttribute('aria-valuemax')).toBe('10');
  fireEvent.keyDown(slider, { key: 'ArrowRight', keyCode: 39, which: 39 });
  await waitFor(() => expect(lastScatter().pointSize).toBe(5));
});

test('without features: No features found and how to get some, and no points are asked for', async () => {
  const { calls } = fakeServer(
    embeddingsRoutes({
      [`GET ${api}/settings`]: () => ({
        body: settings({ feature_names: [], feature_name: null }),
      }),
    }),
  );
  renderView();
  expect(await screen.findByText('No features found')).toBeTruthy();
  expect(
    screen.getByText('You need to upload at least one feature to enable embeddings.'),
  ).toBeTruthy();
  expect(calls.filter((call) => call.path === `${api}/points`)).toEqual([]);
});

test('a failed computation says so and offers the settings', async () => {
  fakeServer(
    embeddingsRoutes({
      [`POST ${api}/points`]: () => ({
        body: { status: 'failed', points: [], legend: null, num_missing: 0 },
      }),
    }),
  );
  renderView();
  expect(await screen.findByText('Failed to compute embeddings')).toBeTruthy();
  expect(screen.getByText(/try another dimensionality reduction method or feature/)).toBeTruthy();
});

test('a 424 is the computation failing; other errors are Embeddings failed to load', async () => {
  fakeServer(
    embeddingsRoutes({
      [`POST ${api}/points`]: () => ({ status: 424, body: { description: 'x', retriable: false } }),
    }),
  );
  const first = renderView();
  expect(await screen.findByText('Failed to compute embeddings')).toBeTruthy();
  first.unmount();
  fakeServer(
    embeddingsRoutes({
      [`POST ${api}/points`]: () => ({ status: 400, body: { description: 'x', retriable: false } }),
    }),
  );
  renderView();
  expect(await screen.findByText('Embeddings failed to load')).toBeTruthy();
});

test('losing the WebGL context replaces the map with the crash message', async () => {
  fakeServer(embeddingsRoutes());
  renderView();
  const container = await drawn();
  act(() => {
    container.querySelector('canvas')!.dispatchEvent(new Event('webglcontextlost'));
  });
  expect(await screen.findByText('WebGL crashed')).toBeTruthy();
  expect(screen.getByText(/large datasets or many unique attribute values/)).toBeTruthy();
  expect(screen.getByRole('button', { name: /Refresh page/ })).toBeTruthy();
  expect(screen.getByRole('button', { name: /Download debug information/ })).toBeTruthy();
  expect(lastScatter().destroyed).toBe(true);
});

test('settings: Apply only for a change, t-SNE warns above 20,000 points, and saving redraws', async () => {
  let saved = settings();
  const { calls } = fakeServer(
    embeddingsRoutes({
      [`GET ${api}/settings`]: () => ({ body: saved }),
      [`PUT ${api}/settings`]: (call) => {
        const body = call.body as typeof saved & { data_level: string };
        saved = {
          ...saved,
          feature_name: body.feature_name,
          dimensionality_reduction_setting: body.dimensionality_reduction_setting,
        };
        return { body: saved };
      },
    }),
  );
  renderView({ dataset: { ...(await import('./testing')).dataset(), samples_count: 50_000 } });
  await drawn();
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Embeddings settings' }));
  const dialog = await findDialog('Embeddings settings');
  const apply = within(dialog).getByRole('button', { name: 'Apply' });
  expect(apply.hasAttribute('disabled')).toBe(true);

  await user.click(within(dialog).getByText('t-SNE'));
  const perplexity = within(dialog).getByLabelText('Perplexity') as HTMLInputElement;
  expect(perplexity.value).toBe('30.0');
  expect(apply.hasAttribute('disabled')).toBe(false);
  // The map drawn has 5 points: no warning.
  expect(within(dialog).queryByText(/t-SNE is slow/)).toBeNull();
  await user.click(apply);
  await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
  expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({
    data_level: 'image',
    feature_name: 'clip',
    dimensionality_reduction_setting: { method: 'TSNE', perplexity: 30 },
  });
  await waitFor(() =>
    expect(
      calls.filter(
        (call) =>
          call.path === `${api}/points` &&
          (call.body as { dimensionality_reduction_setting: { method: string } })
            .dimensionality_reduction_setting.method === 'TSNE',
      ),
    ).toHaveLength(1),
  );
});

test('t-SNE on more than 20,000 points shows the slow warning', async () => {
  const ids = Array.from({ length: 20_001 }, (_, i) => `i${i}`);
  fakeServer(embeddingsRoutes({}, { ids }));
  renderView();
  await drawn();
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Embeddings settings' }));
  const dialog = await findDialog('Embeddings settings');
  await user.click(within(dialog).getByText('t-SNE'));
  expect(within(dialog).getByText(/t-SNE is slow above 20,000 points/)).toBeTruthy();
  await user.click(within(dialog).getByText('PCA'));
  expect(within(dialog).queryByText(/t-SNE is slow/)).toBeNull();
});

test('a saved feature that no longer exists is flagged in the dialog', async () => {
  fakeServer(
    embeddingsRoutes({
      [`GET ${api}/settings`]: () => ({ body: settings({ feature_name: 'deleted' }) }),
    }),
  );
  renderView();
  await drawn();
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Embeddings settings' }));
  const dialog = await findDialog('Embeddings settings');
  expect(
    within(dialog).getByText(
      'Selected feature is not available. Please select another feature from the dropdown menu',
    ),
  ).toBeTruthy();
  expect(within(dialog).getByRole('button', { name: 'Apply' }).hasAttribute('disabled')).toBe(true);
});

test("under a model the feature picker offers the model's features apart, and a choice maps by it", async () => {
  const PREDICTIONS_ID = '9d0e8c4a-1b2f-4e3d-8a7c-6b5d4e3f2a10';
  let saved = settings({
    feature_names: ['clip', 'resnet', 'penultimate'],
    predictions_feature_names: ['penultimate'],
  });
  const { calls } = fakeServer(
    embeddingsRoutes({
      [`GET ${api}/settings`]: () => ({ body: saved }),
      [`PUT ${api}/settings`]: (call) => {
        const body = call.body as { feature_name: string };
        saved = { ...saved, feature_name: body.feature_name };
        return { body: saved };
      },
    }),
  );
  renderView({ predictionsId: PREDICTIONS_ID });
  await drawn();
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Embeddings settings' }));
  const dialog = await findDialog('Embeddings settings');
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Feature' }));
  const list = await waitFor(() => {
    const found = document.querySelector<HTMLElement>(
      '.ant-select-dropdown:not(.ant-select-dropdown-hidden)',
    );
    if (!found?.querySelector('.ant-select-item-option')) throw new Error('no options yet');
    return found;
  });
  // Group titles, then each group's options, in the order a user reads them.
  expect(
    [...list.querySelectorAll('.ant-select-item-group, .ant-select-item-option')].map(
      (item) => item.textContent,
    ),
  ).toEqual(['Model Features', 'penultimate', 'Dataset Features', 'clip', 'resnet']);
  fireEvent.click(list.querySelector<HTMLElement>('.ant-select-item-option[title="penultimate"]')!);
  await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
  await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
  expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({
    data_level: 'image',
    predictions_id: PREDICTIONS_ID,
    feature_name: 'penultimate',
    dimensionality_reduction_setting: { method: 'UMAP', num_neighbors: 15 },
  });
  // The map asks for the model's feature's points, under the model.
  await waitFor(() =>
    expect(
      calls.some(
        (call) =>
          call.path === `${api}/points` &&
          (call.body as { feature_name?: string }).feature_name === 'penultimate',
      ),
    ).toBe(true),
  );
  const request = calls.findLast((call) => call.path === `${api}/points`)!.body as {
    predictions_id?: string;
  };
  expect(request.predictions_id).toBe(PREDICTIONS_ID);
});

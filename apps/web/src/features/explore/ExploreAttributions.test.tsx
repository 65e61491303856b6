// Attributions in the explorer as a user meets them: the display settings' picker (its messages
// without a model and outside the default view), heatmaps drawn over the cards and in the item
// viewer at the chosen opacity, and a choice made at opacity 0 showing them at 50.
import '../../test/setup';
import type { AttributionOverview, ExploreItem, ItemsRequest } from '@loupe/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp } from '../../test/renderApp';
import {
  api,
  explorePath,
  exploreModel,
  exploreServer,
  item,
  MODEL_ID,
  modelExplorePath as modelExplore,
} from './testData';

const heatmapSrc = (row: number) =>
  `${api}/predictions/${MODEL_ID}/attributions/heatmap?name=gradcam&sample_id=img-${row}`;

const gradcam: AttributionOverview = {
  id: 'image:gradcam',
  name: 'gradcam',
  associated_features: [],
  data_level: 'image',
  num_present: 6,
  num_missing: 6,
};

/** The model route's server: items with even rows carry a gradcam heatmap. */
function modelServer(attributions: AttributionOverview[] = [gradcam]) {
  return exploreServer({
    routes: {
      'GET /api/dataset/models': () => ({
        body: [exploreModel()],
      }),
      [`GET ${api}/predictions/${MODEL_ID}/attributions/overview`]: () => ({
        body: { attribution_overviews: attributions },
      }),
      [`POST ${api}/items`]: (call) => {
        const body = call.body as ItemsRequest;
        const rows = body.rows ?? (body.item_ids ?? []).map((id) => Number(/\d+/.exec(id)![0]));
        const items: ExploreItem[] = rows.map((row) => ({
          ...item(row),
          attributions: Object.fromEntries(
            row % 2 === 0 ? [['image:gradcam', { name: 'gradcam', src: heatmapSrc(row) }]] : [],
          ),
        }));
        return { body: { version: 7, items } };
      },
    },
  });
}

const loaded = () => screen.findByTestId('explore-toolbar', {}, { timeout: 30_000 });

async function openPicker() {
  fireEvent.click(await screen.findByTestId('attribution-control', {}, { timeout: 30_000 }));
  return screen.findByRole('tooltip');
}

/** Loads every card's picture, so overlays (drawn once the picture is there) can show. */
function loadPictures() {
  for (const img of document.querySelectorAll('[data-testid="item-card"] img')) fireEvent.load(img);
}

test('without a model the picker asks for one', { timeout: 120_000 }, async () => {
  exploreServer();
  renderApp(explorePath);
  await loaded();
  const picker = await openPicker();
  expect(within(picker).getByText('Select model to explore attributions')).toBeTruthy();
});

test(
  'a chosen attribution is drawn over the cards that have it, and in the viewer',
  { timeout: 120_000 },
  async () => {
    modelServer();
    const view = renderApp(modelExplore);
    await loaded();
    const picker = await openPicker();
    const select = await within(picker).findByRole('combobox', { name: 'Attribution' });
    fireEvent.mouseDown(select);
    fireEvent.click(await screen.findByTitle('gradcam'));
    await waitFor(() => expect(view.location()).toContain('attribution=image%3Agradcam'));
    await waitFor(() => expect(screen.getAllByTestId('item-card')).toHaveLength(12));
    loadPictures();
    const overlays = await screen.findAllByTestId('attribution-overlay');
    // Rows 0, 2, 4, … have a heatmap: six cards draw one, at the default opacity.
    expect(overlays.map((o) => o.getAttribute('data-src')).sort()).toEqual(
      [0, 2, 4, 6, 8, 10].map(heatmapSrc).sort(),
    );
    expect(overlays.every((o) => o.getAttribute('data-opacity') === '50')).toBe(true);

    // The viewer draws it over the image too, with its own opacity slider.
    fireEvent.doubleClick(screen.getAllByTestId('item-card')[0]!);
    const image = await screen.findByTestId('viewer-image', {}, { timeout: 30_000 });
    fireEvent.load(image);
    const stage = screen.getByTestId('image-stage');
    await waitFor(() => expect(within(stage).getByTestId('attribution-overlay')).toBeTruthy());
    expect(screen.getByRole('slider', { name: 'Attribution opacity' })).toBeTruthy();
  },
);

test(
  'choosing at opacity 0 shows the heatmaps at 50; another view clears the choice',
  { timeout: 120_000 },
  async () => {
    modelServer();
    const view = renderApp(`${modelExplore}?opacity=0`);
    await loaded();
    const picker = await openPicker();
    fireEvent.mouseDown(await within(picker).findByRole('combobox', { name: 'Attribution' }));
    fireEvent.click(await screen.findByTitle('gradcam'));
    await waitFor(() => expect(view.location()).toContain('attribution=image%3Agradcam'));
    expect(view.location()).not.toContain('opacity=');

    fireEvent.click(screen.getByText('Split'));
    await waitFor(() => expect(view.location()).toContain('view=split'));
    expect(view.location()).not.toContain('attribution=');
    const again = await openPicker();
    expect(
      within(again).getByText(
        'Attributions are only available for primary view, switch to default view to enable attributions',
      ),
    ).toBeTruthy();
  },
);

test('a model without attributions says how to upload them', { timeout: 120_000 }, async () => {
  modelServer([]);
  renderApp(modelExplore);
  await loaded();
  const picker = await openPicker();
  expect(
    await within(picker).findByText(
      'No attributions available, learn how to upload attributions...',
    ),
  ).toBeTruthy();
});

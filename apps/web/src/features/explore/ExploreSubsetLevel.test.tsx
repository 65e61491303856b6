// The explorer on a subset reached by a link that names no level (?subset_id=… alone): it opens
// at the subset's data level, asking for nothing at another level; an unknown subset is the
// page's not-found state. The map of a subset asks for the subset's points only.
import '../../test/setup';
import type { EmbeddingPointsRequest, ItemRowsRequest, Subset } from '@loupe/contracts';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, expect, test } from 'vitest';
import { readyPoints, scatters, settings } from '../embeddings/testing';
import { renderApp } from '../../test/renderApp';
import { DATASET_ID, api, exploreServer, explorePath } from './testData';

const SUBSET_ID = '1a000000-0000-4000-8000-000000000002';

beforeEach(() => {
  scatters.length = 0;
});

const subset: Subset = {
  id: SUBSET_ID,
  name: 'Small boxes',
  description: null,
  dataset_id: DATASET_ID,
  data_level: 'image_object',
  num_items: 3,
  enabled_for_performance: false,
  created: 0,
  updated: 0,
};

// The explorer is its own chunk: its first render may take a while on a busy machine.
const loaded = () => screen.findByTestId('explore-toolbar', {}, { timeout: 30_000 });

test(
  "a subset link without a level opens at the subset's data level",
  { timeout: 120_000 },
  async () => {
    const { calls } = exploreServer({
      routes: { [`GET ${api}/subsets`]: () => ({ body: [subset] }) },
    });
    const view = renderApp(`${explorePath}?subset_id=${SUBSET_ID}`);
    await loaded();
    await waitFor(() => expect(view.location()).toContain('level=image_object'));
    const level = await screen.findByRole('radiogroup', { name: 'Data level' });
    await waitFor(() =>
      expect(level.querySelector('.ant-segmented-item-selected')?.textContent).toBe('Object'),
    );
    await waitFor(() => expect(calls.some((call) => call.path === `${api}/item_rows`)).toBe(true));
    // Nothing was asked for at the sample level (the server refuses the subset there).
    const rowsCalls = calls
      .filter((call) => call.path === `${api}/item_rows`)
      .map((call) => call.body as ItemRowsRequest);
    expect(rowsCalls.every((body) => body.data_level === 'image_object')).toBe(true);
    expect(rowsCalls[0]).toMatchObject({ subset_id: SUBSET_ID });
  },
);

test('an unknown subset without a level is the not-found state', { timeout: 120_000 }, async () => {
  exploreServer({
    routes: {
      [`GET ${api}/subsets`]: () => ({ body: [] }),
      [`POST ${api}/item_rows`]: () => ({
        status: 404,
        body: { description: 'Subset not found', retriable: false },
      }),
    },
  });
  renderApp(`${explorePath}?subset_id=${SUBSET_ID}`);
  expect(await screen.findByText('Subset not found', {}, { timeout: 30_000 })).toBeTruthy();
});

test("the map of a subset asks for the subset's points only", { timeout: 120_000 }, async () => {
  const ids = ['obj-0', 'obj-1', 'obj-2'];
  const { calls } = exploreServer({
    count: 3,
    routes: {
      [`GET ${api}/embeddings/settings`]: () => ({ body: settings() }),
      [`POST ${api}/embeddings/points`]: () => ({ body: readyPoints(ids, {}, 7) }),
    },
  });
  renderApp(`${explorePath}?subset_id=${SUBSET_ID}&level=image_object&view=embeddings`);
  const canvas = await screen.findByTestId('embeddings-canvas', {}, { timeout: 30_000 });
  await waitFor(() => expect(canvas.getAttribute('data-drawn-points')).toBe('3'));
  const request = calls.find((call) => call.path === `${api}/embeddings/points`)!
    .body as EmbeddingPointsRequest;
  expect(request).toMatchObject({ subset_id: SUBSET_ID, data_level: 'image_object' });
});

// A model page's explore link (select=all, exploreState.ts): the explorer selects every item of the
// link's result once its rows are known, the grid, the counter and the embeddings map show that
// selection, and the request leaves the URL so a reload does not select again. The map's WebGL
// scatter is replaced by its fake (happy-dom has no WebGL) by the embeddings' testing module.
import '../../test/setup';
import type { Filter } from '@loupe/contracts';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, expect, test } from 'vitest';
import { lastScatter, readyPoints, scatters, settings } from '../embeddings/testing';
import { renderApp } from '../../test/renderApp';
import { api, exploreModel, exploreServer, modelExplorePath } from './testData';

beforeEach(() => {
  scatters.length = 0;
});

const ids = Array.from({ length: 12 }, (_, i) => `img-${i}`);
// Item i is 10.123 + 10·i wide (testData): items 2 to 6 are between 30 and 80.
const filter: Filter = {
  type: 'and',
  children: [{ type: 'numeric', metadata_id: 'width', op: 'between', value: [30, 80] }],
};

test(
  "a model page's link selects the whole result on arrival, then leaves the URL",
  { timeout: 120_000 },
  async () => {
    exploreServer({
      routes: {
        'GET /api/dataset/models': () => ({ body: [exploreModel()] }),
        [`GET ${api}/embeddings/settings`]: () => ({ body: settings() }),
        // Point i is row i of the grid's item table (version 7, as testData's item_ids answers).
        [`POST ${api}/embeddings/points`]: () => ({ body: readyPoints(ids, {}, 7) }),
      },
    });
    // A link as a model page builds it (models/performance/performanceRules.ts), in the split view.
    const search = new URLSearchParams({
      level: 'image',
      filter: JSON.stringify(filter),
      select: 'all',
      view: 'split',
    });
    const view = renderApp(`${modelExplorePath}?${search.toString()}`);

    const counter = await screen.findByTestId('selection-counter', {}, { timeout: 30_000 });
    await waitFor(() => expect(counter.textContent).toContain('5 selected'));
    await waitFor(() =>
      expect(screen.getByTestId('explore-grid').getAttribute('data-rendered-cards')).toBe('5'),
    );
    const selected = screen
      .getAllByTestId('item-card')
      .filter((card) => card.getAttribute('aria-selected') === 'true')
      .map((card) => card.dataset.itemId);
    expect(selected).toEqual(['img-2', 'img-3', 'img-4', 'img-5', 'img-6']);
    // The map highlights exactly those rows.
    await screen.findByTestId('embeddings-canvas', {}, { timeout: 15_000 });
    await waitFor(() => expect([...lastScatter().selected].sort()).toEqual([2, 3, 4, 5, 6]));

    // The request is gone from the URL (the rest of the link stays), the selection stays.
    await waitFor(() => expect(view.location()).not.toContain('select='));
    // Replaced, not pushed: Back does not return to the link that selects again.
    expect(view.router.state.historyAction).toBe('REPLACE');
    const url = new URL(view.location(), 'http://loupe.test');
    expect(url.pathname).toBe(modelExplorePath);
    expect(JSON.parse(url.searchParams.get('filter')!)).toEqual(filter);
    expect(url.searchParams.get('view')).toBe('split');
    expect(screen.getByTestId('selection-counter').textContent).toContain('5 selected');
  },
);

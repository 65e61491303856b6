// The map of one subset (the explorer's ?subset_id=): its points request names the subset, and
// the subset is part of the points' cache key, so the map without it asks again.
import '../../test/setup';
import type { EmbeddingPointsRequest } from '@loupe/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, expect, test } from 'vitest';
import { ThemeProvider } from '../../app/theme/ThemeProvider';
import { fakeServer } from '../../test/fakeServer';
import {
  api,
  dataset,
  embeddingsRoutes,
  readyPoints,
  renderView,
  scatters,
  TABLE_VERSION,
} from './testing';
// After ./testing, which puts the fake scatter in place of WebGL's.
import { EmbeddingsView } from './EmbeddingsView';

const SUBSET_ID = '1a000000-0000-4000-8000-000000000003';

beforeEach(() => {
  scatters.length = 0;
});

async function drawnPoints() {
  const canvas = await screen.findByTestId('embeddings-canvas');
  await waitFor(() => expect(canvas.getAttribute('data-drawn-points')).not.toBeNull());
  return canvas;
}

test("a subset's map asks for the subset's points, and the whole map asks again", async () => {
  const { calls } = fakeServer(
    embeddingsRoutes({
      // The server keeps the points to the subset's items: two of the five.
      [`POST ${api}/points`]: (call) => ({
        body: (call.body as EmbeddingPointsRequest).subset_id
          ? readyPoints(['a', 'b'])
          : readyPoints(['a', 'b', 'c', 'd', 'e']),
      }),
    }),
  );
  const pointsBodies = () =>
    calls
      .filter((call) => call.path === `${api}/points`)
      .map((call) => call.body as EmbeddingPointsRequest);
  const view = renderView({ subsetId: SUBSET_ID });
  const canvas = await drawnPoints();
  await waitFor(() => expect(canvas.getAttribute('data-drawn-points')).toBe('2'));
  expect(screen.getByText('2 points')).toBeTruthy();
  expect(pointsBodies()).toEqual([expect.objectContaining({ subset_id: SUBSET_ID })]);

  // The same map without the subset, on the same cache, is another query: asked for, all five
  // points drawn (a key without the subset would answer the cached two).
  view.rerender(
    <ThemeProvider>
      <QueryClientProvider client={view.queryClient}>
        <div style={{ height: 600 }}>
          <EmbeddingsView
            dataset={dataset()}
            dataLevel="image"
            selectedRows={new Set()}
            tableVersion={TABLE_VERSION}
            onSelectionChange={() => undefined}
            onOpenItem={() => undefined}
          />
        </div>
      </QueryClientProvider>
    </ThemeProvider>,
  );
  await waitFor(() =>
    expect(screen.getByTestId('embeddings-canvas').getAttribute('data-drawn-points')).toBe('5'),
  );
  expect(pointsBodies()).toHaveLength(2);
  expect(pointsBodies()[1]!.subset_id).toBeUndefined();
});

// The embeddings map on the Explore page, in an instance of its own: the map draws in the split
// view, a lasso selects in the grid, a point opens the item viewer, and Find similar takes the
// selection to the Similar items page; coloured by a boolean, the grid and the map agree.
import { api } from '@loupe/contracts';
import { expect, test } from 'vitest';
import { EmbeddingsMap, fitPoints, type MapPoint } from './pages/EmbeddingsMap';
import { ExplorePage } from './pages/ExplorePage';
import { ApiSession } from './support/api';
import { screenshot } from './support/browser';
import { readyPoints } from './support/embeddings';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance({ args: ['--demo'] });
const DEMO_DATASETS = 7;

/** The point farthest from its nearest neighbour: a click there hits it and nothing else. */
function loneliest(points: MapPoint[]): MapPoint {
  let best = points[0]!;
  let bestGap = -1;
  for (const a of points) {
    let gap = Infinity;
    for (const b of points) {
      if (a !== b) gap = Math.min(gap, Math.hypot(a.x - b.x, a.y - b.y));
    }
    // Away from the edge, where the map's legend and selection strip sit.
    if (gap > bestGap && Math.abs(a.x) < 0.6 && Math.abs(a.y) < 0.6) {
      best = a;
      bestGap = gap;
    }
  }
  return best;
}

test('explore: the map in the split view, a lasso selects in the grid, a point opens the viewer, find similar', async () => {
  const { page, server } = journey;
  const session = await ApiSession.signIn(server, ADMIN.email, ADMIN.password);
  await session.license();
  const datasets = await session.waitForSettledDatasets(DEMO_DATASETS);
  const shapes = datasets.find((dataset) => dataset.name === 'Demo · Shapes')!;
  const answer = await readyPoints(session, shapes.id);
  const points = fitPoints(answer.points!);

  await signIn(page, ADMIN.email, ADMIN.password, `/datasets/${shapes.id}/explore`);
  await page.getByTestId('explore-grid').waitFor();
  await page.getByLabel('View').getByText('Split', { exact: true }).click();
  await page.waitForURL(/view=split/);
  const map = new EmbeddingsMap(page);
  page.on('console', (message) => {
    if (message.type() === 'error') console.log('browser:', message.text().slice(0, 300));
  });
  const drawn = await map.drawn(90_000).catch(async (error: unknown) => {
    await screenshot(page, 'failure-explore-map');
    throw error;
  });
  expect(drawn).toBe(points.length);
  await page.getByRole('separator').waitFor();

  // A lasso over the middle of the map: the grid's selection counts the points inside it
  // (give or take the points on the lasso's edge).
  const from = { x: 0.3, y: 0.3 };
  const to = { x: 0.7, y: 0.7 };
  // The canvas as lassoed: a selection adds buttons to the toolbar, which may move the map.
  const box = (await map.canvas().boundingBox())!;
  await map.lasso(from, to);
  const counter = page.getByTestId('selection-counter');
  await counter.waitFor();
  const selected = Number((await counter.textContent())!.replace(/\D/g, ''));
  const inside = async (margin: number) => {
    let count = 0;
    for (const point of points) {
      const { x, y } = await map.screenOf(point, box);
      const fx = (x - box.x) / box.width;
      const fy = (y - box.y) / box.height;
      const mx = margin / box.width;
      const my = margin / box.height;
      if (fx > from.x + mx && fx < to.x - mx && fy > from.y + my && fy < to.y - my) count++;
    }
    return count;
  };
  expect(selected).toBeGreaterThan(0);
  expect(selected).toBeGreaterThanOrEqual(await inside(4));
  expect(selected).toBeLessThanOrEqual(await inside(-4));
  await screenshot(page, 'explore-split-light');

  // The same view in a dark theme.
  await page.evaluate(() => window.localStorage.setItem('loupe.theme', 'darkBlue'));
  await page.reload();
  await map.drawn();
  await screenshot(page, 'explore-split-dark');
  await page.evaluate(() => window.localStorage.setItem('loupe.theme', 'lightBlue'));
  await page.reload();
  await map.drawn();

  // A click on a point opens the item viewer at that item.
  const lone = loneliest(points);
  await map.clickPoint(lone);
  await page.waitForURL((url) => url.searchParams.get('item') === lone.id);
  await page.getByText('Item Details').first().waitFor();
  await screenshot(page, 'explore-map-item-viewer');
  await page.keyboard.press('Escape');
  await page.waitForURL((url) => !url.searchParams.has('item'));
  // The viewer's mask covers the map until its closing motion ends.
  await page.locator('.ant-modal-wrap').first().waitFor({ state: 'hidden' });

  // Find similar on a selection (lassoed again after the reload), this time with the toolbar's
  // lasso tool rather than Shift (the first lasso held Shift). The pointer comes back to the map
  // first, as a user's does after closing the viewer.
  await page.locator('.ant-segmented-item', { has: page.getByLabel(/Lasso selection/) }).click();
  await map.hover({ x: 0.5, y: 0.5 });
  await map.lasso(from, to);
  await counter.waitFor().catch(async (error: unknown) => {
    await screenshot(page, 'failure-explore-map-second-lasso');
    throw error;
  });
  const count = Number((await counter.textContent())!.replace(/\D/g, ''));
  await page.getByRole('button', { name: /Find similar/ }).click();
  await page.waitForURL(/\/subsets\/selection\/similar\?sample_ids=/);
  await page.getByRole('heading', { name: 'Similar items' }).waitFor();
  const sampleIds = new URL(page.url()).searchParams.get('sample_ids')!.split(',');
  expect(sampleIds).toHaveLength(count);
  await page.getByTestId('similar-query-item').first().waitFor({ timeout: 60_000 });
}, 480_000);

/** A computed CSS colour's channels. */
function channels(color: string): [number, number, number] {
  const [r = NaN, g = NaN, b = NaN] = (color.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return [r, g, b];
}

test('explore: split view coloured by a boolean gives each value one colour in grid and map', async () => {
  const { server } = journey;
  const session = await ApiSession.signIn(server, ADMIN.email, ADMIN.password);
  await session.license();
  const datasets = await session.waitForSettledDatasets(DEMO_DATASETS);
  const shapes = datasets.find((dataset) => dataset.name === 'Demo · Shapes')!;
  await readyPoints(session, shapes.id);
  const sets = await session.call(api.predictionSets.listForDataset, {
    query: { dataset_id: shapes.id },
  });
  expect(sets.length).toBeGreaterThan(0);

  // A page of its own, so this journey does not depend on the one above.
  const page = await journey.newPage();
  await signIn(
    page,
    ADMIN.email,
    ADMIN.password,
    `/models/datasets/${shapes.id}/predictions/${sets[0]!.id}/explore?view=split&color=prediction.is_correct`,
  );
  const explore = new ExplorePage(page);
  const map = new EmbeddingsMap(page);
  await explore.grid().waitFor();
  await map.drawn(90_000);

  const values = ['false', 'true'];
  for (const theme of ['light', 'dark'] as const) {
    const grid = await explore.legendColors(values);
    const onMap = await map.legendColors(values);
    for (const value of values)
      expect(onMap.get(value), `${theme}: ${value}`).toBe(grid.get(value));
    // False (incorrect) warm, true (correct) cool.
    const [fr, , fb] = channels(grid.get('false')!);
    const [tr, , tb] = channels(grid.get('true')!);
    expect(fr).toBeGreaterThan(fb);
    expect(tb).toBeGreaterThan(tr);
    await screenshot(page, `explore-split-boolean-${theme}`);
    if (theme === 'light') {
      await page.evaluate(() => window.localStorage.setItem('loupe.theme', 'darkBlue'));
      await page.reload();
      await map.drawn(90_000);
    }
  }
}, 300_000);

// The explore journey over the demo detection dataset: the grid, a numeric filter, a sort and
// its direction, colouring by split, switching to the object level.
import { expect, test } from 'vitest';
import { ExplorePage } from './pages/ExplorePage';
import { screenshot } from './support/browser';
import { ApiSession } from './support/api';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance({ args: ['--demo'] });
const DEMO_DATASETS = 7;

// Generous: the demo datasets are generated and processed first, on a shared machine.
test(
  'explore: filter, sort and colour the grid, then switch to objects',
  { timeout: 300_000 },
  async () => {
    const { page, server } = journey;
    const session = await ApiSession.signIn(server, ADMIN.email, ADMIN.password);
    const datasets = await session.waitForSettledDatasets(DEMO_DATASETS);
    const detection = datasets.find((dataset) => dataset.name === 'Demo · Shape detection')!;
    const samples = detection.samples_count!;
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.setViewportSize({ width: 1440, height: 900 });

    const explore = new ExplorePage(page);
    const first = await explore.open(`/datasets/${detection.id}/explore`);
    await explore.expectRendered(first, samples);
    const firstPaint = await explore.firstPaintMs();
    expect(firstPaint).not.toBeNull();
    // A figure, not a gate (tests never assert wall time): the load is in the run's output.
    console.log(`grid first paint ${firstPaint!.toFixed(0)} ms after navigation start`);
    await screenshot(page, 'explore-grid');

    const filtered = await explore.filterNumeric('Index', 0, 9);
    await explore.expectRendered(filtered, 10);
    expect(await page.getByTestId('items-count').textContent()).toBe(`10 of ${samples} items`);
    const inOrder = await explore.firstCardIds(3);

    const sorted = await explore.sortBy('Index');
    expect(sorted.total).toBe(10);
    expect(page.url()).toContain('sort=');
    const descending = await explore.sortDirection('Descending');
    expect(descending.total).toBe(10);
    const reversed = await explore.firstCardIds(3);
    expect(reversed).not.toEqual(inOrder);
    await explore.closePopovers();

    await page.getByRole('button', { name: /Sort/ }).first().click();
    await page.getByTestId('sort-popover').waitFor();
    await screenshot(page, 'explore-sort-editor');
    await explore.closePopovers();

    await explore.colorBy('Split');
    expect(await explore.cards().first().getAttribute('data-color')).toMatch(
      /^#[0-9a-f]{6}$|^hsl|^rgb/,
    );
    await screenshot(page, 'explore-grid-filtered-coloured');
    await page.getByRole('button', { name: /Filter$/ }).click();
    await page.getByTestId('filter-popover').waitFor();
    await page.getByRole('spinbutton', { name: 'Index From' }).fill('-5');
    await page.getByText(/^From must be at least/).waitFor();
    expect(await page.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
    await screenshot(page, 'explore-filter-popover');
    await explore.closePopovers();

    const objects = await explore.switchLevel('Object');
    await explore.expectRendered(objects, detection.objects_count);
    expect(page.url()).toContain('level=image_object');
    expect(page.url()).not.toContain('filter=');
    await screenshot(page, 'explore-objects');
  },
);

test(
  'explore in a dark theme: coloured object cards with a continuous legend',
  { timeout: 300_000 },
  async () => {
    const { server } = journey;
    const session = await ApiSession.signIn(server, ADMIN.email, ADMIN.password);
    const datasets = await session.waitForSettledDatasets(DEMO_DATASETS);
    const detection = datasets.find((dataset) => dataset.name === 'Demo · Shape detection')!;
    const page = await journey.newPage({ theme: 'darkBlue' });
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.setViewportSize({ width: 1440, height: 900 });
    const explore = new ExplorePage(page);
    const render = await explore.open(
      `/datasets/${detection.id}/explore?level=image_object&color=card_index`,
    );
    await explore.expectRendered(render, detection.objects_count);
    await page.getByTestId('legend-scale').waitFor();
    await explore.cards().first().click();
    await explore
      .cards()
      .nth(3)
      .click({ modifiers: ['Shift'] });
    await page.getByTestId('selection-counter').filter({ hasText: '4 selected' }).waitFor();
    await explore.cards().nth(5).hover();
    await screenshot(page, 'explore-dark');
  },
);

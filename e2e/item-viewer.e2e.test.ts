// The explorer → item viewer journey on the demo datasets: open an item from a filtered, sorted,
// coloured grid, step through it with the keyboard, hide and show boxes, close with Escape; play
// an audio clip with Space and read its word errors; search the sidebar metadata.
import { api, type Dataset } from '@loupe/contracts';
import { expect, test } from 'vitest';
import { ExplorePage } from './pages/ExplorePage';
import { ItemViewer } from './pages/ItemViewer';
import { ApiSession } from './support/api';
import { screenshot } from './support/browser';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance({ args: ['--demo'] });
const DEMO_DATASETS = 7;

async function demoDatasets(): Promise<{ session: ApiSession; datasets: Dataset[] }> {
  const session = await ApiSession.signIn(journey.server, ADMIN.email, ADMIN.password);
  const datasets = await session.waitForSettledDatasets(DEMO_DATASETS);
  return { session, datasets };
}

function named(datasets: Dataset[], name: string): Dataset {
  const dataset = datasets.find((candidate) => candidate.name === name);
  if (!dataset) throw new Error(`No demo dataset named ${name}`);
  return dataset;
}

// Generous: the demo datasets are generated and processed first, on a shared machine.
test(
  'item viewer: open from a filtered grid, step with arrows, toggle boxes, close',
  { timeout: 300_000 },
  async () => {
    const { page } = journey;
    const { datasets } = await demoDatasets();
    const detection = named(datasets, 'Demo · Shape detection');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.setViewportSize({ width: 1440, height: 900 });

    const explore = new ExplorePage(page);
    await explore.open(`/datasets/${detection.id}/explore`);
    const filtered = await explore.filterNumeric('Index', 0, 9);
    await explore.expectRendered(filtered, 10);
    await explore.sortBy('Index');
    await explore.sortDirection('Descending');
    await explore.closePopovers();
    await explore.colorBy('Split');

    const viewer = new ItemViewer(page);
    const firstCard = (await explore.firstCardIds(1))[0]!;
    const opened = await viewer.openByDoubleClick(explore.cards().first());
    expect(opened).toBe(firstCard);
    expect(await viewer.counter().textContent()).toBe('1/10');
    expect(page.url()).toContain(`item=${encodeURIComponent(opened)}`);

    const second = await viewer.next(0);
    const third = await viewer.next(1);
    expect(await viewer.counter().textContent()).toBe('3/10');
    expect(new Set([opened, second, third]).size).toBe(3);
    expect(await viewer.itemId()).toBe(third);
    // The viewer steps through the grid's order (Index descending), not another one.
    expect(third).toBe((await explore.firstCardIds(3))[2]);

    await viewer.boxes().first().waitFor();
    const boxes = await viewer.boxes().count();
    expect(boxes).toBeGreaterThan(0);
    await screenshot(page, 'item-viewer-detection');
    await page.keyboard.press('b');
    await viewer.boxes().first().waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Show boxes and masks (B)' }).count()).toBe(1);
    await page.keyboard.press('b');
    await viewer.boxes().first().waitFor();
    expect(await viewer.boxes().count()).toBe(boxes);

    await viewer.closeWithEscape();
    await page.waitForURL((url) => !url.searchParams.has('item'));
    // The explorer's own state stays in the URL.
    expect(page.url()).toContain('sort=');
    expect(page.url()).toContain('filter=');
  },
);

test(
  'item viewer on speech recognition with a prediction set: Space plays, word errors show',
  { timeout: 300_000 },
  async () => {
    const { session, datasets } = await demoDatasets();
    // A fresh context: each journey signs in from the login page.
    const page = await journey.newPage();
    const speech = named(datasets, 'Demo · Beep words');
    const sets = await session.call(api.predictionSets.listForDataset, {
      query: { dataset_id: speech.id },
    });
    expect(sets.length).toBeGreaterThan(0);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.setViewportSize({ width: 1440, height: 900 });

    const explore = new ExplorePage(page);
    await explore.open(`/models/datasets/${speech.id}/predictions/${sets[0]!.id}/explore`);
    // The worst transcript first, so its alignment has errors to show.
    await explore.sortBy('Word error rate');
    await explore.sortDirection('Descending');
    await explore.closePopovers();

    const viewer = new ItemViewer(page);
    await viewer.openByEnter(explore.cards().first());
    expect(await viewer.counter().textContent()).toBe(`1/${speech.samples_count}`);
    const types = await viewer.wordErrorTypes();
    expect(types.length).toBeGreaterThan(0);
    for (const type of types) expect(['I', 'D', 'S', '-']).toContain(type);
    expect(types.some((type) => type !== '-')).toBe(true);
    expect(types).toContain('-');

    const time = await viewer.playWithSpace();
    expect(time).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'Pause (Space)' }).count()).toBe(1);
    await screenshot(page, 'item-viewer-speech');
    await viewer.closeWithEscape();
    await page.waitForURL((url) => !url.searchParams.has('item'));
  },
);

test(
  'item viewer on audio classification: the metadata search says when nothing matches',
  { timeout: 300_000 },
  async () => {
    const { datasets } = await demoDatasets();
    const page = await journey.newPage();
    const chords = named(datasets, 'Demo · Chords');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.setViewportSize({ width: 1440, height: 900 });

    const explore = new ExplorePage(page);
    await explore.open(`/datasets/${chords.id}/explore`);
    const viewer = new ItemViewer(page);
    await viewer.openByDoubleClick(explore.cards().first());
    const sidebar = page.getByTestId('viewer-sidebar');
    await sidebar.getByTestId('metadata-group').first().waitFor();
    await viewer.searchMetadata('zzqx-no-such-field');
    await sidebar.getByText('No matches found.').waitFor();
    expect(await sidebar.getByTestId('metadata-group').count()).toBe(0);
    await viewer.searchMetadata('');
    await sidebar.getByTestId('metadata-group').first().waitFor();
    await viewer.closeWithEscape();
  },
);
